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

    public func run() throws -> [CaseResult] {
        let scenario = plan.scenario
        var measurement = scenario.measurement
        if let r = options.repetitions { measurement.repetitions = r }
        if let w = options.warmup { measurement.warmup = w }
        let runner = CaseRunner(measurement: measurement)
        let sizes = options.sizes ?? scenario.dataset.counts
        let variants = zip(scenario.variants, plan.models).filter { options.variants?.contains($0.0.name) ?? true }
        let workloads = scenario.workloads.filter { options.workloads?.contains($0.name) ?? true }
        try FileManager.default.createDirectory(atPath: options.workDirectory, withIntermediateDirectories: true)
        var results: [CaseResult] = []
        for size in sizes {
            let data = GeneratedData(spec: scenario.dataset, count: size)
            for (_, model) in variants {
                let mom = ManagedObjectModel(model)
                let placement = try plan.placement(for: mom)
                let tag = model.variant.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
                let filledPath = options.workDirectory + "/\(tag)-\(size).sqlite"
                if workloads.contains(where: { $0.kind != .insert }) {  // reads and appends start from the filled store
                    try fill(path: filledPath, model: model, mom: mom, data: data, placement: placement)
                }
                defer { Store.remove(path: filledPath) }
                for spec in workloads where spec.variants?.contains(model.variant) ?? true {
                    let workload: any Workload
                    do {
                        workload = try WorkloadFactory.make(spec, model: mom, dataset: scenario.dataset, data: data, placement: placement)
                    } catch {
                        throw ScenarioError(file: scenario.file, path: spec.path, message: error.message)
                    }
                    let scratchPath = options.workDirectory + "/\(tag)-\(size)-scratch.sqlite"
                    defer { Store.remove(path: scratchPath) }
                    let result = try runner.run(scenario: scenario.name, variant: model.variant, size: size, workload: workload) {
                        switch workload.storeKind {
                        case .empty:
                            Store.remove(path: scratchPath)
                            return try Store.create(path: scratchPath, model: model, pragmas: scenario.pragmas)
                        case .filledCopy:
                            Store.remove(path: scratchPath)
                            try FileManager.default.copyItem(atPath: filledPath, toPath: scratchPath)
                            return try Store.open(path: scratchPath, model: model, pragmas: scenario.pragmas)
                        case .filled:
                            return try Store.open(path: filledPath, model: model, pragmas: scenario.pragmas)
                        }
                    }
                    progress("\(model.variant) \(spec.name) n=\(size): median \(Format.ms(result.wall.median)) ms, \(result.samples.count) reps, \(result.statements) statements")
                    results.append(result)
                }
            }
        }
        Self.checkResults(&results, reference: scenario.reference, workloads: scenario.workloads)
        return results
    }

    /// Marks each case against the reference variant's result for the same workload and
    /// size, and against its `agreesWith` workload's result in the same variant and size.
    public static func checkResults(_ results: inout [CaseResult], reference: String, workloads: [WorkloadSpec]) {
        let index = Dictionary(results.enumerated().map { ("\($0.element.variant)\u{1}\($0.element.workload)\u{1}\($0.element.size)", $0.offset) },
                               uniquingKeysWith: { a, _ in a })
        let agrees = Dictionary(workloads.compactMap { w in w.agreesWith.map { (w.name, $0) } }, uniquingKeysWith: { a, _ in a })
        for i in results.indices {
            let c = results[i]
            if c.variant == reference {
                results[i].referenceCheck = .reference
            } else if let r = index["\(reference)\u{1}\(c.workload)\u{1}\(c.size)"] {
                results[i].referenceCheck = c.signature.matches(results[r].signature) ? .same : .differs
            }
            if let other = agrees[c.workload], let j = index["\(c.variant)\u{1}\(other)\u{1}\(c.size)"] {
                results[i].agreementCheck = c.signature.matches(results[j].signature) ? .same : .differs
            }
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
