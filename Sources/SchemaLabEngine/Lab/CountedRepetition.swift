import Foundation
import SchemaLabCoreData
import SchemaLabSQLite

/// What an instruction count measures: one case's warm-up, then exactly one run of its timed
/// region (the only code callgrind collects), on a store of the kind the case measures: a copy
/// of the filled store the parent run made, or a new empty one in the work directory. The
/// counting process (`schemalab count-case`, or a program of your own) runs it from a
/// ``CountRequest``.
public struct CountedRepetition {
    package let plan: ScenarioPlan
    /// The case to count, as the counting process was asked.
    public let request: CountRequest

    package init(plan: ScenarioPlan, request: CountRequest) {
        self.plan = plan
        self.request = request
    }

    /// The body of a counting process: reads the ``CountRequest`` `arguments` hold (the
    /// scenario file and the stores are relative to the current directory), loads the
    /// scenario and runs the case once. A program of your own whose ``CallgrindCounter`` has
    /// the arguments `["count-case"]` calls it with its arguments after `count-case`.
    public static func main(arguments: [String]) throws {
        guard let request = CountRequest(arguments: arguments) else {
            throw MeasurementError("not a case to count: \(arguments.joined(separator: " "))")
        }
        try CountedRepetition(plan: ScenarioPlan(ScenarioDecoder.load(path: request.scenarioFile)), request: request).run()
    }

    /// Runs the case once; throws a ``ScenarioError`` when the names do not match the scenario.
    public func run() throws {
        let scenario = plan.scenario
        guard let index = scenario.variants.firstIndex(where: { $0.name == request.variant }) else {
            throw ScenarioError(file: scenario.file, path: "$.variants", message: "no variant '\(request.variant)'")
        }
        guard let spec = scenario.workloads.first(where: { $0.name == request.workload }) else {
            throw ScenarioError(file: scenario.file, path: "$.workloads", message: "no workload '\(request.workload)'")
        }
        let model = plan.models[index]
        let mom = ManagedObjectModel(model)
        let placement = try plan.placement(for: mom)
        let data = GeneratedData(spec: scenario.dataset, count: request.size)
        let workload: any Workload
        do {
            workload = try WorkloadFactory.make(
                spec, model: mom, dataset: scenario.dataset, data: data, placement: placement, pragmas: scenario.pragmas)
        } catch {
            throw ScenarioError(file: scenario.file, path: spec.path, message: error.message)
        }
        // A fixed name: the length of a store's path moves the count (see CallgrindCounter).
        let scratch = request.workDirectory + "/counted-case.sqlite"
        defer { Store.remove(path: scratch) }
        // In the counting process the work directory is the current one: its names stay as they
        // are (a longer path to the same file would move the heap, and the count).
        let filled = request.filledStore.map { request.workDirectory == "." ? $0 : request.workDirectory + "/" + $0 }
        let pragmas = scenario.pragmas
        let measurement = CaseMeasurement(
            scenario: scenario.name, variant: request.variant, size: request.size, workload: workload,
            measurement: MeasurementSpec(warmup: request.warmup, repetitions: 1, maxSeconds: .infinity)
        ) {
            switch workload.storeKind {
            case .empty:
                Store.remove(path: scratch)
                return try Store.create(path: scratch, model: model, pragmas: pragmas)
            case .filledCopy, .filled:
                guard let filled else { throw MeasurementError("\(spec.name) reads a filled store, and the request names none") }
                Store.remove(path: scratch)
                try Store.copy(from: filled, to: scratch)
                return try Store.open(path: scratch, model: model, pragmas: pragmas)
            }
        }
        measurement.fixedMultiplier = 1
        measurement.slowdown = request.slowdown
        try measurement.begin()
        try measurement.measureOne()
    }
}
