import SchemaLabSQLite

/// Deleting managed objects, with the delete rules of their relationships applied in the
/// context, as Core Data does before it saves: every object a rule reaches is faulted in.
extension ManagedObjectContext {
    /// Marks a saved object deleted; the next save writes `DELETE FROM … WHERE Z_PK = ? AND
    /// Z_OPT = ?`. Its relationships' rules run now: cascade deletes the related objects
    /// (firing their faults), nullify clears the inverse that points back (an UPDATE of each
    /// related object at the save), a many-to-many loses its links (one DELETE per link).
    /// noAction leaves the related rows as they are; deny is refused when the plan is built.
    package func delete(_ object: ManagedObject) throws {
        guard !object.isDeleted, object.objectID != 0 else { return }
        if object.isFault { try fireFault(object) }
        object.isDeleted = true
        deleted.append(object)
        let e = object.entity
        for (slot, r) in e.toOne.enumerated() {
            guard let target = related(object, slot), !target.isDeleted else { continue }
            switch r.deleteRule {
            case .cascade:
                try delete(target)
            case .nullify:
                guard let inv = r.inverse, let invSlot = target.entity.toOneIndex(inv) else { continue }
                if target.isFault { try fireFault(target) }
                if isRelated(target, invSlot, to: object) { clearRelation(target, invSlot) }
            case .deny, .noAction:
                continue
            }
        }
        for (idx, r) in e.toMany.enumerated() where r.deleteRule == .cascade || r.deleteRule == .nullify {
            let targets = try toMany(object, idx)
            switch r.storage {
            case .inverseForeignKey:
                let dest = e.toManyDestinations[idx]
                guard let inv = r.inverse, let invSlot = dest.toOneIndex(inv) else { continue }
                for c in targets where !c.isDeleted {
                    if r.deleteRule == .cascade {
                        try delete(c)
                    } else {
                        if c.isFault { try fireFault(c) }
                        clearRelation(c, invSlot)
                    }
                }
            case .joinTable(let table, let own, let other):
                // A link whose other end was deleted first is already queued (from that side).
                for t in targets where !t.isDeleted {
                    deletedLinks.append((SaveSQL.deleteLink(table: table, ownColumn: own, otherColumn: other), object.objectID, t.objectID))
                }
            case .foreignKey:
                continue
            }
        }
    }

    /// Sets a saved object's to-one slot to nil; the save writes its foreign key.
    private func clearRelation(_ o: ManagedObject, _ slot: Int) {
        o.related[slot] = .none
        markUpdated(o)
        if !o.changedRelations.contains(slot) { o.changedRelations.append(slot) }
    }

    /// Writes the deleted objects' links, then their rows (the nullified foreign keys were
    /// written before, by ``writeUpdates()``); a row whose Z_OPT moved on fails the save.
    func writeDeletes() throws {
        for (sql, a, b) in deletedLinks {
            try db.execute(sql, [.integer(a), .integer(b)])
        }
        deletedLinks.removeAll()
        for o in deleted {
            if let files = o.externalFiles { externalObsolete += files.values }
            let s = try db.statement(SaveSQL.delete(o.entity.model))
            try s.bind(o.objectID, at: 1)
            try s.bind(o.version, at: 2)
            while try s.step() {}
            s.reset()
            if db.changes == 0 {
                throw SQLiteError(
                    code: 19, message: "optimistic locking failure: \(o.entity.name) \(o.objectID) changed since version \(o.version)",
                    sql: s.sql)
            }
        }
    }
}
