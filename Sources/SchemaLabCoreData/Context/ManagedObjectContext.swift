import SchemaLabSQLite

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
    @exclusivity(unchecked) private var registry = ObjectRegistry()
    @usableFromInline @exclusivity(unchecked) var inserted: [ManagedObject] = []
    /// Saved objects with changed attributes, written by the next save.
    @exclusivity(unchecked) var updated: [ManagedObject] = []
    /// Saved objects to delete at the next save, in the order they were deleted.
    @exclusivity(unchecked) var deleted: [ManagedObject] = []
    /// Many-to-many links of deleted objects: the DELETE and the two keys.
    @exclusivity(unchecked) var deletedLinks: [(String, Int64, Int64)] = []
    /// External data files this save wrote (removed if it fails), and those replaced or
    /// deleted since the last save (removed once a save commits).
    @exclusivity(unchecked) var externalWritten: [String] = []
    @exclusivity(unchecked) var externalObsolete: [String] = []

    public init(store: Store, objectModel: ManagedObjectModel) {
        self.store = store
        self.objectModel = objectModel
    }

    /// Breaks the reference cycles between the context's objects (an inverse relationship
    /// is a strong reference each way), as an app's `reset()` does: without it every
    /// object of a one-to-one or one-to-many pair outlived its context (filling V3's store
    /// with 1,000,000 photos kept 900 MB of them; each repetition of a V2 case leaked its objects).
    deinit {
        func breakCycles(_ o: ManagedObject) {
            if !o.related.isEmpty { o.related = ToOneSlots(count: o.related.count) }
            if !o.toManyTargets.isEmpty { o.toManyTargets = Array(repeating: nil, count: o.toManyTargets.count) }
        }
        registry.forEach(breakCycles)
        for o in inserted { breakCycles(o) }
    }

    var db: Database { store.db }

    /// The registered object for (entity, pk), creating a fault when there is none.
    func registeredObject(_ entity: EntityDescription, _ pk: Int64) -> ManagedObject {
        registry.object(entity.number, pk) { ManagedObject(entity: entity, objectID: pk, isFault: true) }
    }

    // MARK: Inserting and saving

    /// Forgets a deleted object (after its save).
    func unregister(_ o: ManagedObject) { registry[o.entity.number, o.objectID] = nil }

    /// A new object of `entity` with the given attribute values (entity attribute order).
    @inlinable public func insert(_ entity: EntityDescription, values: [SQLValue]) -> ManagedObject {
        let o = ManagedObject(entity: entity, objectID: 0, isFault: false, values: values)
        inserted.append(o)
        return o
    }

    /// Sets a to-one relationship (by its index in ``EntityDescription/toOne``).
    @inlinable
    public func setRelated(_ object: ManagedObject, _ index: Int, to target: ManagedObject?) {
        object.storedRelated[index] = target
    }

    /// Adds targets to a to-many relationship (by its index in ``EntityDescription/toMany``).
    /// Set the inverse too, as Core Data maintains inverses: a save writes a
    /// many-to-many link from the side that names the join table.
    ///
    /// Inlinable, so that the collection's type is specialized where the workload calls it
    /// (unspecialized, the generic iteration cost 11% of an insert with to-many relationships).
    @inlinable
    public func addRelated(_ object: ManagedObject, toMany index: Int, _ targets: some Collection<ManagedObject>) {
        if object.storedToManyTargets[index] == nil {
            object.storedToManyTargets[index] = Array(targets)
        } else {
            object.storedToManyTargets[index]!.append(contentsOf: targets)
        }
    }

    /// Adds one target to a to-many relationship.
    @inlinable
    public func addRelated(_ object: ManagedObject, toMany index: Int, _ target: ManagedObject) {
        if object.storedToManyTargets[index] == nil {
            object.storedToManyTargets[index] = [target]
        } else {
            object.storedToManyTargets[index]!.append(target)
        }
    }

    /// Saves inserted objects: a Z_MAX block per entity, then one INSERT per object, then
    /// one INSERT per many-to-many link of the inserted objects, in the same transaction.
    public func save() throws {
        try maintainCounters()
        guard !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty else { return }
        if objectModel.hasCanonicalAttributes { maintainCanonicalAttributes() }
        try validate()
        var perEntity: [[ManagedObject]] = Array(repeating: [], count: objectModel.entities.count + 1)
        for o in inserted { perEntity[o.entity.number].append(o) }
        if !inserted.isEmpty {
            try transaction {
                for e in objectModel.entities where !perEntity[e.number].isEmpty {
                    var pk = try allocateKeys(e, count: Int64(perEntity[e.number].count))
                    for o in perEntity[e.number] { pk += 1; o.objectID = pk }
                }
            }
        }
        externalWritten.removeAll()
        do {
            try writeChanges(perEntity)
        } catch {
            ExternalBinaryData.remove(externalWritten, directory: store.externalDataDirectory)
            throw error
        }
        ExternalBinaryData.remove(externalObsolete, directory: store.externalDataDirectory)
        externalObsolete.removeAll()
        inserted.removeAll()
        for o in updated { o.version += 1; o.changed = []; o.changedRelations = [] }
        updated.removeAll()
        for o in deleted { unregister(o) }
        deleted.removeAll()
    }

    /// The save's write transaction: the inserts, their links, the updates, the deletes.
    private func writeChanges(_ perEntity: [[ManagedObject]]) throws {
        try transaction {
            for e in objectModel.entities where !perEntity[e.number].isEmpty {
                let s = try db.statement(e.insertSQL)
                let fkCount = e.toOne.count
                let objects = perEntity[e.number]
                for (position, o) in objects.enumerated() {
                    try s.bind(o.objectID, at: 1)
                    try s.bind(Int64(e.number), at: 2)
                    try s.bind(Int64(1), at: 3)
                    for j in 0..<fkCount {
                        try s.bind(o.related[j].map { SQLValue.integer($0.objectID) } ?? .null, at: Int32(4 + j))
                    }
                    var p = Int32(4 + fkCount)
                    if e.externalAttributes.isEmpty {
                        for v in o.values { try s.bind(v, at: p); p += 1 }
                    } else {
                        for i in o.values.indices { try s.bind(try storedValue(o, i), at: p); p += 1 }
                    }
                    do {
                        while try s.step() {}
                    } catch let error as SQLiteError {
                        throw SQLiteError(
                            code: error.code, message: error.message + " (\(e.name) object \(position + 1) of \(objects.count) inserted)",
                            sql: error.sql)
                    }
                    s.reset()
                    registry[e.number, o.objectID] = o
                    o.version = 1
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
            try writeUpdates()
            try writeDeletes()
        }
    }

    /// Sets every canonical search attribute (`canonicalOf`) of the objects about to be
    /// written from its source, as an app's `willSave` does: on inserted objects, and on
    /// updated ones whose source changed (the canonical attribute is then written too).
    private func maintainCanonicalAttributes() {
        for o in inserted {
            for (t, s) in o.entity.canonicalPairs { o.values[t] = CanonicalString.of(o.values[s]) }
        }
        for o in updated where !o.isDeleted {
            for (t, s) in o.entity.canonicalPairs where o.changed.contains(s) {
                o.values[t] = CanonicalString.of(o.values[s])
                if !o.changed.contains(t) { o.changed.append(t) }
            }
        }
    }

    /// Core Data's validation before a save: every inserted or changed object's
    /// non-optional attributes have a value.
    /// Inside a timed save: a model with no non-optional attribute checks nothing, and the
    /// failing object's position is counted only when there is a failure (counting it for
    /// every object cost 4% of a 10,000-object insert's instructions under callgrind).
    private func validate() throws {
        guard objectModel.hasRequiredAttributes else { return }
        // An externally stored value not read yet is NULL in memory but has its file.
        func missing(_ o: ManagedObject, _ a: Int) -> Bool { o.values[a] == .null && o.externalFiles?[a] == nil }
        for (i, o) in inserted.enumerated() {
            for a in o.entity.requiredAttributes where missing(o, a) {
                let same = inserted.lazy.filter { $0.entity === o.entity }
                let position = inserted[..<i].lazy.filter { $0.entity === o.entity }.count + 1
                throw MandatoryPropertyError(
                    entity: o.entity.name, attribute: o.entity.model.attributes[a].name,
                    position: "object \(position) of \(same.count) inserted")
            }
        }
        for o in updated where !o.isDeleted {
            for a in o.entity.requiredAttributes where missing(o, a) {
                throw MandatoryPropertyError(
                    entity: o.entity.name, attribute: o.entity.model.attributes[a].name, position: "object \(o.objectID)")
            }
        }
    }

    func transaction(_ body: () throws -> Void) throws {
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

    /// True while inserted objects wait for a save (Core Data's `hasChanges`, for inserts).
    public var hasChanges: Bool { !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty }

    /// Runs a fetch request for managed objects (NSManagedObjectResultType).
    public func execute(_ request: FetchRequest) throws -> FetchedObjects {
        let e = request.entity
        if request.batchSize > 0 || !request.includesPropertyValues {
            let ids = try fetchIDs(request.sql.ids)
            if request.batchSize > 0 {
                let results = FetchedObjects(context: self, entity: e, ids: ids, batchSize: request.batchSize)
                results.prefetch = request.prefetch
                return results
            }
            return FetchedObjects(context: self, entity: e, objects: ids.map { registeredObject(e, $0) })
        }
        let objects = try fetchObjects(request.sql.objects, entity: e, asFaults: request.returnsObjectsAsFaults)
        for path in request.prefetch { try prefetch(path, from: objects) }
        return FetchedObjects(context: self, entity: e, objects: objects)
    }

    /// Runs an object query with explicit bindings (paging re-binds the offset).
    func fetchObjects(_ q: FetchRequestSQL.Query, entity e: EntityDescription, asFaults: Bool) throws -> [ManagedObject] {
        let s = try db.statement(q.sql)
        try s.bind(q.bindings)
        var objects: [ManagedObject] = []
        while try s.step() { objects.append(materialize(s, entity: e, asFault: asFaults)) }
        s.reset()
        return objects
    }

    /// Runs an objects fetch with these bindings in place of the request's (one page of a paged fetch).
    public func executePage(_ request: FetchRequest, bindings: [SQLValue]) throws -> [ManagedObject] {
        var q = request.sql.objects
        q.bindings = bindings
        let objects = try fetchObjects(q, entity: request.entity, asFaults: request.returnsObjectsAsFaults)
        for path in request.prefetch { try prefetch(path, from: objects) }
        return objects
    }

    /// NSManagedObjectIDResultType: the primary keys, in order.
    public func executeIDs(_ request: FetchRequest) throws -> [Int64] {
        try fetchIDs(request.sql.ids)
    }

    private func fetchIDs(_ q: FetchRequestSQL.Query) throws -> [Int64] {
        let s = try db.statement(q.sql)
        try s.bind(q.bindings)
        var ids: [Int64] = []
        while try s.step() { ids.append(s.int64(at: 1)) }
        s.reset()
        return ids
    }

    /// NSCountResultType (`countForFetchRequest:`).
    public func executeCount(_ request: FetchRequest) throws -> Int {
        let q = request.sql.count
        let s = try db.statement(q.sql)
        try s.bind(q.bindings)
        defer { s.reset() }
        guard try s.step() else { return 0 }
        return Int(s.int64(at: 0))
    }

    /// NSDictionaryResultType: the rows, their values in propertiesToFetch order
    /// (held as SQLite returned them in a ``ValueTable`` rather than one dictionary per
    /// row: the lab's choice, to stay at the SQLite floor; ``DictionaryRows/rows`` builds
    /// the values).
    public func executeDictionaries(_ request: FetchRequest) throws -> DictionaryRows {
        guard let q = request.sql.dictionaries else { preconditionFailure("a dictionaries request has a dictionary shape") }
        let s = try db.statement(q.sql)
        try s.bind(q.bindings)
        let table = ValueTable(columnCount: Int(s.columnCount))
        while try s.step() { table.appendRow(from: s) }
        s.reset()
        return DictionaryRows(table: table)
    }

    /// Reads the current row of `s` (object columns) into the registered object. With
    /// `asFault`, the values are kept as a snapshot and the object stays a fault.
    private func materialize(_ s: Statement, entity e: EntityDescription, asFault: Bool = false) -> ManagedObject {
        let pk = s.int64(at: 1)
        let o = registeredObject(e, pk)
        guard o.isFault, !o.hasSnapshot else { return o }
        let n = e.model.attributes.count
        // One allocation through reserveCapacity, whose buffer code is specialized here:
        // `Array(unsafeUninitializedCapacity:)` allocates through the standard library's
        // unspecialized path, which looked up the metadata of `_ContiguousArrayStorage<SQLValue>`
        // in the runtime's hash map on every call (11% of an object fetch's instructions).
        var values: [SQLValue] = []
        values.reserveCapacity(n)
        for i in 0..<n { values.append(s.value(at: Int32(3 + i))) }
        o.values = values
        if !e.externalAttributes.isEmpty { unpackExternal(o) }
        o.version = s.int64(at: 2)
        for j in 0..<e.toOne.count {
            let c = Int32(3 + n + j)
            o.related[j] = s.isNull(at: c) ? nil : registeredObject(e.destinations[j], s.int64(at: c))
        }
        if asFault { o.hasSnapshot = true } else { o.isFault = false }
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

    /// Fires a fault: from its snapshot when the fetch left one, else one query by primary key.
    public func fireFault(_ object: ManagedObject) throws {
        guard object.isFault else { return }
        if object.hasSnapshot {
            object.isFault = false
            return
        }
        let s = try db.statement(object.entity.faultSQL)
        try s.bind(object.objectID, at: 1)
        defer { s.reset() }
        guard try s.step() else {
            throw SQLiteError(code: 1, message: "fault for \(object.entity.name) \(object.objectID) found no row", sql: s.sql)
        }
        _ = materialize(s, entity: object.entity)
    }

    /// The objects of a to-many relationship, firing its fault when needed: one query for the
    /// destination's primary keys (`SELECT 0, t0.Z_PK FROM ZBOOK t0 WHERE t0.ZAUTHOR = ?`); the
    /// objects are faults.
    public func toMany(_ object: ManagedObject, _ index: Int) throws -> [ManagedObject] {
        if let targets = object.toManyTargets[index] { return targets }
        let sql = object.entity.fetchSQL.toManyFault(object.entity.toMany[index])
        let dest = object.entity.toManyDestinations[index]
        let s = try db.statement(sql)
        try s.bind(object.objectID, at: 1)
        var targets: [ManagedObject] = []
        while try s.step() { targets.append(registeredObject(dest, s.int64(at: 1))) }
        s.reset()
        object.toManyTargets[index] = targets
        return targets
    }

    /// Prefetches a relationship path for `objects`, level by level: to-one steps load the
    /// faulted destinations with `IN (?,…)` queries of up to 500 keys; to-many steps load
    /// every destination row of up to 500 sources at once and fill the sources' to-many sets.
    func prefetch(_ path: [RelationshipModel], from objects: [ManagedObject]) throws {
        var level = objects
        for r in path {
            guard let first = level.first else { return }
            if let idx = first.entity.toOneIndex(r.name) {
                let dest = first.entity.destinations[idx]
                let faults = level.compactMap { $0.related[idx] }.filter(\.isFault)
                var seen = Set<Int64>()
                let ids = faults.map(\.objectID).filter { seen.insert($0).inserted }
                for start in stride(from: 0, to: ids.count, by: 500) {
                    _ = try loadBatch(entity: dest, ids: ids[start..<min(start + 500, ids.count)])
                }
                level = level.compactMap { $0.related[idx] }
            } else if let idx = first.entity.toManyIndex(r.name) {
                let dest = first.entity.toManyDestinations[idx]
                var seen = Set<Int64>()
                let sources = level.filter { $0.toManyTargets[idx] == nil && seen.insert($0.objectID).inserted }
                for start in stride(from: 0, to: sources.count, by: 500) {
                    let chunk = sources[start..<min(start + 500, sources.count)]
                    let s = try db.statement(first.entity.fetchSQL.toManyPrefetch(first.entity.toMany[idx], count: chunk.count))
                    var p: Int32 = 1
                    for o in chunk { try s.bind(o.objectID, at: p); p += 1 }
                    var bySource: [Int64: [ManagedObject]] = [:]
                    let ownerColumn = first.entity.fetchSQL.toManyPrefetchOwnerColumn(first.entity.toMany[idx])
                    while try s.step() {
                        let target = materialize(s, entity: dest)
                        bySource[s.int64(at: ownerColumn), default: []].append(target)
                    }
                    s.reset()
                    for o in chunk { o.toManyTargets[idx] = bySource[o.objectID] ?? [] }
                }
                var nextSeen = Set<ObjectIdentifier>()
                level = level.flatMap { $0.toManyTargets[idx] ?? [] }.filter { nextSeen.insert(ObjectIdentifier($0)).inserted }
            } else {
                return
            }
        }
    }

    // MARK: Reading values

    /// The value at a key path on `object`, firing faults along the way as Core Data does.
    /// Inlinable: workloads read every value of their results through it.
    @inlinable
    public func value(of object: ManagedObject, at path: KeyPathAccessor) throws -> SQLValue {
        var o = object
        for idx in path.relationshipIndexes {
            guard let next = o.related[idx] else { return .null }
            o = next
        }
        if o.isFault { try fireFault(o) }
        return try attributeValue(o, path.attributeIndex)
    }

    /// An attribute's value, reading an externally stored one's file the first time.
    /// Inlinable: the workloads' touch step reads every value through it.
    @inlinable package func attributeValue(_ object: ManagedObject, _ index: Int) throws -> SQLValue {
        let v = object.values[index]
        guard case .null = v, object.externalFiles != nil else { return v }
        return try externalValue(object, index)
    }

    /// An externally stored attribute's value: its file, read the first time.
    @usableFromInline func externalValue(_ o: ManagedObject, _ index: Int) throws -> SQLValue {
        guard let name = o.externalFiles?[index] else { return .null }
        let bytes = try ExternalBinaryData.read(name, directory: store.externalDataDirectory)
        o.values[index] = bytes
        return bytes
    }

    /// A fetched row's externally stored attributes: inline bytes lose their tag; a file
    /// reference becomes the object's record of the file, its value read when asked for.
    private func unpackExternal(_ o: ManagedObject) {
        for (i, _) in o.entity.externalAttributes {
            switch ExternalBinaryData.stored(o.values[i]) {
            case .value(let v): o.values[i] = v
            case .file(let name):
                o.values[i] = .null
                if o.externalFiles == nil { o.externalFiles = [:] }
                o.externalFiles![i] = name
            }
        }
    }

    /// The column value to write for attribute `index` of `o`: for external storage, the
    /// tagged inline bytes or a new file's reference (a new file is removed if the save
    /// fails; the file a new value replaces was queued when the value was set).
    func storedValue(_ o: ManagedObject, _ index: Int) throws -> SQLValue {
        guard let (_, threshold) = o.entity.externalAttributes.first(where: { $0.index == index }) else { return o.values[index] }
        if case .null = o.values[index], o.externalFiles?[index] != nil {
            // Never read, unchanged: the file stays.
            return .blob([ExternalBinaryData.externalTag] + Array(o.externalFiles![index]!.utf8))
        }
        let (stored, file) = try ExternalBinaryData.encode(o.values[index], threshold: threshold, directory: store.externalDataDirectory)
        if let file {
            externalWritten.append(file)
            if o.externalFiles == nil { o.externalFiles = [:] }
            o.externalFiles![index] = file
        } else {
            o.externalFiles?[index] = nil
        }
        return stored
    }
}
