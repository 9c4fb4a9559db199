import Foundation
import SchemaLabEngine

/// Measures trials: each is a variant extending the starting one, run through ``Lab`` on the
/// workloads its indexes can change, once after a warm-up, on the advice's basis: its
/// instructions counted by callgrind, its SQLite VM steps, or its time over repetitions.
package struct AdviceMeasurer {
    /// The scenario advised, without its claims and assertions (the trials are not its variants).
    package let scenario: Scenario
    /// The starting variant.
    package let base: String
    /// The options the search runs with.
    package let options: AdviceOptions
    /// The starting variant's resolved model (the trials' index names are chosen against it).
    package let model: ResolvedModel
    /// How many cases have been measured so far, and how many Lab runs.
    package private(set) var casesMeasured = 0
    package private(set) var runs = 0

    /// A measurer of `scenario`'s trials against `base`.
    package init(scenario: Scenario, base: String, model: ResolvedModel, options: AdviceOptions) {
        var stripped = scenario
        stripped.claims = []
        stripped.assertions = []
        self.scenario = stripped
        self.base = base
        self.model = model
        self.options = options
    }

    /// Adds the cases and runs `other` measured to this measurer's.
    package mutating func absorb(_ other: AdviceMeasurer) {
        casesMeasured += other.casesMeasured
        runs += other.runs
    }

    /// Measures `trials` (a trial named like a variant of the scenario is that variant), each on the
    /// workloads `workloads[trial.name]` names, at `size` with `repetitions`, on the advice's
    /// basis or, `timed`, by time; `analyze` overrides ``AdviceOptions/analyze``. Returns, per trial
    /// name, each workload's cost, and the store's size once filled.
    package mutating func measure(
        _ trials: [AdviceTrial], workloads: [String: [String]], size: Int, repetitions: Int? = nil, timed: Bool = false,
        analyze: Bool? = nil
    ) throws(OperationError) -> [String: (costs: [String: TrialCost], storeBytes: Int64)] {
        var trialScenario = scenario
        var runsIn: [String: [String]] = [:]
        for trial in trials {
            if !trialScenario.variants.contains(where: { $0.name == trial.name }) {
                trialScenario.variants.append(trial.variant(extending: base, model: model))
            }
            for workload in workloads[trial.name] ?? [] { runsIn[workload, default: []].append(trial.name) }
        }
        trialScenario.workloads = trialScenario.workloads.compactMap { workload in
            guard let names = runsIn[workload.name] else { return nil }
            var workload = workload
            workload.variants = names
            return workload
        }
        guard !trialScenario.workloads.isEmpty else { return [:] }
        let plan: ScenarioPlan
        do { plan = try ScenarioPlan(ScenarioDecoder.check(trialScenario)) } catch {
            throw OperationError(.failed, "a trial of the advice does not validate: \(error)")
        }
        let basis = timed ? AdviceBasis.time : options.basis
        let countsInstructions = basis == .instructions
        var run = RunOptions(
            sizes: [size], repetitions: repetitions ?? (basis == .time ? options.repetitions : 1), warmup: 1,
            variants: trials.map(\.name), workloads: trialScenario.workloads.map(\.name))
        run.checksFit = false
        run.analyzesStores = analyze ?? options.analyze
        if countsInstructions { run.instructionCounter = options.instructionCounter }
        let result: RunResult
        do { result = try Lab.run(plan, options: run, observer: SilentObserver()) } catch {
            throw OperationError(.failed, "measuring the advice's trials failed: \(error)")
        }
        runs += 1
        casesMeasured += result.cases.count
        if let failure = result.failures.first {
            throw OperationError(.failed, "a trial of the advice failed (\(failure.key)): \(failure.failure.message)")
        }
        var out: [String: (costs: [String: TrialCost], storeBytes: Int64)] = [:]
        for trial in trials { out[trial.name] = ([:], result.fills.first { $0.variant == trial.name }?.storeBytes ?? -1) }
        for measured in result.cases {
            let cost: Double
            switch basis {
            case .instructions: cost = Double(measured.instructions?.total ?? 0)
            case .vmSteps: cost = Double(measured.counters.vmSteps)
            case .time: cost = measured.wall.median
            }
            out[measured.variant]?.costs[measured.workload] = TrialCost(cost: cost, result: measured)
        }
        return out
    }
}
