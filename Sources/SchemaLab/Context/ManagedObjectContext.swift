/// The Core Data behaviour the lab models, over one ``Store``:
///
/// - `insert` creates objects in memory; `save` allocates primary keys from
///   Z_PRIMARYKEY in one transaction, then inserts every object (one INSERT each)
///   in a second one, as Core Data's SQL debug log shows.
/// - `execute` materializes objects of the fetched entity only; their to-one
///   relationships point at registered faults, fired one query each when read.
/// - with a batch size, a fetch returns sorted IDs and loads windows on demand.
/// - objects are uniqued: one object per (entity, Z_PK) per context.
///
/// Not modelled: the coordinator's row cache, change tracking and merge policies,
/// optimistic-locking conflicts (Z_OPT is written, never checked), undo.
public final class ManagedObjectContext {
    public let store: Store
    public let objectModel: ManagedObjectModel
    private var registry: [Int64: ManagedObject] = [:]
    private var inserted: [ManagedObject] = []

    public init(store: Store, objectModel: ManagedObjectModel) {
        self.store = store
        self.objectModel = objectModel
    }

    var db: Database { store.db }

    @inline(__always)
    private func key(_ entity: EntityDescription, _ pk: Int64) -> Int64 { Int64(entity.number) << 40 | pk }

    /// The registered object for (entity, pk), creating a fault when there is none.
    func registeredObject(_ entity: EntityDescription, _ pk: Int64) -> ManagedObject {
        let k = key(entity, pk)
        if let o = registry[k] { return o }
        let o = ManagedObject(entity: entity, objectID: pk, isFault: true)
        registry[k] = o
        return o
    }

    // MARK: Inserting and saving

    /// A new object of `entity` with the given attribute values (entity attribute order).
    public func insert(_ entity: EntityDescription, values: [SQLValue]) -> ManagedObject {
        let o = ManagedObject(entity: entity, objectID: 0, isFault: false)
        o.values = values
        inserted.append(o)
        return o
    }

    /// Sets a to-one relationship (by its index in ``EntityDescription/toOne``).
    public func setRelated(_ object: ManagedObject, _ index: Int, to target: ManagedObject?) {
        object.related[index] = target
    }

    /// Adds targets to a to-many relationship (by its index in ``EntityDescription/toMany``).
    /// Set the inverse too, as Core Data maintains inverses: a save writes a
    /// many-to-many link from the side that names the join table.
    public func addRelated(_ object: ManagedObject, toMany index: Int, _ targets: some Collection<ManagedObject>) {
        if object.toManyTargets[index] == nil {
            object.toManyTargets[index] = Array(targets)
        } else {
            object.toManyTargets[index]!.append(contentsOf: targets)
        }
    }

    /// Adds one target to a to-many relationship.
    public func addRelated(_ object: ManagedObject, toMany index: Int, _ target: ManagedObject) {
        if object.toManyTargets[index] == nil {
            object.toManyTargets[index] = [target]
        } else {
            object.toManyTargets[index]!.append(target)
        }
    }

    /// Saves inserted objects: a Z_MAX block per entity, then one INSERT per object, then
    /// one INSERT per many-to-many link of the inserted objects, in the same transaction.
    public func save() throws {
        guard !inserted.isEmpty else { return }
        var perEntity: [[ManagedObject]] = Array(repeating: [], count: objectModel.entities.count + 1)
        for o in inserted { perEntity[o.entity.number].append(o) }
        try transaction {
            for e in objectModel.entities where !perEntity[e.number].isEmpty {
                let n = Int64(perEntity[e.number].count)
                let select = try db.statement(SaveSQL.selectMax)
                try select.bind(Int64(e.number), at: 1)
                guard try select.step() else { throw SQLiteError(code: 1, message: "no Z_PRIMARYKEY row for \(e.name)", sql: SaveSQL.selectMax) }
                let old = select.int64(at: 0)
                select.reset()
                try db.execute(SaveSQL.updateMax, [.integer(old + n), .integer(Int64(e.number)), .integer(old)])
                var pk = old
                for o in perEntity[e.number] { pk += 1; o.objectID = pk }
            }
        }
        try transaction {
            for e in objectModel.entities where !perEntity[e.number].isEmpty {
                let s = try db.statement(e.insertSQL)
                let fkCount = e.toOne.count
                for o in perEntity[e.number] {
                    try s.bind(o.objectID, at: 1)
                    try s.bind(Int64(e.number), at: 2)
                    try s.bind(Int64(1), at: 3)
                    for j in 0..<fkCount {
                        try s.bind(o.related[j].map { SQLValue.integer($0.objectID) } ?? .null, at: Int32(4 + j))
                    }
                    var p = Int32(4 + fkCount)
                    for v in o.values { try s.bind(v, at: p); p += 1 }
                    while try s.step() {}
                    s.reset()
                    registry[key(e, o.objectID)] = o
                }
            }
            for e in objectModel.entities where !perEntity[e.number].isEmpty {
                for link in e.linkInserts {
                    var s: Statement?
                    for o in perEntity[e.number] {
                        guard let targets = o.toManyTargets[link.toManyIndex], !targets.isEmpty else { continue }
                        let statement = try s ?? db.statement(link.sql)
                        s = statement
                        try statement.bind(o.objectID, at: 1)
                        for t in targets {
                            try statement.bind(t.objectID, at: 2)
                            while try statement.step() {}
                            statement.reset()
                        }
                    }
                }
            }
        }
        inserted.removeAll()
    }

