import SchemaLabCoreData
import SchemaLabEngine

/// A workload as the advisor weighs it: a read (its gain counts) or a write (its cost
/// counts), its weight, the tables whose indexes can change its cost, and the divisor that
/// makes its cost one the app pays per run.
package struct AdvisedWorkload: Sendable, Equatable {
    /// The workload's name.
    package var name: String
    /// Reads the store only (a fetch, a controller, a sql query).
    package var isRead: Bool
    /// The scenario's `weight` (1 unless set; an imported log sets it from its counts).
    package var weight: Double
    /// What one run of it stands for: 1, or, for an insert of the whole data set into an
    /// empty store (a fill, not a save an app repeats), the objects it inserts, so that its
    /// cost is counted per object saved and its weight says how many objects the app inserts
    /// per run of a weight-1 fetch.
    package var perRunDivisor: Double
    /// The tables it touches; nil for every table (an insert of the data set and its related objects).
    package var tables: Set<String>?
    /// The saves (or batch requests) one run of a write makes: an append's `count` over its
    /// `saveEvery`, an insert's objects over its `saveEvery`, 1 for the other saves and batch
    /// requests; 0 for a read and for writes whose saves it does not count.
    package var savesPerRun: Int = 0

    /// True when an index on `table` can change what this workload costs.
    package func touches(_ table: String) -> Bool { tables?.contains(table) ?? true }

    /// The weighted cost of one measurement: `weight × cost / perRunDivisor`.
    package func weighted(_ cost: Double) -> Double { weight * cost / perRunDivisor }

    /// The workloads of `scenario` that run in `variant`, with the tables read from the
    /// statements of their first measurement (`plans`) and from their entity, and the objects
    /// an insert of the data set wrote (`rows`).
    package static func classify(
        _ scenario: Scenario, variant: String, model: ResolvedModel, plans: [String: [StatementPlan]], rows: [String: Int]
    ) -> [AdvisedWorkload] {
        let tables = Set(model.entities.map(\.table))
        return scenario.workloads.compactMap { spec in
            guard spec.variants?.contains(variant) ?? true, spec.kind.countsInstructions else { return nil }
            var touched: Set<String>? = []
            for statement in plans[spec.name] ?? [] {
                for token in statement.sql.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
                where tables.contains(String(token)) {
                    touched?.insert(String(token))
                }
            }
            if let entity = model.entity(spec.entity ?? scenario.dataset.entity) { touched?.insert(entity.table) }
            // An append's statements name every table it writes (its counters' too); an insert
            // of the data set, with its related objects, may write any.
            let fillsStore = spec.kind == .insert || spec.kind == .batchInsert || spec.kind == .updateOrInsert
            if fillsStore { touched = nil }
            let inserted = max(1, rows[spec.name] ?? 1)
            let perRun = spec.kind == .insert || (spec.kind == .batchInsert && spec.feed == nil) ? Double(inserted) : 1
            var advised = AdvisedWorkload(
                name: spec.name, isRead: spec.readsOnly, weight: spec.weight, perRunDivisor: perRun, tables: touched)
            if !spec.readsOnly {
                let perSave = spec.saveEvery > 0 ? spec.saveEvery : Int.max
                // Saves only: a history request or an app's own SQL is not one, and an upsert
                // in chunks is counted by its feed, not here.
                switch spec.kind {
                case .append: advised.savesPerRun = (spec.count + min(perSave, spec.count) - 1) / min(perSave, spec.count)
                case .insert where spec.saveEvery > 0: advised.savesPerRun = (inserted + perSave - 1) / perSave
                case .insert, .update, .delete, .batchInsert, .batchUpdate, .batchDelete: advised.savesPerRun = 1
                case .updateOrInsert where spec.saveEvery == 0: advised.savesPerRun = 1
                default: advised.savesPerRun = 0
                }
            }
            return advised
        }
    }
}
