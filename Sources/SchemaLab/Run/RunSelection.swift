import Foundation
import SchemaLabCoreData
import SchemaLabEngine
import SchemaLabSQLite

/// A run's options checked against its scenario before anything runs: the variants and
/// workloads it names exist, and, on an existing store, every variant matches the store, the
/// workloads that write are left out and the size is the store's.
struct RunSelection {
    /// The options as the run uses them.
    var options: RunOptions
    /// Workloads left out because they write and the run reads an existing store.
    var skippedWorkloads: [String] = []

    init(plan: ScenarioPlan, options: RunOptions) throws(OperationError) {
        self.options = options
        let scenario = plan.scenario
        self.options.variants = try Self.names(options.variants, scenario.variants.map(\.name), "variant", file: scenario.file)
        self.options.workloads = try Self.names(options.workloads, scenario.workloads.map(\.name), "workload", file: scenario.file)
        if let sizes = options.sizes, sizes.isEmpty || sizes.contains(where: { $0 <= 0 }) {
            throw OperationError(.badInput, "the sizes must be positive counts (given: \(sizes.map(String.init).joined(separator: ", ")))")
        }
        if let repetitions = options.repetitions, repetitions < 1 {
            throw OperationError(.badInput, "a run needs at least 1 repetition (given: \(repetitions))")
        }
        if let warmup = options.warmup, warmup < 0 {
            throw OperationError(.badInput, "the warm-up runs must be 0 or more (given: \(warmup))")
        }
        if let counter = options.instructionCounter, let why = counter.unavailable() {
            throw OperationError(.failed, "cannot count instructions: \(why)")
        }
        if let store = options.existingStore { try useStore(store, plan: plan) }
    }

    /// `picked` checked against the scenario's names (`all`): nil for all of them.
    static func names(_ picked: [String]?, _ all: [String], _ what: String, file: String) throws(OperationError) -> [String]? {
        guard let picked else { return nil }
        guard !picked.isEmpty else {
            throw OperationError(.badInput, "the selection of \(what)s is empty (the scenario has: \(all.joined(separator: ", ")))")
        }
        for name in picked where !all.contains(name) {
            throw OperationError(.badInput, "no \(what) '\(name)' in \(file) (has: \(all.joined(separator: ", ")))")
        }
        return picked
    }

    /// An existing store: every variant of the run is checked against it, only the workloads
    /// that read run, at the store's number of rows of the data set's entity.
    private mutating func useStore(_ path: String, plan: ScenarioPlan) throws(OperationError) {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let snapshot: ExistingStore.Snapshot
        do { snapshot = try ExistingStore.open(absolute) } catch { throw OperationError.from(error) }
        let db = snapshot.db!
        let models = plan.models.filter { options.variants?.contains($0.variant) ?? true }
        try Self.checkVariants(models, against: db, path: path)
        let scenario = plan.scenario
        let chosen = scenario.workloads.filter { options.workloads?.contains($0.name) ?? true }
        if let asked = options.workloads, let write = chosen.first(where: { asked.contains($0.name) && !$0.readsOnly }) {
            throw OperationError(
                .badInput,
                "a run on an existing store runs the workloads that only read (fetches, sql queries; the store is never written): \(write.name) is \(write.kind.phrase)\(write.kind == .sql ? " that writes" : "")"
            )
        }
        let runnable = chosen.filter(\.readsOnly)
        guard !runnable.isEmpty else {
            throw OperationError(
                .badInput,
                "a run on an existing store runs the workloads that only read (fetches, sql queries), and \(scenario.file) has none")
        }
        skippedWorkloads = chosen.filter { !$0.readsOnly }.map(\.name)
        options.workloads = runnable.map(\.name)
        let rows: Int
        do {
            rows = try ExistingStore.rowCount(db, model: models.first ?? plan.models[0], entity: scenario.dataset.entity)
        } catch {
            // A page-level corruption shows only here, when a table is read: the message names the file.
            throw OperationError(.badInput, "\(path): cannot read it as a Core Data store: \(error)")
        }
        guard rows > 0 else {
            throw OperationError(.badInput, "\(path): the store holds no \(scenario.dataset.entity) objects (the data set's entity)")
        }
        options.sizes = [rows]
        options.existingStore = absolute
    }

    /// Every model must have the store's tables and columns (it may differ in its indexes).
    private static func checkVariants(_ models: [ResolvedModel], against db: Database, path: String) throws(OperationError) {
        var mismatches: [String] = [], matching: [String] = []
        for model in models {
            do {
                try ExistingStore.check(db, store: path, model: model)
                matching.append(model.variant)
            } catch let error as StoreMismatch {
                mismatches.append(error.description)
            } catch {
                throw OperationError(.badInput, "\(path): cannot read it as a Core Data store: \(error)")
            }
        }
        guard !mismatches.isEmpty else { return }
        throw OperationError(
            .badInput,
            mismatches.joined(separator: "\n")
                + "\n(on an existing store, every variant must have the store's tables and columns, and may differ from it in its indexes only; "
                + (matching.isEmpty ? "no variant of the scenario matches it)" : "the store matches \(matching.joined(separator: ", ")))"),
            remedy: matching.isEmpty ? nil : .selectVariants(matching))
    }
}
