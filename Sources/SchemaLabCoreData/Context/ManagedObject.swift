import SchemaLabSQLite

/// A managed object: one row of one entity, materialized or still a fault.
///
/// As in Core Data, a fetched object's to-one relationships point at objects of
/// the destination entity that are faults until something reads them; its to-many
/// relationships are faults (nil) until read or prefetched.
public final class ManagedObject {
    public let entity: EntityDescription
    /// Z_PK; 0 for an inserted object until it is saved.
    public internal(set) var objectID: Int64
    /// Attribute values in the entity's (alphabetical) attribute order; empty while a fault
    /// without a snapshot.
    public internal(set) var values: [SQLValue]
    /// Targets of the to-one relationships, in ``EntityDescription/toOne`` order.
    public internal(set) var related: ToOneSlots
    /// Targets of the to-many relationships, in ``EntityDescription/toMany`` order;
    /// nil while that relationship is a fault (not yet read from the store).
    public internal(set) var toManyTargets: [[ManagedObject]?]
    /// True until the object's values are available to read.
    public internal(set) var isFault: Bool
    /// True when a fetch left the row's values in `values` but the object a fault
    /// (returnsObjectsAsFaults): reading it fulfils the fault without SQL.
    public internal(set) var hasSnapshot = false
    /// Z_OPT: the row version read or written last (optimistic locking).
    public internal(set) var version: Int64 = 0
    /// Attribute indexes changed since the last save (saved objects only).
    var changed: [Int] = []
    /// To-one slots changed since the last save (a nullified inverse).
    var changedRelations: [Int] = []
    /// True once deleted in its context (its row goes at the next save).
    public internal(set) var isDeleted = false
    /// External storage: the file of each externally stored attribute (by index), as the
    /// row references it; with `values` still NULL there until the attribute is read.
    @usableFromInline var externalFiles: [Int: String]? = nil

    @usableFromInline init(entity: EntityDescription, objectID: Int64, isFault: Bool, values: [SQLValue] = []) {
        self.entity = entity
        self.objectID = objectID
        self.isFault = isFault
        self.values = values
        self.related = ToOneSlots(count: entity.toOne.count)
        self.toManyTargets = entity.toMany.isEmpty ? [] : Array(repeating: nil, count: entity.toMany.count)
    }
}
