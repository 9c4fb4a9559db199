import Foundation
import SchemaLabSQLite
import SchemaLabCoreData

/// What `schemalab count-case` runs under callgrind: one case's warm-up, then exactly one
/// run of its timed region (the only code callgrind collects), on a store of the kind the
/// case measures: the filled store the parent run made (`filledStore`), a copy of it, or a
/// new empty one in `workDirectory`.
public struct CountedCase {
    public let plan: ScenarioPlan
    public let variant: String
    public let workload: String
    public let size: Int
    public let filledStore: String?
    public let workDirectory: String
    /// Warm-up runs before the counted one (outside the collected region).
    public let warmup: Int
    /// The injected slowdown of the case (``CaseSession/slowdown``).
    public var slowdown = 1.0

    public init(plan: ScenarioPlan, variant: String, workload: String, size: Int, filledStore: String?, workDirectory: String, warmup: Int)
    {
        self.plan = plan
        self.variant = variant
        self.workload = workload
        self.size = size
        self.filledStore = filledStore
        self.workDirectory = workDirectory
        self.warmup = warmup
    }

    /// Runs the case once; throws a message when the names do not match the scenario.
    public func run() throws {
        let scenario = plan.scenario
        guard let index = scenario.variants.firstIndex(where: { $0.name == variant }) else {
            throw ScenarioError(file: scenario.file, path: "$.variants", message: "no variant '\(variant)'")
        }
        guard let spec = scenario.workloads.first(where: { $0.name == workload }) else {
            throw ScenarioError(file: scenario.file, path: "$.workloads", message: "no workload '\(workload)'")
        }
        let model = plan.models[index]
        let mom = ManagedObjectModel(model)
        let placement = try plan.placement(for: mom)
        let data = GeneratedData(spec: scenario.dataset, count: size)
        let w: any Workload
        do {
            w = try WorkloadFactory.make(
                spec, model: mom, dataset: scenario.dataset, data: data, placement: placement, pragmas: scenario.pragmas)
        } catch {
            throw ScenarioError(file: scenario.file, path: spec.path, message: error.message)
        }
        // A fixed name: the length of a store's path moves the count (see InstructionCounter).
        let scratch = workDirectory + "/counted-case.sqlite"
        defer { Store.remove(path: scratch) }
        let filled = filledStore
        let pragmas = scenario.pragmas
        let session = CaseSession(
            scenario: scenario.name, variant: variant, size: size, workload: w,
            measurement: MeasurementSpec(warmup: warmup, repetitions: 1, maxSeconds: .infinity)
        ) {
            switch w.storeKind {
            case .empty:
                Store.remove(path: scratch)
                return try Store.create(path: scratch, model: model, pragmas: pragmas)
            case .filledCopy, .filled:
                guard let filled else { throw MeasurementError("count-case needs --store for \(spec.name)") }
                Store.remove(path: scratch)
                try Store.copy(from: filled, to: scratch)
                return try Store.open(path: scratch, model: model, pragmas: pragmas)
            }
        }
        session.fixedMultiplier = 1
        session.slowdown = slowdown
        try session.begin()
        try session.measureOne()
    }
}
