import SchemaLabSQLite

/// Saving: counters and canonical attributes maintained, validation, then one transaction of
/// INSERTs, UPDATEs and DELETEs in Core Data's order.
extension ManagedObjectContext {
    /// Saves inserted objects: a Z_MAX block per entity, then one INSERT per object, then
    /// one INSERT per many-to-many link of the inserted objects, in the same transaction.
    package func save() throws {
        try maintainCounters()
        guard hasChanges else { return }
        if objectModel.hasCanonicalAttributes { maintainCanonicalAttributes() }
        if objectModel.hasDefaults { applyDefaults() }
        try validate()
        var perEntity: [[ManagedObject]] = Array(repeating: [], count: objectModel.entities.count + 1)
        for o in inserted { perEntity[o.entity.number].append(o) }
        if !inserted.isEmpty {
            try transaction {
                // One Z_MAX block per hierarchy, on its root's row: the entities of one table
                // share one key sequence (a store dump shows only the root's Z_MAX growing).
                for root in objectModel.entities where root.model.parent == nil {
                    let members = objectModel.entities.filter { $0.rootNumber == root.number && !perEntity[$0.number].isEmpty }
                    guard !members.isEmpty else { continue }
                    var pk = try allocateKeys(root, count: Int64(members.reduce(0) { $0 + perEntity[$1.number].count }))
                    for e in members {
                        for o in perEntity[e.number] { pk += 1; o.objectID = pk }
                    }
                }
            }
        }
        externalWritten.removeAll()
        do {
            try writeChanges(perEntity)
        } catch {
            ExternalBinaryData.remove(externalWritten, directory: store.externalDataDirectory)
            throw error
        }
        ExternalBinaryData.remove(externalObsolete, directory: store.externalDataDirectory)
        externalObsolete.removeAll()
        if recordsSaves {
            lastSave = SavedChanges(
                inserted: inserted, updated: updated.filter { !$0.isDeleted }.map { ($0, $0.changed) },
                deleted: deleted.map { ($0.entity, $0.objectID) })
        }
        for o in inserted where o.memberOrderKeys != nil { o.memberOrderKeys = nil }
        inserted.removeAll()
        orderChanged.removeAll()
        for o in updated { o.version += 1; o.changed = []; o.changedRelations = [] }
        updated.removeAll()
        relationsOnly = nil
        for o in deleted { unregister(o) }
        deleted.removeAll()
    }

    /// The save's write transaction: the inserts, their links, the updates, the deletes.
    func writeChanges(_ perEntity: [[ManagedObject]]) throws {
        try transaction {
            let orderWrites = objectModel.hasOrderedRelationships ? assignOrderKeys() : []
            for e in objectModel.entities where !perEntity[e.number].isEmpty {
                let s = try db.statement(e.insertSQL)
                let fkCount = e.toOne.count
                let objects = perEntity[e.number]
                for (position, o) in objects.enumerated() {
                    try s.bind(o.objectID, at: 1)
                    try s.bind(Int64(e.number), at: 2)
                    try s.bind(Int64(1), at: 3)
                    var p = Int32(4)
                    if e.plainKeys {
                        for j in 0..<fkCount {
                            try s.bind(relatedKey(o, j).map { SQLValue.integer($0.objectID) } ?? .null, at: p + Int32(j))
                        }
                        p += Int32(fkCount)
                    } else {
                        for j in 0..<fkCount {
                            try s.bind(relatedKey(o, j).map { SQLValue.integer($0.objectID) } ?? .null, at: p)
                            p += 1
                            if e.toOneHasEntityColumn[j] {
                                try s.bind(relatedKey(o, j).map { SQLValue.integer(Int64($0.entity)) } ?? .null, at: p)
                                p += 1
                            }
                            if e.toOneHasOrderColumn[j] {
                                try s.bind(o.memberOrderKeys?[j].map { SQLValue.integer($0) } ?? .null, at: p)
                                p += 1
                            }
                        }
                    }
                    if e.externalAttributes.isEmpty {
                        for v in o.values { try s.bind(v, at: p); p += 1 }
                    } else {
                        for i in o.values.indices { try s.bind(try storedValue(o, i), at: p); p += 1 }
                    }
                    do {
                        while try s.step() {}
                    } catch let error as SQLiteError {
                        throw SQLiteError(
                            code: error.code, message: error.message + " (\(e.name) object \(position + 1) of \(objects.count) inserted)",
                            sql: error.sql)
                    }
                    s.reset()
                    registry[e.rootNumber, o.objectID] = o
                    o.version = 1
                }
            }
            for e in objectModel.entities where !perEntity[e.number].isEmpty {
                for link in e.linkInserts {
                    var s: Statement?
                    for o in perEntity[e.number] {
                        guard let targets = o.toManyTargets[link.toManyIndex], !targets.isEmpty else { continue }
                        let statement = try s ?? db.statement(link.sql)
                        s = statement
                        try statement.bind(o.objectID, at: 1)
                        let keys = e.toMany[link.toManyIndex].ordered ? o.orderKeys?[link.toManyIndex] : nil
                        for (k, t) in targets.enumerated() {
                            try statement.bind(t.objectID, at: 2)
                            if let keys { try statement.bind(keys[k], at: 3) }
                            while try statement.step() {}
                            statement.reset()
                        }
                    }
                }
            }
            for write in orderWrites {
                let s = try db.statement(write.sql)
                try s.bind(write.bindings)
                while try s.step() {}
                s.reset()
            }
            let history = try pendingHistory(perEntity)
            try writeUpdates()
            try writeDeletes()
            try writeHistory(history)
        }
    }

