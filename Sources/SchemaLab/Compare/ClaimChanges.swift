import SchemaLabEngine

/// The claims whose verdict differs between a baseline and a run (their claims.csv), gated
/// like a plan change: a verdict that got worse (holds to within noise or reversed, say) is a
/// regression when both verdicts rest on the same deterministic metric (counts, or
/// instructions for a time in a counted run, moved by more than their 1% tolerance) and the
/// claim's expectation is unchanged; a change of a verdict judged on time or memory is
/// reported, not gated. Matched by claim and size.
package struct ClaimChanges: Sendable {
    /// One claim whose verdict changed.
    package struct Change: Sendable {
        /// The claim, and the size it changed at.
        package let id: String
        package let size: Int
        /// The baseline's verdict and the run's.
        package let before: ClaimVerdict
        package let after: ClaimVerdict
        /// What it means for the gate: regressed (gated), improved, or changed (reported).
        package let verdict: RunComparison.Verdict
        /// The line the comparison report prints.
        package let message: String
    }

    /// Every claim measurement whose verdict changed.
    package let changes: [Change]
    /// Claims the run judged that the baseline has no verdict for (an older baseline).
    package let unmatched: Int

    /// True when a change is gated.
    package var hasRegression: Bool { changes.contains { $0.verdict == .regressed } }

    package init(baseline: [ClaimRecord], run: [ClaimRecord]) {
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
            let deterministic = b.basis == r.basis && (ClaimMetric(rawValue: r.basis)?.isDeterministic ?? false)
            // Instructions repeat, but a layout change can move them by a fraction of a percent:
            // a verdict that flips while the ratio moved less than the tolerance is not gated.
            let moved =
                r.basis != ClaimMetric.instructions.rawValue
                || abs((r.ratio ?? 1) / max(b.ratio ?? 1, .leastNonzeroMagnitude) - 1) > ClaimEvaluation.instructionTolerance
            // An edited claim (another expectation) is a new question, not a regression.
            let sameClaim =
                b.expectedLow == r.expectedLow && b.expectedHigh == r.expectedHigh && b.direction == r.direction
                && b.tolerance == r.tolerance
            let gated = deterministic && moved && sameClaim
            let verdict: RunComparison.Verdict =
                r.verdict.rank < b.verdict.rank ? (gated ? .regressed : .changed) : r.verdict.rank > b.verdict.rank ? .improved : .changed
            let why =
                !sameClaim
                ? "the claim's expectation changed"
                : !deterministic ? "judged on \(r.basis), which moves with noise" : "the ratio moved within the 1% tolerance"
            let gate = verdict == .changed ? " (\(why): reported, not gated)" : ""
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
