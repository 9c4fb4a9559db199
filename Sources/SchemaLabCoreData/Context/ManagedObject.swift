import SchemaLabSQLite

/// A managed object: one row of one entity, materialized or still a fault.
///
/// As in Core Data, a fetched object's to-one relationships point at objects of the
/// destination entity that are faults until something reads them (made when the object is
/// realized, or when a relationship is followed first: ``ManagedObjectContext/related(_:_:)``);
/// its to-many relationships are faults (nil) until read or prefetched.
///
/// The attribute values live in the object's own allocation, after its fields (a
/// `ManagedBuffer` whose elements are the values): one allocation per object, where a
/// separate `[SQLValue]` cost a second allocation and the array's bookkeeping per fetched row
/// (10% of a 10,000-row photo fetch's instructions under callgrind) and a temporary array per
/// inserted row. A fault made without its row (a to-one's destination, a to-many's member,
/// an object ID) has no room for values: it reads its entity's shared NULLs until it is
/// filled, and then gets room beside it (one more allocation, for the faults that are fired).
/// Room for every attribute in every fault cost 24 bytes an attribute that nothing filled (the
/// V2 photo fetch's heap per photo rose from 561 to 758 bytes with its meta fault).
public final class ManagedObject: ManagedBuffer<ManagedObjectFields, SQLValue> {
    /// A new object of `entity`, its values NULL: with room for them in its own allocation, or,
    /// without `room`, reading the entity's shared NULLs until ``roomForValues`` makes room.
    @inlinable static func make(entity: EntityDescription, objectID: Int64, isFault: Bool, room: Bool = true) -> ManagedObject {
        let count = room ? entity.attributeCount : 0
        let buffer = ManagedObject.create(minimumCapacity: count) { _ in
            ManagedObjectFields(entity: entity, objectID: objectID, isFault: isFault, storage: entity.nullValues)
        }
        let object = unsafeDowncast(buffer, to: ManagedObject.self)
        if room {
            object.withUnsafeMutablePointers { fields, values in
                values.initialize(repeating: .null, count: count)
                fields.pointee.storage = values
                fields.pointee.room = .inline
            }
        }
        return object
    }

    deinit {
        withUnsafeMutablePointerToHeader { fields in
            let count = fields.pointee.entity.attributeCount
            switch fields.pointee.room {
            case .none: break
            case .inline: fields.pointee.storage.deinitialize(count: count)
            case .beside:
                fields.pointee.storage.deinitialize(count: count)
                fields.pointee.storage.deallocate()
            }
        }
    }

    /// The values to write: the object's room, made now (beside the object, all NULL) for a
    /// fault that had none. Every write goes through here; reads use ``values``.
    @inlinable var roomForValues: ObjectValues {
        let count = fields.pointee.entity.attributeCount
        if fields.pointee.room == .none { makeRoom(count) }
        return ObjectValues(base: fields.pointee.storage, count: count)
    }

    @usableFromInline func makeRoom(_ count: Int) {
        let storage = UnsafeMutablePointer<SQLValue>.allocate(capacity: max(count, 1))
        storage.initialize(repeating: .null, count: count)
        fields.pointee.storage = storage
        fields.pointee.room = .beside
    }

    /// The object's fields, in place (the object is alive while its method runs).
    @inlinable var fields: UnsafeMutablePointer<ManagedObjectFields> { withUnsafeMutablePointerToHeader { $0 } }