    /// Sets every canonical search attribute (`canonicalOf`) of the objects about to be
    /// written from its source, as an app's `willSave` does: on inserted objects, and on
    /// updated ones whose source changed (the canonical attribute is then written too).
    func maintainCanonicalAttributes() {
        for o in inserted {
            for (t, s) in o.entity.canonicalPairs { o.roomForValues[t] = CanonicalString.of(o.values[s]) }
        }
        for o in updated where !o.isDeleted {
            for (t, s) in o.entity.canonicalPairs where o.changed.contains(s) {
                o.roomForValues[t] = CanonicalString.of(o.values[s])
                if !o.changed.contains(t) { o.changed.append(t) }
            }
        }
    }

    /// The model's default values, given to inserted objects' attributes that have no value (as
    /// a new NSManagedObject starts with its attributes' defaults; the INSERT writes them, the
    /// table has no SQL DEFAULT).
    func applyDefaults() {
        for o in inserted {
            for (i, value) in o.entity.defaults where o.values[i] == .null { o.roomForValues[i] = value }
        }
    }

    /// Core Data's validation before a save: every inserted or changed object's
    /// non-optional attributes have a value.
    /// Inside a timed save: a model with no non-optional attribute checks nothing, and the
    /// failing object's position is counted only when there is a failure (counting it for
    /// every object cost 4% of a 10,000-object insert's instructions under callgrind).
    func validate() throws {
        if objectModel.hasAbstractEntities, let o = inserted.first(where: { $0.entity.model.isAbstract }) {
            throw AbstractEntityError(entity: o.entity.name)
        }
        guard objectModel.hasRequiredAttributes else { return }
        // An externally stored value not read yet is NULL in memory but has its file.
        func missing(_ o: ManagedObject, _ a: Int) -> Bool { o.values[a] == .null && o.externalFiles?[a] == nil }
        for (i, o) in inserted.enumerated() {
            for a in o.entity.requiredAttributes where missing(o, a) {
                let same = inserted.lazy.filter { $0.entity === o.entity }
                let position = inserted[..<i].lazy.filter { $0.entity === o.entity }.count + 1
                throw MandatoryPropertyError(
                    entity: o.entity.name, attribute: o.entity.model.attributes[a].name,
                    position: "object \(position) of \(same.count) inserted")
            }
        }
        for o in updated where !o.isDeleted {
            for a in o.entity.requiredAttributes where missing(o, a) {
                throw MandatoryPropertyError(
                    entity: o.entity.name, attribute: o.entity.model.attributes[a].name, position: "object \(o.objectID)")
            }
        }
    }
}
