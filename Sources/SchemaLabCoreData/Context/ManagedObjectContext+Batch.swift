import SchemaLabSQLite

/// Core Data's batch requests: they write to the store directly, with no managed objects,
/// each in one `BEGIN EXCLUSIVE … COMMIT` ([I]: the lab's choice of transaction).
extension ManagedObjectContext {
    /// NSBatchInsertRequest: validates each record (a non-optional attribute needs a value),
    /// allocates `count` primary keys (the Z_MAX block of a save), then
    /// one INSERT per record, each record a dictionary of attribute name to value (a missing
    /// key is NULL; foreign keys are NULL: a batch insert sets no relationship). `record(i)`
    /// gives record i (from an array, or built by a handler). A record SQLite refuses fails
    /// the whole request, rolled back, with its position in the message.
    package func batchInsert(
        _ entity: EntityDescription, policy: MergePolicy, count: Int,
        record: (Int) -> [String: SQLValue]
    ) throws {
        guard count > 0 else { return }
        if entity.model.isAbstract { throw AbstractEntityError(entity: entity.name) }
        let sql = BatchSQL.insert(entity.model, policy: policy)
        try transaction {
            // An upsert (property-object-trump) updates the rows it finds: recorded as updates of
            // the attributes outside the constraint.
            var triggers = [historyTrigger(.insert, entity: entity)]
            if objectModel.model.persistentHistory, policy == .objectTrump, let constraint = entity.model.uniquenessConstraints.first {
                let keys = Set(constraint.map(\.name))
                let updated = entity.model.attributes.indices.filter { !keys.contains(entity.model.attributes[$0].name) }
                triggers.append(historyTrigger(.update, entity: entity, attributes: updated))
            }
            try recordingBatchHistory(triggers) { try batchInsertRows(entity, sql: sql, count: count, record: record) }
        }
    }

    /// The batch insert's key block and its INSERTs (inside its transaction).
    private func batchInsertRows(_ entity: EntityDescription, sql: String, count: Int, record: (Int) -> [String: SQLValue]) throws {
        do {
            let old = try allocateKeys(objectModel.entities[entity.rootNumber - 1], count: Int64(count))
            let s = try db.statement(sql)
            let attributes = entity.model.attributes
            let names = attributes.map(\.name)
            let fkCount = entity.model.toOneKeyColumns.count
            let first = Int32(4 + fkCount)
            let required = entity.requiredAttributes
            // Which attributes the record gave a value; the others are bound NULL.
            var given = [Bool](repeating: false, count: attributes.count)
            for i in 0..<count {
                let dict = record(i)
                try s.bind(old + 1 + Int64(i), at: 1)
                try s.bind(Int64(entity.number), at: 2)
                try s.bind(Int64(1), at: 3)
                for j in 0..<fkCount { try s.bind(.null, at: Int32(4 + j)) }
                // Walk the record's entries rather than look each attribute up: a lookup
                // hashes the name (SipHash: a quarter of the request's instructions under
                // callgrind, 1.28x the floor at 100,000 rows against 1.18x this way); a short
                // name is matched against the attribute names by comparing two words. A key
                // that names no attribute is ignored.
                for a in given.indices { given[a] = false }
                for (key, value) in dict {
                    guard let a = names.firstIndex(of: key) else { continue }
                    try s.bind(value, at: first + Int32(a))
                    given[a] = !value.isNull
                }
                for a in given.indices where !given[a] {
                    if required.contains(a) {
                        throw MandatoryPropertyError(entity: entity.name, attribute: names[a], position: "record \(i + 1) of \(count)")
                    }
                    try s.bind(.null, at: first + Int32(a))
                }
                do {
                    while try s.step() {}
                } catch let error as SQLiteError {
                    s.reset()
                    throw SQLiteError(code: error.code, message: error.message + " (record \(i + 1) of \(count))", sql: error.sql)
                }
                s.reset()
            }
        }
    }

    /// The Z_MAX block of a save: `SELECT Z_MAX …` then `UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ?
    /// WHERE Z_ENT = ? AND Z_MAX = ?`; returns the old Z_MAX (keys old+1…old+count are this caller's).
    func allocateKeys(_ e: EntityDescription, count: Int64) throws -> Int64 {
        try allocateKeys(number: Int64(e.number), name: e.name, count: count)
    }

    /// ``allocateKeys(_:count:)`` for the entity numbered `number` (a history entity's too).
    func allocateKeys(number: Int64, name: String, count: Int64) throws -> Int64 {
        let select = try db.statement(SaveSQL.selectMax)
        try select.bind(number, at: 1)
        guard try select.step() else { throw SQLiteError(code: 1, message: "no Z_PRIMARYKEY row for \(name)", sql: SaveSQL.selectMax) }
        let old = select.int64(at: 0)
        select.reset()
        try db.execute(SaveSQL.updateMax, [.integer(old + count), .integer(number), .integer(old)])
        return old
    }

    /// NSBatchUpdateRequest: one `UPDATE OR FAIL … AS t0 SET … , Z_OPT = (Z_OPT + 1) WHERE …`
    /// with the values bound first, then the predicate's. Returns the rows changed.
    /// With persistent history, `entity` and the `attributes` set say what the request's
    /// change rows record.
    @discardableResult
    package func batchUpdate(sql: String, bindings: [SQLValue], entity: EntityDescription? = nil, attributes: [Int] = []) throws -> Int {
        guard let entity, objectModel.model.persistentHistory else { return try executeWrite(sql: sql, bindings: bindings) }
        var changed = 0
        try transaction {
            try recordingBatchHistory([historyTrigger(.update, entity: entity, attributes: attributes)]) {
                try db.execute(sql, bindings)
                changed = db.changes
            }
        }
        return changed
    }

    /// One writing statement (an UPDATE, INSERT or DELETE) with its values bound, in one
    /// `BEGIN EXCLUSIVE … COMMIT` as a batch request's: a batch update, or a statement of an
    /// app's SQL log replayed as it ran. Returns the rows it changed (`sqlite3_changes`).
    @discardableResult
    package func executeWrite(sql: String, bindings: [SQLValue]) throws -> Int {
        var changed = 0
        try transaction {
            try db.execute(sql, bindings)
            changed = db.changes
        }
        return changed
    }

    /// NSBatchDeleteRequest: creates the temporary triggers the relationships need, runs the
    /// DELETE, drops them, in one transaction; with `limit` > 0, repeats the request (each its
    /// own transaction, so the write lock is released between them) until one deletes fewer
    /// than `limit` rows. Returns the rows of the entity deleted.
    @discardableResult
    package func batchDelete(
        sql: String, bindings: [SQLValue], limit: Int, triggers: (create: [String], drop: [String]), entity: EntityDescription? = nil
    ) throws -> Int {
        var total = 0
        let history = entity.flatMap { historyTrigger(.delete, entity: $0) }
        while true {
            var n = 0
            try transaction {
                try recordingBatchHistory([history]) {
                    for t in triggers.create { try db.execute(t) }
                    try db.execute(sql, bindings)
                    n = db.changes
                    for t in triggers.drop { try db.execute(t) }
                }
            }
            total += n
            if limit == 0 || n < limit { return total }
        }
    }
}