    public var entity: EntityDescription { fields.pointee.entity }
    /// Z_PK; 0 for an inserted object until it is saved.
    public internal(set) var objectID: Int64 {
        @inlinable get { fields.pointee.objectID }
        @inlinable set { fields.pointee.objectID = newValue }
    }
    /// Attribute values in the entity's (alphabetical) attribute order; NULL while a fault
    /// without a snapshot (a partial fault holds only the properties it fetched). For reading:
    /// the context writes through `roomForValues`.
    public var values: ObjectValues {
        @inlinable get { ObjectValues(base: fields.pointee.storage, count: fields.pointee.entity.attributeCount) }
    }
    /// Targets of the to-one relationships, in `EntityDescription/toOne` order.
    public internal(set) var related: ToOneSlots {
        @inlinable get { fields.pointee.related }
        @inlinable _modify { yield &fields.pointee.related }
    }
    /// Targets of the to-many relationships, in `EntityDescription/toMany` order;
    /// nil while that relationship is a fault (not yet read from the store).
    public internal(set) var toManyTargets: ToManySlots {
        @inlinable get { fields.pointee.toManyTargets }
        @inlinable _modify { yield &fields.pointee.toManyTargets }
    }
    /// True until the object's values are available to read.
    public internal(set) var isFault: Bool {
        @inlinable get { fields.pointee.isFault }
        @inlinable set { fields.pointee.isFault = newValue }
    }
    /// True when a fetch left the row's values in `values` but the object a fault
    /// (returnsObjectsAsFaults): reading it fulfils the fault without SQL.
    public internal(set) var hasSnapshot: Bool {
        @inlinable get { fields.pointee.hasSnapshot }
        @inlinable set { fields.pointee.hasSnapshot = newValue }
    }
    /// The properties a partial fetch (`propertiesToFetch` on objects) read into this fault;
    /// reading any other fires it. Nil for every other object.
    public internal(set) var partial: PartialProperties? {
        @inlinable get { fields.pointee.extras?.partial }
        set {
            if newValue == nil && fields.pointee.extras == nil { return }
            extras.partial = newValue
        }
    }
    /// Forgets what a partial fetch read (its values back to NULL), before the whole row is
    /// read into the object: a fault that is filled holds only NULLs.
    func clearPartial() {
        roomForValues.clearAll()
        partial = nil
    }
    /// Z_OPT: the row version read or written last (optimistic locking).
    public internal(set) var version: Int64 {
        @inlinable get { fields.pointee.version }
        @inlinable set { fields.pointee.version = newValue }
    }
    /// True once deleted in its context (its row goes at the next save).
    public internal(set) var isDeleted: Bool {
        @inlinable get { fields.pointee.isDeleted }
        @inlinable set { fields.pointee.isDeleted = newValue }
    }
    /// Attribute indexes changed since the last save (saved objects only).
    var changed: [Int] {
        get { fields.pointee.changed }
        _modify { yield &fields.pointee.changed }
    }
    /// To-one slots changed since the last save (a nullified inverse).
    var changedRelations: [Int] {
        get { fields.pointee.changedRelations }
        _modify { yield &fields.pointee.changedRelations }
    }
    /// External storage: the file of each externally stored attribute (by index), as the
    /// row references it; with `values` still NULL there until the attribute is read.
    @usableFromInline var externalFiles: [Int: String]? {
        @inlinable get { fields.pointee.extras?.externalFiles }
        _modify { yield &extras.externalFiles }
    }
    /// The order keys of the ordered to-many relationships read or saved, by ``EntityDescription/toMany``
    /// index, parallel to their targets (0: a member not stored in that place yet).
    var orderKeys: [Int: [Int64]]? {
        get { fields.pointee.extras?.orderKeys }
        _modify { yield &extras.orderKeys }
    }
    /// The order key a save writes with this object's row, by to-one slot (the inverse of an
    /// ordered one-to-many it was added to).
    var memberOrderKeys: [Int: Int64]? {
        get { fields.pointee.extras?.memberOrderKeys }
        _modify { yield &extras.memberOrderKeys }
    }
    /// The object's rarely used fields, made when one is first set.
    var extras: ObjectExtras {
        if let extras = fields.pointee.extras { return extras }
        let extras = ObjectExtras()
        fields.pointee.extras = extras
        return extras
    }
}

