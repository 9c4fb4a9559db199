import Foundation
import SchemaLabCoreData
import SchemaLabEngine
import Synchronization

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
    /// basis (or `chosenBasis`) or, `timed`, by time; `analyze` overrides ``AdviceOptions/analyze``. Returns, per trial
    /// name, each workload's cost, and the store's size once filled.
    package mutating func measure(
        _ trials: [AdviceTrial], workloads: [String: [String]], size: Int, repetitions: Int? = nil, timed: Bool = false,
        analyze: Bool? = nil, on chosenBasis: AdviceBasis? = nil
    ) throws(OperationError) -> [String: (costs: [String: TrialCost], storeBytes: Int64)] {
        let basis = timed ? AdviceBasis.time : chosenBasis ?? options.basis
        var run = RunOptions(sizes: [size], repetitions: repetitions ?? (basis == .time ? options.repetitions : 1), warmup: 1)
        run.checksFit = false
        run.analyzesStores = analyze ?? options.analyze
        if basis == .instructions { run.instructionCounter = options.instructionCounter }
        // The cases, (trial, workload), dealt to the workers in turn. A count does not depend on
        // what runs beside it (callgrind counts in a process of its own; VM steps are SQLite's),
        // so on those bases the workers run at once; time is measured by one.
        let pairs = trials.flatMap { trial in (workloads[trial.name] ?? []).map { (trial, $0) } }
        let workers = basis == .time ? 1 : max(1, min(options.workers, pairs.count))
        let groups = (0..<workers).map { worker in pairs.enumerated().filter { $0.offset % workers == worker }.map(\.element) }
        let jobs = groups.map { group in
            Job(scenario: scenario, base: base, model: model, cases: group, options: run, basis: basis)
        }
        let outcomes = Mutex<[Int: Result<RunResult, OperationError>]>([:])
        DispatchQueue.concurrentPerform(iterations: jobs.count) { i in
            let outcome = Result { () throws(OperationError) in try jobs[i].run() }
            outcomes.withLock { $0[i] = outcome }
        }
        var out: [String: (costs: [String: TrialCost], storeBytes: Int64)] = [:]
        for trial in trials { out[trial.name] = ([:], -1) }
        for i in jobs.indices {
            guard let outcome = outcomes.withLock({ $0[i] }), !jobs[i].cases.isEmpty else { continue }
            let result: RunResult
            switch outcome {
            case .success(let value): result = value
            case .failure(let error): throw error
            }
            runs += 1
            casesMeasured += result.cases.count
            for fill in result.fills where out[fill.variant]?.storeBytes ?? 0 < 0 { out[fill.variant]?.storeBytes = fill.storeBytes }
            for measured in result.cases {
                let cost: Double
                switch basis {
                case .instructions: cost = Double(measured.instructions?.total ?? 0)
                case .vmSteps: cost = Double(measured.counters.vmSteps)
                case .time: cost = measured.wall.median
                }
                out[measured.variant]?.costs[measured.workload] = TrialCost(cost: cost, result: measured)
            }
        }
        return out
    }

    /// One worker's share of a measurement: its cases as one scenario, run through ``Lab``.
    struct Job: Sendable {
        let scenario: Scenario
        let base: String
        let model: ResolvedModel
        let cases: [(trial: AdviceTrial, workload: String)]
        let options: RunOptions
        let basis: AdviceBasis

        func run() throws(OperationError) -> RunResult {
            var trialScenario = scenario
            var runsIn: [String: [String]] = [:]
            var variants: [String] = []
            for (trial, workload) in cases {
                if !trialScenario.variants.contains(where: { $0.name == trial.name }) {
                    trialScenario.variants.append(trial.variant(extending: base, model: model))
                }
                if !variants.contains(trial.name) { variants.append(trial.name) }
                runsIn[workload, default: []].append(trial.name)
            }
            trialScenario.workloads = trialScenario.workloads.compactMap { workload in
                guard let names = runsIn[workload.name] else { return nil }
                var workload = workload
                workload.variants = names
                // The advisor compares each result with the start's itself; the workload it
                // agrees with may be measured by another worker.
                workload.agreesWith = nil
                return workload
            }
            let plan: ScenarioPlan
            do { plan = try ScenarioPlan(ScenarioDecoder.check(trialScenario)) } catch {
                throw OperationError(.failed, "a trial of the advice does not validate: \(error)")
            }
            var run = options
            run.variants = variants
            run.workloads = trialScenario.workloads.map(\.name)
            let result: RunResult
            do { result = try Lab.run(plan, options: run, observer: SilentObserver()) } catch {
                throw OperationError(.failed, "measuring the advice's trials failed: \(error)")
            }
            if let failure = result.failures.first {
                throw OperationError(.failed, "a trial of the advice failed (\(failure.key)): \(failure.failure.message)")
            }
            return result
        }
    }
}
