import SchemaLabSQLite

/// Changing saved objects, and the denormalized counters a variant declares.
extension ManagedObjectContext {
    /// Sets attribute `index` (entity attribute order) of a saved object; the next save
    /// writes it with `UPDATE OR FAIL … WHERE Z_PK = ? AND Z_OPT = ?`. An inserted object
    /// (not yet saved) just takes the value.
    package func set(_ object: ManagedObject, attribute index: Int, to value: SQLValue) throws {
        if object.isFault { try fireFault(object) }
        if let old = object.externalFiles?[index] {
            // The file goes once the save that writes the new value commits.
            object.externalFiles![index] = nil
            externalObsolete.append(old)
        }
        object.roomForValues[index] = object.entity.model.attributes[index].type == .float ? value.heldAsFloat : value
        guard object.objectID != 0 else { return }
        markUpdated(object)
        if !object.changed.contains(index) { object.changed.append(index) }
    }

    /// Writes every updated object, one UPDATE each; a row whose Z_OPT moved on fails
    /// the save (an optimistic-locking conflict), as Core Data's `UPDATE OR FAIL` does.
    func writeUpdates() throws {
        for o in updated where !o.isDeleted {
            let e = o.entity
            let indexes = o.changed.sorted()
            let slots = o.changedRelations.sorted()
            // A changed to-one writes its key, and beside it the destination's entity number.
            let s = try db.statement(
                SaveSQL.update(
                    e.model,
                    columns: indexes.map { e.model.attributes[$0].column }
                        + slots.flatMap { [e.toOne[$0].foreignKeyColumn!] + (e.toOne[$0].destinationEntityColumn.map { [$0] } ?? []) }))
            var p: Int32 = 1
            for i in indexes { try s.bind(try storedValue(o, i), at: p); p += 1 }
            for j in slots {
                try s.bind(relatedKey(o, j).map { SQLValue.integer($0.objectID) } ?? .null, at: p)
                p += 1
                if e.toOneHasEntityColumn[j] {
                    try s.bind(relatedKey(o, j).map { SQLValue.integer(Int64($0.entity)) } ?? .null, at: p)
                    p += 1
                }
            }
            try s.bind(o.version + 1, at: p)
            try s.bind(o.objectID, at: p + 1)
            try s.bind(o.version, at: p + 2)
            while try s.step() {}
            s.reset()
            if db.changes == 0 {
                throw SQLiteError(
                    code: 19, message: "optimistic locking failure: \(e.name) \(o.objectID) changed since version \(o.version)", sql: s.sql)
            }
        }
    }

    /// Brings every declared counter up to date with the objects about to be inserted,
    /// the way an app does it before saving: group the new source objects by key, fetch
    /// the existing counters for those keys (`… WHERE t0.ZDAY IN (?,…)`), add to them,
    /// and insert a counter for each key that has none. All of it goes into this save.
    func maintainCounters() throws {
        for c in objectModel.model.counters {
            guard let source = objectModel.entity(c.source), let counter = objectModel.entity(c.entity),
                let by = source.model.attributes.firstIndex(where: { $0.name == c.sourceKey.name }),
                let keyIndex = counter.model.attributes.firstIndex(where: { $0.name == c.key.name }),
                let countIndex = counter.model.attributes.firstIndex(where: { $0.name == c.count.name })
            else { continue }
            // Keys are grouped as SQLite groups them: text by its bytes (Swift's String
            // equality would merge canonically equivalent keys, "É" and "E\u{301}"). A
            // source object with no key is not counted, as GROUP BY's NULL group is not.
            var counts: [CounterKey: Int64] = [:]
            var keys: [SQLValue] = []
            for o in inserted where o.entity === source {
                let k = o.values[by]
                if k == .null { continue }
                let key = CounterKey(k)
                if counts[key] == nil { keys.append(k) }
                counts[key, default: 0] += 1
            }
            guard !keys.isEmpty else { continue }
            var existing: [CounterKey: ManagedObject] = [:]
            for o in inserted where o.entity === counter { existing[CounterKey(o.values[keyIndex])] = o }
            let lookup = keys.filter { existing[CounterKey($0)] == nil }
            for start in stride(from: 0, to: lookup.count, by: 500) {
                let chunk = lookup[start..<min(start + 500, lookup.count)]
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                let sql =
                    "SELECT \(FetchSQL.objectColumns(counter.model, in: objectModel.model)) FROM \(counter.model.table) t0 WHERE t0.\(c.key.column) IN (\(marks))"
                for o in try fetchObjects(.init(sql: sql, bindings: Array(chunk)), entity: counter, asFaults: false) {
                    existing[CounterKey(o.values[keyIndex])] = o
                }
            }
            for k in keys {
                let key = CounterKey(k)
                let n = counts[key]!
                if let o = existing[key] {
                    let old = o.values[countIndex].integerValue ?? 0
                    try set(o, attribute: countIndex, to: .integer(old + n))
                } else {
                    var values = [SQLValue](repeating: .null, count: counter.model.attributes.count)
                    values[keyIndex] = k
                    values[countIndex] = .integer(n)
                    _ = insert(counter, values: values)
                }
            }
        }
    }
}

/// A counter key compared as SQLite compares it in `GROUP BY` and `IN`: text by its
/// UTF-8 bytes, other values by storage class and value.
private struct CounterKey: Hashable {
    let value: SQLValue
    let bytes: [UInt8]?

    init(_ value: SQLValue) {
        self.value = value
        if case .text(let s) = value { bytes = Array(s.utf8) } else { bytes = nil }
    }

    static func == (a: CounterKey, b: CounterKey) -> Bool {
        if let x = a.bytes, let y = b.bytes { return x == y }
        return a.bytes == nil && b.bytes == nil && a.value == b.value
    }

    func hash(into h: inout Hasher) {
        if let bytes { h.combine(bytes) } else { h.combine(value) }
    }
}
