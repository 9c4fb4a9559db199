import SchemaLabEngine

/// A finished run judged: the scenario's claims, and its assertions with the sequential rule
/// (a time `fasterThan` the samples cannot decide is measured again, both cases, in rounds of
/// ``AssertionCheck/sequentialRepetitions`` more repetitions, pooled with the run's, before it
/// fails; the extra repetitions decide the assertion only, the run's results keep its own).
struct RunJudgement {
    let plan: ScenarioPlan
    let scheduler: CaseScheduler
    let observer: any RunObserver
    let workDirectory: String
    private(set) var claims: [ClaimEvaluation] = []
    private(set) var assertions: AssertionCheck?
    private(set) var notes: [String] = []

    init(plan: ScenarioPlan, scheduler: CaseScheduler, observer: any RunObserver, workDirectory: String) {
        self.plan = plan
        self.scheduler = scheduler
        self.observer = observer
        self.workDirectory = workDirectory
    }

    /// Judges the claims on `snapshot`, and the assertions when `checkAssertions`.
    mutating func judge(_ snapshot: RunSnapshot, checkAssertions: Bool) {
        let scenario = plan.scenario
        claims = ClaimEvaluation.evaluate(scenario, run: snapshot)
        guard checkAssertions, !scenario.assertions.isEmpty else { return }
        var notes: [String] = []
        let observer = self.observer
        assertions = AssertionCheck.sequential(
            scenario: scenario, run: snapshot,
            measureAgain: { keys, round, reason in
                observer.runWillMeasureAgain(keys.sorted { $0.description < $1.description }, round: round, reason: reason)
                return measureAgain(keys, round: round, notes: &notes)
            })
        self.notes += notes
    }

    /// More repetitions of `keys`, measured as the run measured them (interleaved, after a
    /// warm-up, on their own stores), without instruction counts; a case that fails adds none.
    private func measureAgain(_ keys: Set<CaseKey>, round: Int, notes: inout [String]) -> [CaseKey: [Double]] {
        var out: [CaseKey: [Double]] = [:]
        let groups = Dictionary(grouping: keys) { "\($0.workload) \($0.size)" }
        for (_, group) in groups.sorted(by: { $0.key < $1.key }) {
            var options = scheduler.options
            options.sizes = [group[0].size]
            options.workloads = [group[0].workload]
            options.variants = Array(Set(group.map(\.variant))).sorted()
            options.repetitions = AssertionCheck.sequentialRepetitions
            options.instructionCounter = nil
            options.shard = nil
            options.stopsAtFirstFailure = false
            options.orderSeed = scheduler.options.orderSeed &+ UInt64(round)
            let again = CaseScheduler(plan: plan, options: options, workDirectory: workDirectory + "/sequential-\(round)")
            let collector = RunCollector(forwardingTo: SilentObserver())
            do {
                try again.run(skipping: Set(again.cases()).subtracting(keys), observer: collector)
            } catch {
                notes.append("measuring again failed: \(error)")
            }
            for failure in collector.failures { notes.append("measuring \(failure.key) again failed: \(failure.failure.message)") }
            for result in collector.results {
                out[CaseKey(variant: result.variant, workload: result.workload, size: result.size), default: []] += result.samples.map(
                    \.wallMs)
            }
        }
        return out
    }
}
