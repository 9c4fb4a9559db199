import SchemaLabEngine

/// A finished run judged: the scenario's claims, and its assertions with the sequential rule
/// (a time `fasterThan` the samples cannot decide is measured again, both cases, in rounds of
/// ``AssertionCheck/sequentialRepetitions`` more repetitions, pooled with the run's, before it
/// fails; the extra repetitions decide the assertion only, the run's results keep its own).
///
/// A claim whose interval reaches across a verdict boundary is measured again the same way,
/// within ``RunOptions/settlesClaimsWithin`` seconds (``ClaimSettling``): its verdict is read
/// from the pooled repetitions, and says `undecided` if they still cannot decide it. The
/// results keep the run's own repetitions.
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

    /// Judges the claims on `snapshot` (settling the undecided ones, with `fills` to estimate
    /// what measuring again costs), and the assertions when `checkAssertions`.
    mutating func judge(_ snapshot: RunSnapshot, fills: [FillMeasurement] = [], checkAssertions: Bool) {
        let scenario = plan.scenario
        claims = ClaimEvaluation.evaluate(scenario, run: snapshot)
        if scheduler.options.settlesClaimsWithin > 0 { settleClaims(snapshot, fills: fills) }
        guard checkAssertions, !scenario.assertions.isEmpty else { return }
        var notes: [String] = []
        let observer = self.observer
        assertions = AssertionCheck.sequential(
            scenario: scenario, run: snapshot,
            measureAgain: { keys, round, reason in
                observer.runWillMeasureAgain(keys.sorted { $0.description < $1.description }, round: round, reason: reason)
                return measureAgain(keys, round: round, repetitions: AssertionCheck.sequentialRepetitions, notes: &notes)
                    .mapValues { $0.map(\.wallMs) }
            })
        self.notes += notes
    }

    /// Measures the undecided claims' cases again, round by round, while time is left.
    private mutating func settleClaims(_ snapshot: RunSnapshot, fills: [FillMeasurement]) {
        let warmup = scheduler.options.warmup ?? plan.scenario.measurement.warmup
        let settling = ClaimSettling(run: snapshot, fills: fills, warmup: warmup)
        var pooled = snapshot
        var extra: [CaseKey: [Sample]] = [:]
        var broken: Set<CaseKey> = []
        var left = scheduler.options.settlesClaimsWithin
        var notes: [String] = []
        for round in 1...ClaimSettling.rounds {
            let pairs = settling.pairs(claims, within: left, excluding: broken)
            guard !pairs.isEmpty else { break }
            let keys = Set(pairs.flatMap(\.keys))
            let reason =
                "claims undecided (\(pairs.map(\.claim).joined(separator: ", "))): "
                + "\(ClaimSettling.repetitions) more repetitions of each case, round \(round) of \(ClaimSettling.rounds)"
            observer.runWillMeasureAgain(keys.sorted { $0.description < $1.description }, round: round, reason: reason)
            let start = Clock.wallNanoseconds()
            let measured = measureAgain(keys, round: 100 + round, repetitions: ClaimSettling.repetitions, notes: &notes)
            left -= Double(Clock.wallNanoseconds() - start) / 1e9
            for key in keys {
                if let samples = measured[key], !samples.isEmpty { extra[key, default: []] += samples } else { broken.insert(key) }
            }
            pooled = snapshot.adding(samples: extra)
            claims = ClaimEvaluation.evaluate(plan.scenario, run: pooled)
        }
        self.notes += notes
    }

    /// More repetitions of `keys`, measured as the run measured them (interleaved, after a
    /// warm-up, on their own stores), without instruction counts; a case that fails adds none.
    private func measureAgain(_ keys: Set<CaseKey>, round: Int, repetitions: Int, notes: inout [String]) -> [CaseKey: [Sample]] {
        var out: [CaseKey: [Sample]] = [:]
        let groups = Dictionary(grouping: keys) { "\($0.workload) \($0.size)" }
        for (_, group) in groups.sorted(by: { $0.key < $1.key }) {
            var options = scheduler.options
            options.sizes = [group[0].size]
            options.workloads = [group[0].workload]
            options.variants = Array(Set(group.map(\.variant))).sorted()
            options.repetitions = repetitions
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
                out[CaseKey(variant: result.variant, workload: result.workload, size: result.size), default: []] += result.samples
            }
        }
        return out
    }
}
