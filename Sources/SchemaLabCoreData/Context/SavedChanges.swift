/// What one save changed, as `NSManagedObjectContextDidSave`'s notification carries it: the
/// saving context's inserted and updated objects (with the attributes each update changed) and
/// the deleted objects' IDs. Merging it into another context needs no query: the values come
/// with the objects, as Core Data's come from the coordinator's row cache.
package struct SavedChanges {
    package var inserted: [ManagedObject]
    package var updated: [(object: ManagedObject, attributes: [Int])]
    package var deleted: [(entity: EntityDescription, objectID: Int64)]

    /// Memberwise.
    package init(
        inserted: [ManagedObject] = [], updated: [(object: ManagedObject, attributes: [Int])] = [],
        deleted: [(entity: EntityDescription, objectID: Int64)] = []
    ) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// The changes of several saves, in order (a chunked import's notifications).
    package mutating func append(_ other: SavedChanges) {
        inserted += other.inserted
        updated += other.updated
        deleted += other.deleted
    }

    /// Nothing changed.
    package var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// The object IDs of one history transaction's changes (`objectIDNotification()`), by kind,
/// with each update's changed attributes as its ZCOLUMNS mask recorded them.
package struct ObjectIDChanges {
    package var inserted: [(entity: EntityDescription, objectID: Int64)] = []
    package var updated: [(entity: EntityDescription, objectID: Int64, attributes: [Int])] = []
    package var deleted: [(entity: EntityDescription, objectID: Int64)] = []

    /// Empty.
    package init() {}

    /// Nothing changed.
    package var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
    /// How many changes.
    package var count: Int { inserted.count + updated.count + deleted.count }
}

/// What a merge changed in the receiving context, for its controllers: its own objects.
package struct MergedChanges {
    /// Objects the other context inserted, registered here (with their values from a save
    /// notification; faults from an object-ID notification).
    package var inserted: [ManagedObject] = []
    /// Registered objects the other context updated (refreshed), with the attributes changed.
    package var updated: [(object: ManagedObject, attributes: [Int])] = []
    /// Registered objects the other context deleted (no longer registered).
    package var deleted: [ManagedObject] = []
    /// Deleted objects' IDs that were not registered here (a controller holding only IDs may still show them).
    package var deletedIDs: [(rootNumber: Int, objectID: Int64)] = []

    /// Empty.
    package init() {}
}
