import Foundation

/// Runs every case of a scenario: for each size, generate the data once; for each
/// variant, fill a store once (for the fetches); for each workload, measure.
public struct LabRunner {
    public let plan: ScenarioPlan
    public let options: RunOptions
    /// Called with a line of progress per case.
    public var progress: (String) -> Void = { _ in }

    public init(plan: ScenarioPlan, options: RunOptions) {
        self.plan = plan
        self.options = options
    }

    /// Every case of the run, in the order ``run(skip:finished:failed:)`` runs them:
    /// size by size, variant by variant, workload by workload.
    public func cases() -> [CaseKey] {
        var keys: [CaseKey] = []
        for size in sizes {
            for (_, model) in variants {
                for spec in workloads where spec.variants?.contains(model.variant) ?? true {
                    keys.append(CaseKey(variant: model.variant, workload: spec.name, size: size))
                }
            }
        }
        return keys
    }

    private var sizes: [Int] { options.sizes ?? plan.scenario.dataset.counts }
    private var variants: [(VariantSpec, ObjectModel)] {
        zip(plan.scenario.variants, plan.models).filter { options.variants?.contains($0.0.name) ?? true }
    }
    private var workloads: [WorkloadSpec] {
        plan.scenario.workloads.filter { options.workloads?.contains($0.name) ?? true }
    }

    /// Runs every case, checks the results against each other, and returns them; the
    /// first case that fails stops the run with its error.
    public func run() throws -> [CaseResult] {
        var results: [CaseResult] = []
        try run(skip: { _ in false }, finished: { results.append($0) }, failed: { _, error in throw error })
        Self.checkResults(&results, reference: plan.scenario.reference, workloads: plan.scenario.workloads)
        return results
    }

    /// Runs the cases `skip` does not exclude, handing each result to `finished` as soon
    /// as it is measured. A case that fails (a SQLite error, a constraint, an I/O error)
    /// goes to `failed`, which returns whether to go on with the other cases; when the
    /// filled store of a variant and size cannot be made, every case that reads it fails.
    /// Errors thrown by `finished` or `failed` stop the run. A workload the scenario
    /// cannot build throws a ``ScenarioError``.
    public func run(skip: (CaseKey) -> Bool, finished: (CaseResult) throws -> Void,
                    failed: (CaseKey, any Error) throws -> Bool) throws {
        let scenario = plan.scenario
        func runner(for spec: WorkloadSpec) -> CaseRunner {
            var measurement = spec.measurement ?? scenario.measurement
            if let r = options.repetitions { measurement.repetitions = r }
            if let w = options.warmup { measurement.warmup = w }
            return CaseRunner(measurement: measurement)
        }
        let pending = cases().filter { !skip($0) }
        guard !pending.isEmpty else { return }
        try FileManager.default.createDirectory(atPath: options.workDirectory, withIntermediateDirectories: true)
        for size in sizes where pending.contains(where: { $0.size == size }) {
            let data = GeneratedData(spec: scenario.dataset, count: size)
            for (_, model) in variants {
                let todo = workloads.filter { spec in pending.contains(CaseKey(variant: model.variant, workload: spec.name, size: size)) }
                guard !todo.isEmpty else { continue }
                let mom = ManagedObjectModel(model)
                let placement = try plan.placement(for: mom)
                let tag = model.variant.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
                let filledPath = options.workDirectory + "/\(tag)-\(size).sqlite"
                defer { Store.remove(path: filledPath) }
                var fillError: (any Error)?
                if todo.contains(where: { !($0.kind == .insert || ($0.kind == .batchInsert && $0.feed == nil)) }) {  // reads and later writes start from the filled store
                    do { try fill(path: filledPath, model: model, mom: mom, data: data, placement: placement) } catch { fillError = error }
                }
                for spec in todo {
                    let key = CaseKey(variant: model.variant, workload: spec.name, size: size)
                    let workload: any Workload
                    do {
                        workload = try WorkloadFactory.make(spec, model: mom, dataset: scenario.dataset, data: data, placement: placement,
                                                            pragmas: scenario.pragmas)
                    } catch {
                        throw ScenarioError(file: scenario.file, path: spec.path, message: error.message)
                    }
                    if let fillError, workload.storeKind != .empty {
                        if try failed(key, fillError) { continue } else { return }
                    }
                    let scratchPath = options.workDirectory + "/\(tag)-\(size)-scratch.sqlite"
                    let floorPath = options.workDirectory + "/\(tag)-\(size)-floor.sqlite"
                    defer { Store.remove(path: scratchPath); Store.remove(path: floorPath) }
                    let result: CaseResult
                    do {
                        result = try runner(for: spec).run(scenario: scenario.name, variant: model.variant, size: size, workload: workload) {
                            switch workload.storeKind {
                            case .empty:
                                Store.remove(path: scratchPath)
                                return try Store.create(path: scratchPath, model: model, pragmas: scenario.pragmas)
                            case .filledCopy:
                                Store.remove(path: scratchPath)
                                try Store.copy(from: filledPath, to: scratchPath)
                                return try Store.open(path: scratchPath, model: model, pragmas: scenario.pragmas)
                            case .filled:
                                return try Store.open(path: filledPath, model: model, pragmas: scenario.pragmas)
                            }
                        } makeFloorStore: {
                            Store.remove(path: floorPath)
                            if workload.storeKind == .empty {
                                _ = try Store.create(path: floorPath, model: model, pragmas: scenario.pragmas)
                            } else {
                                try Store.copy(from: filledPath, to: floorPath)
                            }
                            return floorPath
                        }
                    } catch {
                        if try failed(key, error) { continue } else { return }
                    }
                    progress("\(model.variant) \(spec.name) n=\(size): median \(Format.ms(result.wall.median)) ms, \(result.samples.count) reps, \(result.statements) statements")
                    try finished(result)
                }
            }
        }
    }

    /// Marks each case against the reference variant's result for the same workload and
    /// size, and against its `agreesWith` workload's result in the same variant and size.
    public static func checkResults(_ results: inout [CaseResult], reference: String, workloads: [WorkloadSpec]) {
        let checks = ResultChecks.compute(results.map { (CaseKey(variant: $0.variant, workload: $0.workload, size: $0.size), $0.signature) },
                                          reference: reference, agreesWith: ResultChecks.agreements(workloads))
        for i in results.indices {
            results[i].referenceCheck = checks[i].reference
            results[i].agreementCheck = checks[i].agreement
        }
    }

    /// Creates and fills the store the fetch workloads read, through the same save path.
    private func fill(path: String, model: ObjectModel, mom: ManagedObjectModel, data: GeneratedData, placement: DataPlacement) throws {
        Store.remove(path: path)
        let store = try Store.create(path: path, model: model, pragmas: plan.scenario.pragmas)
        let context = ManagedObjectContext(store: store, objectModel: mom)
        try InsertWorkload.insertAll(data, placement: placement, into: context)
        try context.save()
        if let drift = try CounterAudit.drifts(store, model: model).first { throw drift }
        _ = try store.db.rows("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
