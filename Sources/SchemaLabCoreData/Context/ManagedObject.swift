import SchemaLabSQLite

/// A managed object: one row of one entity, materialized or still a fault.
///
/// As in Core Data, a fetched object's to-one relationships point at objects of
/// the destination entity that are faults until something reads them; its to-many
/// relationships are faults (nil) until read or prefetched.
public final class ManagedObject {
    public let entity: EntityDescription
    /// Z_PK; 0 for an inserted object until it is saved.
    public internal(set) var objectID: Int64 {
        @inlinable get { storedObjectID }
        _modify { yield &storedObjectID }
    }
    @usableFromInline @exclusivity(unchecked) var storedObjectID: Int64
    /// Attribute values in the entity's (alphabetical) attribute order; empty while a fault
    /// without a snapshot.
    public internal(set) var values: [SQLValue] {
        @inlinable get { storedValues }
        _modify { yield &storedValues }
    }
    @usableFromInline @exclusivity(unchecked) var storedValues: [SQLValue]
    /// Targets of the to-one relationships, in ``EntityDescription/toOne`` order.
    public internal(set) var related: ToOneSlots {
        @inlinable get { storedRelated }
        _modify { yield &storedRelated }
    }
    @usableFromInline @exclusivity(unchecked) var storedRelated: ToOneSlots
    /// Targets of the to-many relationships, in ``EntityDescription/toMany`` order;
    /// nil while that relationship is a fault (not yet read from the store).
    public internal(set) var toManyTargets: [[ManagedObject]?] {
        @inlinable get { storedToManyTargets }
        _modify { yield &storedToManyTargets }
    }
    @usableFromInline @exclusivity(unchecked) var storedToManyTargets: [[ManagedObject]?]
    /// True until the object's values are available to read.
    public internal(set) var isFault: Bool {
        @inlinable get { storedIsFault }
        _modify { yield &storedIsFault }
    }
    @usableFromInline @exclusivity(unchecked) var storedIsFault: Bool
    /// True when a fetch left the row's values in `values` but the object a fault
    /// (returnsObjectsAsFaults): reading it fulfils the fault without SQL.
    public internal(set) var hasSnapshot: Bool {
        @inlinable get { storedHasSnapshot }
        _modify { yield &storedHasSnapshot }
    }
    @usableFromInline @exclusivity(unchecked) var storedHasSnapshot: Bool = false
    /// The properties a partial fetch (`propertiesToFetch` on objects) read into this fault;
    /// reading any other fires it. Nil for every other object.
    @exclusivity(unchecked) public internal(set) var partial: PartialProperties? = nil
    /// Z_OPT: the row version read or written last (optimistic locking).
    public internal(set) var version: Int64 {
        @inlinable get { storedVersion }
        _modify { yield &storedVersion }
    }
    @usableFromInline @exclusivity(unchecked) var storedVersion: Int64 = 0
    /// Attribute indexes changed since the last save (saved objects only).
    @exclusivity(unchecked) var changed: [Int] = []
    /// To-one slots changed since the last save (a nullified inverse).
    @exclusivity(unchecked) var changedRelations: [Int] = []
    /// True once deleted in its context (its row goes at the next save).
    public internal(set) var isDeleted: Bool {
        @inlinable get { storedIsDeleted }
        _modify { yield &storedIsDeleted }
    }
    @usableFromInline @exclusivity(unchecked) var storedIsDeleted: Bool = false
    /// External storage: the file of each externally stored attribute (by index), as the
    /// row references it; with `values` still NULL there until the attribute is read.
    @usableFromInline @exclusivity(unchecked) var externalFiles: [Int: String]? = nil
    /// The order keys of the ordered to-many relationships read or saved, by ``EntityDescription/toMany``
    /// index, parallel to their targets (0: a member not stored in that place yet).
    @exclusivity(unchecked) var orderKeys: [Int: [Int64]]? = nil
    /// The order key a save writes with this object's row, by to-one slot (the inverse of an
    /// ordered one-to-many it was added to).
    @exclusivity(unchecked) var memberOrderKeys: [Int: Int64]? = nil

    @usableFromInline init(entity: EntityDescription, objectID: Int64, isFault: Bool, values: [SQLValue] = []) {
        self.entity = entity
        self.storedObjectID = objectID
        self.storedIsFault = isFault
        self.storedValues = values
        self.storedRelated = ToOneSlots(count: entity.toOne.count)
        self.storedToManyTargets = entity.toMany.isEmpty ? [] : Array(repeating: nil, count: entity.toMany.count)
    }
}
