import SchemaLabSQLite

/// Fetching: objects (whole, as faults, in batches), object IDs, counts and dictionaries;
/// faults fired and relationships prefetched.
extension ManagedObjectContext {
    /// Runs a fetch request for managed objects (NSManagedObjectResultType).
    package func execute(_ request: FetchRequest) throws -> FetchedObjects {
        let e = request.entity
        if request.batchSize > 0 || !request.includesPropertyValues {
            let ids = try fetchIDs(request.sql.ids, entity: e)
            if request.batchSize > 0 {
                let results = FetchedObjects(context: self, entity: e, ids: ids, batchSize: request.batchSize)
                results.prefetch = request.prefetch
                results.keyBinding = request.keyBinding
                results.partial = request.partial
                return results
            }
            return FetchedObjects(context: self, entity: e, objects: registeredObjects(e, ids))
        }
        let objects = try fetchObjects(request.sql.objects, entity: e, asFaults: request.returnsObjectsAsFaults, partial: request.partial)
        for path in request.prefetch { try prefetch(path, from: objects, binding: request.keyBinding) }
        return FetchedObjects(context: self, entity: e, objects: objects)
    }

    /// Runs an object query with explicit bindings (paging re-binds the offset).
    func fetchObjects(
        _ q: FetchRequestSQL.Query, entity e: EntityDescription, asFaults: Bool, partial: PartialProperties? = nil
    ) throws -> [ManagedObject] {
        let s = try db.statement(q.sql)
        try s.bind(q.bindings)
        var objects: [ManagedObject] = []
        if let partial {
            while try s.step() { objects.append(materializePartial(s, entity: e, partial)) }
        } else {
            while try s.step() { objects.append(materialize(s, entity: e, asFault: asFaults)) }
        }
        s.reset()
        return objects
    }

    /// Runs an objects fetch with these bindings in place of the request's (a request compiled
    /// once and run for many keys).
    package func executePage(_ request: FetchRequest, bindings: [SQLValue]) throws -> [ManagedObject] {
        var q = request.sql.objects
        q.bindings = bindings
        return try executePage(request, query: q)
    }

    /// Runs `query`, one of the request's object queries (such as a page of it), with its prefetching.
    package func executePage(_ request: FetchRequest, query q: FetchRequestSQL.Query) throws -> [ManagedObject] {
        let objects = try fetchObjects(q, entity: request.entity, asFaults: request.returnsObjectsAsFaults, partial: request.partial)
        for path in request.prefetch { try prefetch(path, from: objects, binding: request.keyBinding) }
        return objects
    }

    /// NSManagedObjectIDResultType: the primary keys, in order.
    package func executeIDs(_ request: FetchRequest) throws -> [Int64] {
        try fetchIDs(request.sql.ids, entity: request.entity)
    }

    func fetchIDs(_ q: FetchRequestSQL.Query, entity: EntityDescription? = nil) throws -> [Int64] {
        let s = try db.statement(q.sql)
        try s.bind(q.bindings)
        var ids = KeyBuffer()
        if let entity, entity.hasSubentities {
            // Each ID's entity is the row's: its fault is registered as an object of that entity.
            while try s.step() {
                let pk = s.int64(at: 1)
                _ = registeredObject(entity.concrete(s.int64(at: 0)), pk)
                ids.append(pk)
            }
        } else {
            while try s.step() { ids.append(s.int64(at: 1)) }
        }
        s.reset()
        return ids.array
    }

    /// NSCountResultType (`countForFetchRequest:`).
    package func executeCount(_ request: FetchRequest) throws -> Int {
        let q = request.sql.count
        let s = try db.statement(q.sql)
        try s.bind(q.bindings)
        defer { s.reset() }
        guard try s.step() else { return 0 }
        return Int(s.int64(at: 0))
    }