/// The fields of a ``ManagedObject``, at the start of its allocation (its attribute values follow
/// them there, or are in a buffer beside it, or are its entity's shared NULLs: `storage`).
public struct ManagedObjectFields {
    @usableFromInline let entity: EntityDescription
    @usableFromInline var objectID: Int64
    @usableFromInline var related: ToOneSlots
    @usableFromInline var toManyTargets: ToManySlots
    @usableFromInline var isFault: Bool
    @usableFromInline var hasSnapshot = false
    @usableFromInline var isDeleted = false
    /// Where `storage` points (beside the flags, in their padding).
    @usableFromInline var room: ValueRoom = .none
    @usableFromInline var version: Int64 = 0
    @usableFromInline var changed: [Int] = []
    @usableFromInline var changedRelations: [Int] = []
    @usableFromInline var extras: ObjectExtras? = nil
    /// Where the values are: the object's own elements, a buffer beside it, or (no room) the
    /// entity's shared NULLs.
    @usableFromInline var storage: UnsafeMutablePointer<SQLValue>

    @inlinable init(entity: EntityDescription, objectID: Int64, isFault: Bool, storage: UnsafeMutablePointer<SQLValue>) {
        self.entity = entity
        self.objectID = objectID
        self.isFault = isFault
        self.storage = storage
        self.related = ToOneSlots(count: entity.toOneCount)
        self.toManyTargets = ToManySlots(count: entity.toManyCount)
    }
}

/// Where a ``ManagedObject``'s values live.
@usableFromInline enum ValueRoom: UInt8 {
    /// None yet: a fault reading its entity's shared NULLs.
    case none
    /// In the object's own allocation, after its fields.
    case inline
    /// In a buffer of its own, made when a fault without room was filled.
    case beside
}

/// The fields of a ``ManagedObject`` that most objects never set (a partial fetch's
/// properties, external files, order keys), apart so that an object without them carries one
/// reference for all four: every object, a fault too, initialized and copied them into place.
/// (The changes since the last save stay in the object: an update workload sets them on
/// most objects it touches, and an ObjectExtras each cost 7% of a 500-row re-ingest.) Its
/// properties skip Swift's dynamic exclusivity checks, as the object's own fields do.
@usableFromInline final class ObjectExtras {
    @usableFromInline @exclusivity(unchecked) var partial: PartialProperties? = nil
    @usableFromInline @exclusivity(unchecked) var externalFiles: [Int: String]? = nil
    @exclusivity(unchecked) var orderKeys: [Int: [Int64]]? = nil
    @exclusivity(unchecked) var memberOrderKeys: [Int: Int64]? = nil
}

/// The attribute values of a ``ManagedObject``, in place: reading one reads where the object
/// keeps them (its own storage, a buffer beside it, or, for a fault without room, its entity's
/// shared NULLs; a view taken before a fault is filled keeps reading those, so take it after).
/// Only the context sets them, through `ManagedObject/roomForValues` (outside the module a
/// value changes through `ManagedObjectContext/set(_:attribute:to:)`, which records the
/// change for the save).
public struct ObjectValues: RandomAccessCollection {
    @usableFromInline let base: UnsafeMutablePointer<SQLValue>
    public let count: Int

    @inlinable init(base: UnsafeMutablePointer<SQLValue>, count: Int) {
        self.base = base
        self.count = count
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    /// Sets a value that is NULL (a fault's, before it is filled): NULL holds nothing to
    /// release, so the value is written without destroying the old one (9 instructions a
    /// value, a tenth of reading a row into an object).
    @inlinable func fillNull(_ index: Int, with value: SQLValue) {
        precondition(index >= 0 && index < count, "attribute \(index) out of 0..<\(count)")
        assert(isNull(at: index), "fillNull over a value that is not NULL")
        (base + index).initialize(to: value)
    }

    /// Sets every value to NULL.
    func clearAll() {
        for index in 0..<count { base[index] = .null }
    }

    /// True when the value at `index` is NULL, tested in place (the value is not copied).
    @inlinable public func isNull(at index: Int) -> Bool {
        precondition(index >= 0 && index < count, "attribute \(index) out of 0..<\(count)")
        if case .null = base[index] { return true }
        return false
    }

    @inlinable public internal(set) subscript(index: Int) -> SQLValue {
        get {
            precondition(index >= 0 && index < count, "attribute \(index) out of 0..<\(count)")
            return base[index]
        }
        nonmutating set {
            precondition(index >= 0 && index < count, "attribute \(index) out of 0..<\(count)")
            base[index] = newValue
        }
    }
}
