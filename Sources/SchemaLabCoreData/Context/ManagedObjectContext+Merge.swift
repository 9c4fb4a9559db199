import SchemaLabSQLite

/// Merging another context's changes into this one (a view context hearing about a background
/// save or a batch request), the two ways Core Data offers.
extension ManagedObjectContext {
    /// `mergeChanges(fromContextDidSave:)` with the saving context's notification: each
    /// inserted object is registered here with the values it was saved with; each updated
    /// object registered here is refreshed with its new values (an object not registered here
    /// is left alone, as Core Data leaves it); each deleted object registered here is
    /// unregistered. No query: the values come with the notification.
    package func mergeChanges(fromSave changes: SavedChanges) -> MergedChanges {
        var out = MergedChanges()
        out.inserted.reserveCapacity(changes.inserted.count)
        for source in changes.inserted {
            let mine = registeredObject(source.entity, source.objectID, room: true)
            takeValues(of: source, into: mine)
            out.inserted.append(mine)
        }
        for (source, attributes) in changes.updated {
            guard let mine = registry[source.entity.rootNumber, source.objectID] else { continue }
            takeValues(of: source, into: mine)
            out.updated.append((mine, attributes))
        }
        mergeDeletes(changes.deleted, into: &out)
        return out
    }

    /// `mergeChanges(fromRemoteContextSave:into:)` with the object IDs of a history
    /// transaction (its `objectIDNotification()`): each inserted object is registered as a
    /// fault; each updated object registered here is refreshed, which turns it into a fault
    /// whose values the next read fetches (one query each); each deleted one is unregistered.
    package func mergeChanges(fromObjectIDs changes: ObjectIDChanges) -> MergedChanges {
        var out = MergedChanges()
        for (entity, objectID) in changes.inserted { out.inserted.append(registeredObject(entity, objectID)) }
        for (entity, objectID, attributes) in changes.updated {
            guard let mine = registry[entity.rootNumber, objectID] else { continue }
            refresh(mine)
            out.updated.append((mine, attributes))
        }
        mergeDeletes(changes.deleted, into: &out)
        return out
    }

    /// Turns a registered object back into a fault (`refresh(_:mergeChanges: false)`): its
    /// values are read again, with one query, the next time one is read.
    package func refresh(_ object: ManagedObject) {
        guard !object.isFault || object.hasSnapshot else { return }
        object.roomForValues.clearAll()
        object.partial = nil
        object.hasSnapshot = false
        object.isFault = true
    }

    /// The objects of `entity` with these primary keys: those registered, and faults for the others.
    package func objects(_ entity: EntityDescription, ids: [Int64]) -> [ManagedObject] { registeredObjects(entity, ids) }

    /// Forgets every registered object (`reset()`): what a refetch starts from.
    package func reset() {
        registry = ObjectRegistry()
    }

    private func mergeDeletes(_ deleted: [(entity: EntityDescription, objectID: Int64)], into out: inout MergedChanges) {
        for (entity, objectID) in deleted {
            if let mine = registry[entity.rootNumber, objectID] {
                unregister(mine)
                mine.isDeleted = true
                out.deleted.append(mine)
            } else {
                out.deletedIDs.append((entity.rootNumber, objectID))
            }
        }
    }

    /// Gives `mine` (this context's object) the values and version of `source` (another
    /// context's saved object), as a fault filled from the row cache.
    private func takeValues(of source: ManagedObject, into mine: ManagedObject) {
        let entity = source.entity
        let values = mine.roomForValues
        for i in 0..<entity.attributeCount { values[i] = source.values[i] }
        for j in 0..<entity.toOne.count {
            mine.related[j] =
                relatedKey(source, j).map { .key(Unmanaged.passUnretained(entity.destinations[j]), $0.objectID) } ?? .none
        }
        mine.version = source.version
        mine.partial = nil
        mine.hasSnapshot = false
        mine.isFault = false
    }
}
