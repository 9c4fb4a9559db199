import SchemaLabSQLite

/// Relating a new object to a saved one, with the inverse kept as Core Data keeps it.
extension ManagedObjectContext {
    /// Sets `object`'s to-one relationship `slot` to `target` and keeps the inverse to-many:
    /// `post.author = author` adds the post to `author.posts`. When `target` is saved, its
    /// to-many changed, so it is an updated object of the next save, which writes its version
    /// (`UPDATE OR FAIL ZAUTHOR SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?`): the author joins
    /// the save's optimistic locking. A to-many already read gets the object (an ordered one
    /// at its end, with its order key); one not read stays a fault, as in Core Data.
    package func relate(_ object: ManagedObject, _ slot: Int, to target: ManagedObject) throws {
        setRelated(object, slot, to: target)
        guard let inverse = object.entity.toOne[slot].inverse, let index = target.entity.toManyIndex(inverse) else { return }
        if target.entity.toManyOrdered[index] {
            let count = try toMany(target, index).count
            try insertMember(object, into: target, toMany: index, at: count)
        } else if target.toManyTargets[index] != nil {
            addRelated(target, toMany: index, object)
        }
        guard target.objectID != 0 else { return }
        markUpdated(target)
        if relationsOnly == nil { relationsOnly = [] }
        relationsOnly!.insert(ObjectIdentifier(target))
    }

    /// Adds a saved object to the next save's updated objects unless it is there: one with a
    /// changed attribute or to-one, or whose to-many only changed (``relationsOnly``).
    func markUpdated(_ object: ManagedObject) {
        guard object.changed.isEmpty && object.changedRelations.isEmpty else { return }
        guard relationsOnly?.contains(ObjectIdentifier(object)) != true else { return }
        updated.append(object)
    }
}
