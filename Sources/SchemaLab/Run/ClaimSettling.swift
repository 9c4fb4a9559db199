import SchemaLabEngine

/// The claims a run measures again: those whose headline interval reaches across a verdict
/// boundary (``ClaimVerdict/undecided``) on a metric more repetitions can narrow, chosen
/// cheapest first within the time left (``RunOptions/settlesClaimsWithin``).
struct ClaimSettling {
    /// Rounds of more repetitions at most, and the repetitions a round adds to each case.
    static let rounds = 2
    static let repetitions = 5

    /// The time a case's first measurement took (seconds): its warm-up and repetitions, and
    /// the fill of its store, the two a repetition round pays again.
    let caseSeconds: [CaseKey: Double]

    /// The pairs of cases to measure again now: each undecided claim's, cheapest first, while
    /// their estimated time fits in `seconds` (a case shared by two claims is paid once);
    /// never a case in `broken` (one that could not be measured again).
    func pairs(_ claims: [ClaimEvaluation], within seconds: Double, excluding broken: Set<CaseKey>) -> [(claim: String, keys: [CaseKey])] {
        var wanted: [(claim: String, keys: [CaseKey], seconds: Double)] = []
        for evaluation in claims {
            guard let headline = evaluation.headline, headline.verdict == .undecided, headline.basis.repeats else { continue }
            let keys = [
                CaseKey(variant: evaluation.claim.subject.variant, workload: evaluation.claim.subject.workload, size: headline.size),
                CaseKey(variant: evaluation.claim.against.variant, workload: evaluation.claim.against.workload, size: headline.size),
            ]
            guard broken.isDisjoint(with: keys), let a = caseSeconds[keys[0]], let b = caseSeconds[keys[1]] else { continue }
            wanted.append((evaluation.claim.id, keys, a + b))
        }
        var chosen: [(claim: String, keys: [CaseKey])] = []
        var paid: Set<CaseKey> = []
        var left = seconds
        for pair in wanted.sorted(by: { $0.seconds < $1.seconds }) {
            let cost = pair.keys.filter { !paid.contains($0) }.reduce(0) { $0 + (caseSeconds[$1] ?? 0) }
            guard cost <= left else { continue }
            left -= cost
            paid.formUnion(pair.keys)
            chosen.append((pair.claim, pair.keys))
        }
        return chosen
    }
}

extension ClaimSettling {
    /// The costs of the cases of `run`, with their variants' fills.
    init(run: RunSnapshot, fills: [FillMeasurement], warmup: Int) {
        var fillMs: [String: Double] = [:]
        for fill in fills { fillMs["\(fill.variant) \(fill.size)"] = fill.milliseconds }
        var seconds: [CaseKey: Double] = [:]
        for (key, recorded) in run.cases {
            let perRepetition = recorded.wallMs.isEmpty ? 0 : recorded.wallMs.reduce(0, +) / Double(recorded.wallMs.count)
            let fill = fillMs["\(key.variant) \(key.size)"] ?? 0
            seconds[key] = (Double(Self.repetitions + warmup) * perRepetition + fill) / 1000
        }
        caseSeconds = seconds
    }
}
