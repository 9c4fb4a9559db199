import SchemaLabEngine

/// Checks a scenario's assertions against a finished run: each failure is a message naming
/// the scenario, the variant, the workload, the size and, for a plan, the statement.
/// An assertion about a case the run does not have (a shard, `--variants`) is skipped.
/// A `fasterThan` is judged on instructions when the run counted both cases (`--instructions`:
/// fewer by more than 1%), otherwise on time (median lower and Mann-Whitney p below 0.05);
/// a time check the samples cannot decide is listed in ``inDoubt`` for the run to measure again.
public struct AssertionCheck: Sendable {
    /// Every failure, one message each, in the order of the scenario's assertions, size by
    /// size.
    public let failures: [String]
    /// How many assertions were checked (per size).
    public let checked: Int
    /// How many assertions were skipped (per size): about a case the run does not have.
    public let skipped: Int
    /// How many checks failed (one check may fail on several statements).
    public let failedChecks: Int
    /// Why some assertions could not be checked (too few repetitions for a fasterThan).
    public let notes: [String]

    /// The `fasterThan` checks the time samples could not decide (the pair of cases: faster,
    /// slower): a test that is not significant either way. A run measures more repetitions of
    /// these (``sequential(scenario:run:measureAgain:)``) before it fails them.
    public let inDoubt: [(faster: CaseKey, slower: CaseKey)]

    /// The sequential rule of a time `fasterThan`: up to ``sequentialRounds`` more rounds of
    /// ``sequentialRepetitions`` repetitions of each case in doubt; the first look is at
    /// ``alpha``, each later one at ``sequentialAlpha``, so a false "faster" passes at most
    /// 0.05 + 3 × 0.0125 = 8.75% of the time. A check decided at an earlier look keeps its
    /// verdict: only the pairs with extra samples are judged again.
    public static let sequentialRounds = 3
    /// Repetitions of each case per round.
    public static let sequentialRepetitions = 5
    /// The significance level of the first look.
    public static let alpha = 0.05
    /// The significance level of each later look: alpha / (rounds + 1).
    public static let sequentialAlpha = alpha / Double(sequentialRounds + 1)

    /// `extraSamples`: wall times (ms) measured after the run for cases in doubt, pooled with
    /// the run's; a pair with extra samples is judged at ``sequentialAlpha``.
    public init(scenario: Scenario, run: RunSnapshot, extraSamples: [CaseKey: [Double]] = [:]) {
        var tally = AssertionTally(scenario: scenario, run: run, extraSamples: extraSamples)
        let sizes = Array(Set(run.order.map(\.size))).sorted()
        for a in scenario.assertions {
            for size in sizes { tally.check(a, size: size) }
        }
        self.failures = tally.failures
        self.inDoubt = tally.inDoubt
        self.failedChecks = tally.failedChecks
        self.notes = tally.notes
        self.checked = tally.checked
        self.skipped = tally.skipped
    }

    /// The sequential rule: while checks are in doubt and rounds are left, `measureAgain` gives
    /// ``sequentialRepetitions`` more wall times (ms) of each case it is asked for (nothing for a
    /// case it could not measure, which is not asked for again), pooled with the run's; it is
    /// told the round and why, in words. Returns the final check.
    public static func sequential(
        scenario: Scenario, run: RunSnapshot,
        measureAgain: (Set<CaseKey>, _ round: Int, _ reason: String) -> [CaseKey: [Double]]
    ) -> AssertionCheck {
        var check = AssertionCheck(scenario: scenario, run: run)
        var extra: [CaseKey: [Double]] = [:]
        var broken: Set<CaseKey> = []
        for round in 1...sequentialRounds {
            let doubtful = check.inDoubt.filter { !broken.contains($0.faster) && !broken.contains($0.slower) }
            guard !doubtful.isEmpty else { break }
            let pairs = doubtful.map { "\($0.faster.variant) against \($0.slower.variant) \($0.faster.workload) n=\($0.faster.size)" }
            let reason =
                "fasterThan in doubt (\(pairs.joined(separator: "; "))): "
                + "\(sequentialRepetitions) more repetitions of each case, round \(round) of \(sequentialRounds)"
            let keys = Set(doubtful.flatMap { [$0.faster, $0.slower] })
            let measured = measureAgain(keys, round, reason)
            for (key, samples) in measured where keys.contains(key) { extra[key, default: []] += samples }
            broken.formUnion(keys.filter { (measured[$0] ?? []).isEmpty })
            check = AssertionCheck(scenario: scenario, run: run, extraSamples: extra)
        }
        return check
    }

    /// True when a plan line reads `USING INDEX name` or `USING COVERING INDEX name` with the
    /// whole name: `Z_ix` does not match `USING INDEX Z_ix2 (...)`.
    static func line(_ line: String, usesIndex index: String) -> Bool {
        for prefix in ["USING INDEX ", "USING COVERING INDEX "] {
            var rest = line[...]
            while let r = rest.range(of: prefix + index) {
                let after = rest[r.upperBound...]
                if after.isEmpty || after.first == " " || after.first == "(" { return true }
                rest = after
            }
        }
        return false
    }
}