    private func transaction(_ body: () throws -> Void) throws {
        try db.execute(SaveSQL.beginExclusive)
        do {
            try body()
            try db.execute(SaveSQL.commit)
        } catch {
            try? db.execute(SaveSQL.rollback)
            throw error
        }
    }

    // MARK: Fetching

    /// Runs a fetch request.
    public func execute(_ request: FetchRequest) throws -> FetchedObjects {
        let e = request.entity
        if request.batchSize > 0 {
            let s = try db.statement(e.fetchSQL.ids(sortedBy: request.sortDescriptors))
            var ids: [Int64] = []
            while try s.step() { ids.append(s.int64(at: 1)) }
            s.reset()
            return FetchedObjects(context: self, entity: e, ids: ids, batchSize: request.batchSize)
        }
        let s = try db.statement(e.fetchSQL.objects(sortedBy: request.sortDescriptors))
        var objects: [ManagedObject] = []
        while try s.step() { objects.append(materialize(s, entity: e)) }
        s.reset()
        for path in request.prefetch { try prefetch(path, from: objects) }
        return FetchedObjects(context: self, entity: e, objects: objects)
    }

    /// Reads the current row of `s` (object columns) into the registered object.
    private func materialize(_ s: Statement, entity e: EntityDescription) -> ManagedObject {
        let pk = s.int64(at: 1)
        let o = registeredObject(e, pk)
        guard o.isFault else { return o }
        let n = e.model.attributes.count
        var values: [SQLValue] = []
        values.reserveCapacity(n)
        for i in 0..<n { values.append(s.value(at: Int32(3 + i))) }
        o.values = values
        for j in 0..<e.toOne.count {
            let c = Int32(3 + n + j)
            o.related[j] = s.isNull(at: c) ? nil : registeredObject(e.destinations[j], s.int64(at: c))
        }
        o.isFault = false
        return o
    }

    /// Loads one window of a batched fetch, returned in the order of `ids`.
    func loadBatch(entity e: EntityDescription, ids: ArraySlice<Int64>) throws -> [ManagedObject] {
        let s = try db.statement(e.fetchSQL.batch(count: ids.count))
        var p: Int32 = 1
        for id in ids { try s.bind(id, at: p); p += 1 }
        while try s.step() { _ = materialize(s, entity: e) }
        s.reset()
        return ids.map { registeredObject(e, $0) }
    }

    /// Fires a fault: one query by primary key.
    public func fireFault(_ o: ManagedObject) throws {
        guard o.isFault else { return }
        let s = try db.statement(o.entity.faultSQL)
        try s.bind(o.objectID, at: 1)
        defer { s.reset() }
        guard try s.step() else {
            throw SQLiteError(code: 1, message: "fault for \(o.entity.name) \(o.objectID) found no row", sql: s.sql)
        }
        _ = materialize(s, entity: o.entity)
    }

    /// Prefetches a to-one path for `objects`: one `IN (...)` query per 500 keys and step.
    private func prefetch(_ path: [RelationshipModel], from objects: [ManagedObject]) throws {
        var level = objects
        for r in path {
            guard let first = level.first, let idx = first.entity.toOneIndex(r.name) else { return }
            let dest = first.entity.destinations[idx]
            let faults = level.compactMap { $0.related[idx] }.filter(\.isFault)
            var seen = Set<Int64>()
            let ids = faults.map(\.objectID).filter { seen.insert($0).inserted }
            for start in stride(from: 0, to: ids.count, by: 500) {
                _ = try loadBatch(entity: dest, ids: ids[start..<min(start + 500, ids.count)])
            }
            level = level.compactMap { $0.related[idx] }
        }
    }

    // MARK: Reading values

    /// The value at a key path on `object`, firing faults along the way as Core Data does.
    public func value(of object: ManagedObject, at path: KeyPathAccessor) throws -> SQLValue {
        var o = object
        for idx in path.relationshipIndexes {
            guard let next = o.related[idx] else { return .null }
            o = next
        }
        if o.isFault { try fireFault(o) }
        return o.values[path.attributeIndex]
    }
}
