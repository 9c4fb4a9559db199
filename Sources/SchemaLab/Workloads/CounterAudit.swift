/// Checks, after a workload wrote, that every denormalized counter a variant declares
/// still equals what a `GROUP BY` over its source computes: a counter that drifts would
/// make the counter strategy fast and wrong, so the case fails instead.
enum CounterAudit {
    /// A counter that disagrees with the count it stands for.
    struct Drift: Error, CustomStringConvertible {
        let counter: CounterModel
        let keys: SQLValue
        let sql: String
        var description: String {
            "counter \(counter.entity).\(counter.count.name) disagrees with COUNT(*) of \(counter.source) by \(counter.sourceKey.name) on \(keys) key(s), found by `\(sql)`"
        }
    }

    /// Throws naming the first counter whose rows differ from the grouped count.
    static func check(_ store: Store, model: ObjectModel) throws {
        for c in model.counters {
            guard let counter = model.entities.first(where: { $0.name == c.entity }),
                  let source = model.entities.first(where: { $0.name == c.source }) else { continue }
            let stored = "SELECT \(c.key.column) AS k, \(c.count.column) AS n FROM \(counter.table) WHERE \(c.count.column) > 0"
            let grouped = "SELECT \(c.sourceKey.column) AS k, COUNT(*) AS n FROM \(source.table) WHERE \(c.sourceKey.column) IS NOT NULL GROUP BY \(c.sourceKey.column)"
            let sql = "SELECT COUNT(DISTINCT k) FROM (SELECT * FROM (\(stored) EXCEPT \(grouped)) UNION ALL SELECT * FROM (\(grouped) EXCEPT \(stored)))"
            let keys = try store.db.scalar(sql)
            if keys != .integer(0) { throw Drift(counter: c, keys: keys, sql: sql) }
        }
    }
}
