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
    @exclusivity(unchecked) var registry = ObjectRegistry()
    @usableFromInline @exclusivity(unchecked) var inserted: [ManagedObject] = []
    /// Saved objects with changed attributes, written by the next save.
    @exclusivity(unchecked) var updated: [ManagedObject] = []
    /// The saved objects in `updated` for a to-many change only (``relate(_:_:to:)``): the save
    /// writes their version alone. Nil until there is one: a context is made per fetch (per
    /// box of a box set), and an empty set still costs each one a retain and a release.
    @exclusivity(unchecked) var relationsOnly: Set<ObjectIdentifier>? = nil
    /// Saved objects to delete at the next save, in the order they were deleted.
    @exclusivity(unchecked) var deleted: [ManagedObject] = []
    /// Ordered to-many relationships changed since the last save (object and ``EntityDescription/toMany`` index).
    @exclusivity(unchecked) var orderChanged: [(object: ManagedObject, index: Int)] = []
    /// Many-to-many links of deleted objects: the DELETE and the two keys.
    @exclusivity(unchecked) var deletedLinks: [(String, Int64, Int64)] = []
    /// External data files this save wrote (removed if it fails), and those replaced or
    /// deleted since the last save (removed once a save commits).
    @exclusivity(unchecked) var externalWritten: [String] = []
    @exclusivity(unchecked) var externalObsolete: [String] = []

    /// `transactionAuthor`: the author persistent history records for this context's saves.
    package var transactionAuthor: String?
    /// `name`: the context name persistent history records for this context's saves.
    package var name: String?
    /// Keep what each save changed (``lastSave``), as the save notification carries it.
    package var recordsSaves = false
    /// What the last save changed, when ``recordsSaves`` is on: the save notification's content.
    package var lastSave: SavedChanges?

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
            if !o.toManyTargets.isEmpty { o.toManyTargets = ToManySlots(count: o.toManyTargets.count) }
        }
        registry.forEach(breakCycles)
        for o in inserted { breakCycles(o) }
    }

    var db: Database { store.db }

    /// The registered object for (entity, pk), creating a fault when there is none: with room
    /// for its values when its row is about to fill it (`room`), else without: a to-one's
    /// destination, a to-many's member or an object ID's fault reads its entity's shared NULLs
    /// until a fault fire or a fetch fills it, and gets room then.
    func registeredObject(_ entity: EntityDescription, _ pk: Int64, room: Bool = false) -> ManagedObject {
        registry.object(entity.rootNumber, pk) { ManagedObject.make(entity: entity, objectID: pk, isFault: true, room: room) }
    }

    /// The registered objects for `ids`, in their order (faults without room made for those
    /// not registered). Written into an array of the right size: `ids.map` ran through the
    /// standard library's unspecialized append, about 46 instructions an object (7% of an
    /// indexed 10,000-fault fetch).
    func registeredObjects(_ entity: EntityDescription, _ ids: some Collection<Int64>) -> [ManagedObject] {
        [ManagedObject](unsafeUninitializedCapacity: ids.count) { buffer, initialized in
            for id in ids {
                buffer.initializeElement(at: initialized, to: registeredObject(entity, id))
                initialized += 1
            }
        }
    }

    /// True while inserted objects wait for a save (Core Data's `hasChanges`, for inserts).
    public var hasChanges: Bool { !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty || !orderChanged.isEmpty }

    // MARK: Inserting and saving

    /// Forgets a deleted object (after its save).
    func unregister(_ o: ManagedObject) { registry[o.entity.rootNumber, o.objectID] = nil }

    /// A new object of `entity` with the given attribute values (entity attribute order).
    /// A Float attribute keeps its value as a 32-bit float does (1.7 is held, and saved, as
    /// 1.7000000476837158), as an app's `Float` property hands Core Data.
    @inlinable public func insert(_ entity: EntityDescription, values: [SQLValue]) -> ManagedObject {
        precondition(values.count == entity.attributeCount, "\(entity.name) has \(entity.attributeCount) attributes, not \(values.count)")
        return insert(entity) { target in
            for i in values.indices { target[i] = values[i] }
        }
    }

    /// Inserts a new object whose attribute values `fill` writes in place, into the object's own
    /// storage (entity attribute order; every value is NULL until written), without an array of
    /// them first. The buffer is valid only during the call.
    @inlinable public func insert(_ entity: EntityDescription, writing fill: (UnsafeMutableBufferPointer<SQLValue>) -> Void)
        -> ManagedObject
    {
        let o = ManagedObject.make(entity: entity, objectID: 0, isFault: false)
        let values = o.values  // made with room: nothing to check
        fill(UnsafeMutableBufferPointer(start: values.base, count: values.count))
        for i in entity.floatAttributeIndexes { values[i] = values[i].heldAsFloat }
        inserted.append(o)
        return o
    }

    /// Sets a to-one relationship (by its index in `EntityDescription/toOne`).
    @inlinable
    public func setRelated(_ object: ManagedObject, _ index: Int, to target: ManagedObject?) {
        object.fields.pointee.related.set(index, target)
    }

    /// The object a to-one slot points at, or nil: the object set or registered for it, or,
    /// for a key a fetch left there, the object this context has registered for that row (a
    /// fault made now when there is none), which the slot keeps from then on.
    public func related(_ object: ManagedObject, _ slot: Int) -> ManagedObject? {
        switch object.related[slot] {
        case .none: return nil
        case .object(let target): return target
        case .key(let entity, let pk):
            let target = registeredObject(entity.takeUnretainedValue(), pk)
            object.related[slot] = .object(target)
            return target
        }
    }

    /// The primary key and entity number a to-one slot points at (what a save writes), without
    /// making the destination's object; nil when the slot is empty.
    func relatedKey(_ object: ManagedObject, _ slot: Int) -> (objectID: Int64, entity: Int)? {
        switch object.related[slot] {
        case .none: return nil
        case .object(let target): return (target.objectID, target.entity.number)
        case .key(let entity, let pk): return (pk, entity.takeUnretainedValue().number)
        }
    }

    /// True when a to-one slot points at `target` (as an object or by its key).
    func isRelated(_ object: ManagedObject, _ slot: Int, to target: ManagedObject) -> Bool {
        switch object.related[slot] {
        case .none: return false
        case .object(let o): return o === target
        case .key(let entity, let pk): return pk == target.objectID && entity.takeUnretainedValue().rootNumber == target.entity.rootNumber
        }
    }

    /// Adds targets to a to-many relationship (by its index in `EntityDescription/toMany`).
    /// Set the inverse too, as Core Data maintains inverses: a save writes a
    /// many-to-many link from the side that names the join table.
    ///
    /// Inlinable, so that the collection's type is specialized where the workload calls it
    /// (unspecialized, the generic iteration cost 11% of an insert with to-many relationships).
    @inlinable
    public func addRelated(_ object: ManagedObject, toMany index: Int, _ targets: some Collection<ManagedObject>) {
        object.fields.pointee.toManyTargets.update(index) { slot in
            if slot == nil { slot = Array(targets) } else { slot!.append(contentsOf: targets) }
        }
    }

    /// Adds one target to a to-many relationship.
    @inlinable
    public func addRelated(_ object: ManagedObject, toMany index: Int, _ target: ManagedObject) {
        object.fields.pointee.toManyTargets.update(index) { slot in
            if slot == nil { slot = [target] } else { slot!.append(target) }
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

    // MARK: Reading values

    /// The value at a key path on `object`, firing faults along the way as Core Data does.
    /// Inlinable: workloads read every value of their results through it.
    @inlinable
    public func value(of object: ManagedObject, at path: KeyPathAccessor) throws -> SQLValue {
        var o = object
        for idx in path.relationshipIndexes {
            if o.isFault { try fireFault(o, toOne: idx) }
            guard let next = related(o, idx) else { return .null }
            o = next
        }
        if o.isFault { try fireFault(o, attribute: path.attributeIndex) }
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
        o.roomForValues[index] = bytes
        return bytes
    }

    /// A fetched row's externally stored attributes: inline bytes lose their tag; a file
    /// reference becomes the object's record of the file, its value read when asked for.
    func unpackExternal(_ o: ManagedObject) {
        for (i, _) in o.entity.externalAttributes {
            switch ExternalBinaryData.stored(o.values[i]) {
            case .value(let v): o.roomForValues[i] = v
            case .file(let name):
                o.roomForValues[i] = .null
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