    /// NSDictionaryResultType: the rows, their values in propertiesToFetch order
    /// (held as SQLite returned them in a `ValueTable` rather than one dictionary per
    /// row: the lab's choice, to stay at the SQLite floor; `DictionaryRows/rows` builds
    /// the values).
    package func executeDictionaries(_ request: FetchRequest) throws -> DictionaryRows {
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
    func materialize(_ s: Statement, entity e: EntityDescription, asFault: Bool = false) -> ManagedObject {
        if e.laidOut { return materializeLaidOut(s, entity: e, asFault: asFault) }
        let pk = s.int64(at: 1)
        let o = registeredObject(e, pk, room: true)
        guard o.isFault, !o.hasSnapshot else { return o }
        if o.partial != nil { o.clearPartial() }
        let n = e.attributeCount
        let values = o.roomForValues
        for i in 0..<n { values.fillNull(i, with: s.value(at: Int32(3 + i))) }
        if !e.externalAttributes.isEmpty { unpackExternal(o) }
        o.version = s.int64(at: 2)
        for j in 0..<e.toOne.count {
            let c = Int32(3 + n + j)
            o.related[j] = s.isNull(at: c) ? .none : .key(Unmanaged.passUnretained(e.destinations[j]), s.int64(at: c))
        }
        if asFault {
            o.hasSnapshot = true
        } else {
            o.isFault = false
            realizeToOnes(o)
        }
        return o
    }

    /// ``materialize(_:entity:asFault:)`` for a row of a table an inheritance hierarchy shares,
    /// or one with destination-entity columns: the row's Z_ENT names the object's entity, whose
    /// values the entity's ``EntityDescription/RowLayout`` finds among the selected columns.
    func materializeLaidOut(_ s: Statement, entity fetched: EntityDescription, asFault: Bool) -> ManagedObject {
        let e = fetched.sharesTable ? fetched.concrete(s.int64(at: 0)) : fetched
        let o = registeredObject(e, s.int64(at: 1), room: true)
        guard o.isFault, !o.hasSnapshot else { return o }
        if o.partial != nil { o.clearPartial() }
        let layout = fetched.layouts.isEmpty ? nil : fetched.layouts[e.number]
        let n = e.attributeCount
        let values = o.roomForValues
        for i in 0..<n { values.fillNull(i, with: s.value(at: layout?.attributes[i] ?? Int32(3 + i))) }
        if !e.externalAttributes.isEmpty { unpackExternal(o) }
        o.version = s.int64(at: 2)
        var column = Int32(3 + n)
        for j in 0..<e.toOne.count {
            let key = layout?.keys[j] ?? column
            column += 1
            var destination = e.destinations[j]
            if e.toOneHasEntityColumn[j] {
                let entityColumn = layout?.keyEntities[j] ?? column
                column += 1
                if !s.isNull(at: entityColumn) { destination = destination.concrete(s.int64(at: entityColumn)) }
            }
            if e.toOneHasOrderColumn[j] { column += 1 }  // the order key is the parent's to keep
            o.related[j] = s.isNull(at: key) ? .none : .key(Unmanaged.passUnretained(destination), s.int64(at: key))
        }
        if asFault {
            o.hasSnapshot = true
        } else {
            o.isFault = false
            realizeToOnes(o)
        }
        return o
    }

    /// Makes the objects of a realized object's to-one keys: the registered object of each, or
    /// a fault registered now. Core Data does this when an object's values are realized (a
    /// fetched object is a fault with its row until it is touched): the destinations are fault
    /// objects from then on (Big Nerd Ranch's iOS Programming: "fault objects are created that
    /// stand in for" them when the items are fetched). Until then the row keeps the keys, so a
    /// fetched object nothing touches makes none.
    @inline(__always)
    func realizeToOnes(_ o: ManagedObject) {
        for slot in 0..<o.related.count {
            if case .key(let entity, let pk) = o.related[slot] {
                o.related[slot] = .object(registeredObject(entity.takeUnretainedValue(), pk))
            }
        }
    }

    /// Stores one owner's run of prefetched rows: as its list, or after the list it has when
    /// its rows were not one run (the statement sorts by owner, so they are).
    private static func keep<Element>(_ run: [Element], for owner: Int64, in lists: inout [Int64: [Element]]) {
        if let at = lists.index(forKey: owner) {
            lists.values[at].append(contentsOf: run)
        } else {
            lists[owner] = run
        }
    }

    /// Loads one window of a batched fetch, returned in the order of `ids`.
    func loadBatch(
        entity e: EntityDescription, ids: ArraySlice<Int64>, binding: KeyBinding, partial: PartialProperties? = nil
    ) throws -> [ManagedObject] {
        let s = try db.statement(e.fetchSQL.batch(count: ids.count, binding: binding, columns: partial?.selectList))
        try bindKeys(ids, to: s, binding: binding)
        if let partial {
            while try s.step() { _ = materializePartial(s, entity: e, partial) }
        } else {
            while try s.step() { _ = materialize(s, entity: e) }
        }
        s.reset()
        return registeredObjects(e, ids)
    }

    /// Binds a list of keys: into the connection's integer array, or one parameter each.
    func bindKeys(_ keys: some Collection<Int64>, to s: Statement, binding: KeyBinding) throws {
        switch binding {
        case .integerArray: try db.integerArray.bind(keys)
        case .parameters:
            var p: Int32 = 1
            for key in keys { try s.bind(key, at: p); p += 1 }
        }
    }

    /// Reads a row of a partial fetch (`SELECT 1, t0.Z_PK, <listed columns>`) into a fault that
    /// holds the listed properties (an object already loaded is left as it is).
    func materializePartial(_ s: Statement, entity e: EntityDescription, _ partial: PartialProperties) -> ManagedObject {
        let o = registeredObject(e, s.int64(at: 1), room: true)
        guard o.isFault, !o.hasSnapshot, o.partial == nil else { return o }
        let values = o.roomForValues
        var column = Int32(2)
        for i in partial.attributes {
            values[i] = s.value(at: column)
            column += 1
        }
        for j in partial.toOnes {
            o.related[j] = s.isNull(at: column) ? .none : .key(Unmanaged.passUnretained(e.destinations[j]), s.int64(at: column))
            column += 1
        }
        o.partial = partial
        return o
    }

    /// Fires a fault to read attribute `index`, unless a partial fetch already read it.
    public func fireFault(_ object: ManagedObject, attribute index: Int) throws {
        if let p = object.partial, p.hasAttribute[index] { return }
        try fireFault(object)
    }

    /// Fires a fault to follow to-one `index`, unless a partial fetch already read it.
    public func fireFault(_ object: ManagedObject, toOne index: Int) throws {
        if let p = object.partial, p.hasToOne[index] { return }
        try fireFault(object)
    }

    /// Fires a fault: from its snapshot when the fetch left one, else one query by primary key.
    package func fireFault(_ object: ManagedObject) throws {
        guard object.isFault else { return }
        if object.hasSnapshot {
            object.isFault = false
            realizeToOnes(object)
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
    package func toMany(_ object: ManagedObject, _ index: Int) throws -> [ManagedObject] {
        if let targets = object.toManyTargets[index] { return targets }
        let sql = object.entity.toManyFaultSQL[index]
        let dest = object.entity.toManyDestinations[index]
        let s = try db.statement(sql)
        try s.bind(object.objectID, at: 1)
        var targets: [ManagedObject] = []
        if object.entity.toManyOrdered[index] {
            // The members in order, with their order keys (the save keeps them where it can).
            var keys: [Int64] = []
            while try s.step() {
                targets.append(registeredObject(dest.concrete(s.int64(at: 0)), s.int64(at: 1)))
                keys.append(s.int64(at: 2))
            }
            setOrderKeys(object, index, keys)
        } else if dest.hasSubentities {
            while try s.step() { targets.append(registeredObject(dest.concrete(s.int64(at: 0)), s.int64(at: 1))) }
        } else {
            while try s.step() { targets.append(registeredObject(dest, s.int64(at: 1))) }
        }
        s.reset()
        object.toManyTargets[index] = targets
        return targets
    }

    /// Prefetches a relationship path for `objects`, level by level: to-one steps load the
    /// faulted destinations by key; to-many steps load every destination row of the sources
    /// at once, sorted by source, and fill the sources' to-many sets. The keys are bound
    /// through the integer array (one statement per level, as Core Data) or as parameters
    /// (up to 500 a statement).
    func prefetch(_ path: [RelationshipModel], from objects: [ManagedObject], binding: KeyBinding) throws {
        var level = objects
        for r in path {
            guard let first = level.first else { return }
            if let idx = first.entity.toOneIndex(r.name) {
                let dest = first.entity.destinations[idx]
                let faults = level.compactMap { related($0, idx) }.filter(\.isFault)
                var seen = Set<Int64>()
                let ids = faults.map(\.objectID).filter { seen.insert($0).inserted }
                for start in stride(from: 0, to: ids.count, by: binding.chunk) {
                    _ = try loadBatch(entity: dest, ids: ids[start..<min(start &+ binding.chunk, ids.count)], binding: binding)
                }
                level = level.compactMap { related($0, idx) }
            } else if let idx = first.entity.toManyIndex(r.name) {
                let dest = first.entity.toManyDestinations[idx]
                var seen = Set<Int64>()
                let sources = level.filter { $0.toManyTargets[idx] == nil && seen.insert($0.objectID).inserted }
                for start in stride(from: 0, to: sources.count, by: binding.chunk) {
                    let chunk = sources[start..<min(start &+ binding.chunk, sources.count)]
                    let s = try db.statement(
                        first.entity.fetchSQL.toManyPrefetch(first.entity.toMany[idx], count: chunk.count, binding: binding))
                    try bindKeys(chunk.lazy.map(\.objectID), to: s, binding: binding)
                    // The rows come ORDER BY the owner's key: each owner's members are one run,
                    // kept with one dictionary write per owner rather than one per row.
                    var bySource: [Int64: [ManagedObject]] = [:]
                    var keysBySource: [Int64: [Int64]] = [:]
                    let ownerColumn = first.entity.fetchSQL.toManyPrefetchOwnerColumn(first.entity.toMany[idx])
                    let orderColumn = first.entity.fetchSQL.toManyPrefetchOrderColumn(first.entity.toMany[idx])
                    var owner: Int64? = nil
                    var members: [ManagedObject] = []
                    var memberKeys: [Int64] = []
                    func endRun() {
                        guard let owner else { return }
                        Self.keep(members, for: owner, in: &bySource)
                        if orderColumn != nil { Self.keep(memberKeys, for: owner, in: &keysBySource) }
                        members = []
                        memberKeys = []
                    }
                    while try s.step() {
                        let rowOwner = s.int64(at: ownerColumn)
                        if rowOwner != owner {
                            endRun()
                            owner = rowOwner
                        }
                        members.append(materialize(s, entity: dest))
                        if let orderColumn { memberKeys.append(s.int64(at: orderColumn)) }
                    }
                    endRun()
                    s.reset()
                    for o in chunk {
                        o.toManyTargets[idx] = bySource[o.objectID] ?? []
                        if orderColumn != nil { setOrderKeys(o, idx, keysBySource[o.objectID] ?? []) }
                    }
                }
                var nextSeen = Set<ObjectIdentifier>()
                level = level.flatMap { $0.toManyTargets[idx] ?? [] }.filter { nextSeen.insert(ObjectIdentifier($0)).inserted }
            } else {
                return
            }
        }
    }
}
