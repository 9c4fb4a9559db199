import SchemaLabCoreData

/// Checks that every denormalized counter a variant declares equals what a `GROUP BY`
/// over its source computes: a counter that drifts would make the counter strategy fast
/// and wrong. Insert and append workloads put the number of drifting rows into their
/// result, so a drift shows as `differs` against the reference variant; the filled
/// store the fetch workloads read is checked once, and a drift there stops the run.
enum CounterAudit {
    /// A counter that disagrees with the count it stands for.
    struct Drift: Error, CustomStringConvertible {
        let counter: CounterModel
        let rows: Int64
        var description: String {
            "counter \(counter.entity).\(counter.count.name) disagrees with COUNT(*) of \(counter.source) by \(counter.sourceKey.name): \(rows) row(s) differ"
        }
    }

    /// The drifting counters (empty when none drift). A row differs when a stored counter (any key,
    /// NULL included, with a count other than 0) has no equal grouped count, a grouped
    /// count has no equal counter, or a key has more than one counter row.
    static func drifts(_ store: Store, model: ResolvedModel) throws -> [Drift] {
        var out: [Drift] = []
        for c in model.counters {
            guard let counter = model.entities.first(where: { $0.name == c.entity }),
                let source = model.entities.first(where: { $0.name == c.source })
            else { continue }
            let (key, count, by) = (c.key.column, c.count.column, c.sourceKey.column)
            let stored = "SELECT \(key) AS k, \(count) AS n FROM \(counter.table) WHERE \(count) IS NOT 0"
            let grouped = "SELECT \(by) AS k, COUNT(*) AS n FROM \(source.table) WHERE \(by) IS NOT NULL GROUP BY \(by)"
            let sql =
                "SELECT (SELECT COUNT(*) FROM (\(stored) EXCEPT \(grouped)))"
                + " + (SELECT COUNT(*) FROM (\(grouped) EXCEPT \(stored)))"
                + " + (SELECT COUNT(*) FROM (SELECT \(key) FROM \(counter.table) GROUP BY \(key) HAVING COUNT(*) > 1))"
            let rows = try store.db.scalar(sql).integerValue ?? 0
            if rows != 0 { out.append(Drift(counter: c, rows: rows)) }
        }
        return out
    }

    /// The number of drifting counter rows over all counters (0 when none drift).
    static func driftingRows(_ store: Store, model: ResolvedModel) throws -> Int64 {
        try drifts(store, model: model).reduce(0) { $0 + $1.rows }
    }
}
