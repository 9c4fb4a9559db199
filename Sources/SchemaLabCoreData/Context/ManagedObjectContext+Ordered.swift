import SchemaLabSQLite

/// Ordered to-many relationships (NSOrderedSet): members inserted at a position or moved,
/// and the order keys a save writes (`OrderKeys`): with a new member's row (one-to-many) or
/// link (many-to-many), or as an UPDATE of a stored member whose key moved.
extension ManagedObjectContext {
    /// Inserts `member` into `parent`'s ordered to-many at `position` (clamped to the list),
    /// firing the relationship's fault first, and points the member's inverse at the parent.
    package func insertMember(_ member: ManagedObject, into parent: ManagedObject, toMany index: Int, at position: Int) throws {
        let r = parent.entity.toMany[index]
        precondition(r.ordered, "insertMember takes an ordered to-many")
        var targets = try toMany(parent, index)
        var keys = parent.orderKeys?[index] ?? Array(repeating: 0, count: targets.count)
        let at = max(0, min(position, targets.count))
        targets.insert(member, at: at)
        keys.insert(0, at: at)
        parent.toManyTargets[index] = targets
        setOrderKeys(parent, index, keys)
        switch r.storage {
        case .inverseForeignKey:
            if let inv = r.inverse, let slot = member.entity.toOneIndex(inv) { member.related.set(slot, parent) }
        case .joinTable:
            if let inv = r.inverse, let i = member.entity.toManyIndex(inv), member.toManyTargets[i] != nil {
                member.toManyTargets.update(i) { $0!.append(parent) }
            }
        case .foreignKey:
            break
        }
        markOrderChanged(parent, index)
    }

    /// Moves the member at `from` to `to` in `parent`'s ordered to-many (its stored key goes
    /// with it; the save decides whether it can stay).
    package func moveMember(in parent: ManagedObject, toMany index: Int, from: Int, to: Int) throws {
        var targets = try toMany(parent, index)
        guard targets.indices.contains(from) else { return }
        var keys = parent.orderKeys?[index] ?? Array(repeating: 0, count: targets.count)
        let member = targets.remove(at: from)
        let key = keys.remove(at: from)
        let at = max(0, min(to, targets.count))
        targets.insert(member, at: at)
        keys.insert(key, at: at)
        parent.toManyTargets[index] = targets
        setOrderKeys(parent, index, keys)
        markOrderChanged(parent, index)
    }

    /// Takes the member at `position` out of `parent`'s ordered to-many (the others keep their
    /// keys); returns it. Deleting it is the caller's (as an app removes, then deletes).
    @discardableResult
    package func removeMember(in parent: ManagedObject, toMany index: Int, at position: Int) throws -> ManagedObject? {
        var targets = try toMany(parent, index)
        guard targets.indices.contains(position) else { return nil }
        var keys = parent.orderKeys?[index] ?? Array(repeating: 0, count: targets.count)
        let member = targets.remove(at: position)
        if keys.indices.contains(position) { keys.remove(at: position) }
        parent.toManyTargets[index] = targets
        setOrderKeys(parent, index, keys)
        return member
    }

    /// An object this save inserts (its row not written yet): not a fault, no version yet.
    static func isNew(_ o: ManagedObject) -> Bool { o.version == 0 && !o.isFault }

    func setOrderKeys(_ o: ManagedObject, _ index: Int, _ keys: [Int64]) {
        if o.orderKeys == nil { o.orderKeys = [:] }
        o.orderKeys![index] = keys
    }

    func markOrderChanged(_ o: ManagedObject, _ index: Int) {
        if !orderChanged.contains(where: { $0.object === o && $0.index == index }) { orderChanged.append((o, index)) }
    }

    /// A statement a save runs for an ordered relationship after its INSERTs: a stored
    /// member's new order key, or a new link of a stored parent's many-to-many.
    struct OrderKeyWrite {
        let sql: String
        let bindings: [SQLValue]
        /// The member whose order key the UPDATE changes; nil for a join-table row.
        let member: ManagedObject?
    }

    /// Computes the order keys of every ordered to-many a save writes: the inserted objects'
    /// (fresh keys) and the changed ones' (kept where they can stay). Called once every object
    /// has its primary key and before any INSERT (new objects have version 0): a new member's
    /// key goes with its INSERT; a stored member whose key moved, and a stored parent's new
    /// many-to-many link, are returned as statements to run after the INSERTs.
    func assignOrderKeys() -> [OrderKeyWrite] {
        var work: [(ManagedObject, Int)] = orderChanged.map { ($0.object, $0.index) }
        for o in inserted where o.entity.hasOrderedToMany {
            for (i, r) in o.entity.toMany.enumerated() where r.ordered && o.toManyTargets[i] != nil {
                if !work.contains(where: { $0.0 === o && $0.1 == i }) { work.append((o, i)) }
            }
        }
        var updates: [OrderKeyWrite] = []
        for (parent, index) in work where !parent.isDeleted {
            let r = parent.entity.toMany[index]
            let targets = parent.toManyTargets[index] ?? []
            var old = parent.orderKeys?[index] ?? []
            if old.count != targets.count { old = Array(repeating: 0, count: targets.count) }
            let keys = OrderKeys.assign(old)
            setOrderKeys(parent, index, keys)
            for (k, member) in targets.enumerated() where keys[k] != old[k] {
                switch r.storage {
                case .inverseForeignKey:
                    guard let inv = r.inverse, let slot = member.entity.toOneIndex(inv), let column = r.orderColumn else { continue }
                    if Self.isNew(member) {
                        if member.memberOrderKeys == nil { member.memberOrderKeys = [:] }
                        member.memberOrderKeys![slot] = keys[k]
                    } else {
                        updates.append(
                            OrderKeyWrite(
                                sql: SaveSQL.updateOrderKey(member.entity.model, column: column),
                                bindings: [.integer(keys[k]), .integer(member.objectID)], member: member))
                    }
                case .joinTable(let table, let own, let other):
                    // An inserted parent's links go in with its INSERT; a stored parent's new
                    // member is a new link, a moved one an UPDATE of its link.
                    guard !Self.isNew(parent), let column = r.orderColumn else { continue }
                    if old[k] == 0 {
                        updates.append(
                            OrderKeyWrite(
                                sql: SaveSQL.insertLink(table: table, ownColumn: own, otherColumn: other, orderColumn: column),
                                bindings: [.integer(parent.objectID), .integer(member.objectID), .integer(keys[k])], member: nil))
                    } else {
                        updates.append(
                            OrderKeyWrite(
                                sql: SaveSQL.updateLinkOrderKey(table: table, ownColumn: own, otherColumn: other, orderColumn: column),
                                bindings: [.integer(keys[k]), .integer(parent.objectID), .integer(member.objectID)], member: nil))
                    }
                case .foreignKey:
                    continue
                }
            }
        }
        return updates
    }
}
