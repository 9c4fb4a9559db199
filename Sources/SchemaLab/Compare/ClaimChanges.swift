import SchemaLabEngine

/// The claims whose verdict differs between a baseline and a run (their claims.csv), gated
/// like a plan change: a verdict that got worse (holds to within noise or reversed, say) is a
/// regression when both verdicts rest on a deterministic metric (counts, or instructions for
/// a time in a counted run), since those cannot move with the machine's noise; a change of a
/// verdict judged on time or memory is reported, not gated. Matched by claim and size.
public struct ClaimChanges: Sendable {
    /// One claim whose verdict changed.
    public struct Change: Sendable {
        public let id: String
        public let size: Int
        public let before: ClaimVerdict
        public let after: ClaimVerdict
        public let verdict: RunComparison.Verdict
        public let message: String
    }

    public let changes: [Change]
    /// Claims the run judged that the baseline has no verdict for (an older baseline).
    public let unmatched: Int

    public var hasRegression: Bool { changes.contains { $0.verdict == .regressed } }

    public init(baseline: [ClaimRecord], run: [ClaimRecord]) {
        let before = Dictionary(baseline.filter { $0.size != nil }.map { ("\($0.id) \($0.size!)", $0) }, uniquingKeysWith: { a, _ in a })
        var changes: [Change] = []
        var unmatched = 0
        for r in run {
            guard let size = r.size else { continue }
            guard let b = before["\(r.id) \(size)"] else {
                unmatched += 1
                continue
            }
            guard b.verdict != r.verdict else { continue }
            let deterministic = [b.basis, r.basis].allSatisfy { ClaimMetric(rawValue: $0)?.isDeterministic ?? false }
            let verdict: RunComparison.Verdict =
                r.verdict.rank < b.verdict.rank
                ? (deterministic ? .regressed : .changed) : r.verdict.rank > b.verdict.rank ? .improved : .changed
            let gate = deterministic || verdict != .changed ? "" : " (judged on \(r.basis), which moves with noise: reported, not gated)"
            changes.append(
                Change(
                    id: r.id, size: size, before: b.verdict, after: r.verdict, verdict: verdict,
                    message:
                        "claim \(r.id) n=\(size): \(b.verdict.rawValue) -> \(r.verdict.rawValue) (ratio \(b.measuredText) -> \(r.measuredText), \(r.basis))\(gate)"
                ))
        }
        self.changes = changes
        self.unmatched = unmatched
    }
}
