/// One step of the search: the candidate kept, what it gained and cost on the search's
/// basis (weighted, against the set before the step), and how many trials the step measured.
package struct AdviceStep: Sendable {
    /// 1, 2, ...
    package var number: Int
    /// The candidate kept (an index added, widened, or removed).
    package var candidate: IndexCandidate
    /// The chosen index it widens, if it does.
    package var widens: IndexCandidate?
    /// Weighted read cost saved (positive: faster).
    package var readGain: Double
    /// Weighted write cost added (positive: slower).
    package var writeCost: Double
    /// Bytes the store grew by (negative when it shrank).
    package var storeBytes: Int64
    /// Trials measured in this step.
    package var trialsMeasured: Int
    /// Candidates that were eligible to be measured in this step.
    package var candidatesConsidered: Int

    /// Read gain net of write cost.
    package var net: Double { readGain - writeCost }
}

/// A candidate's measured effect against the current set.
package struct CandidateEffect: Sendable {
    package var candidate: IndexCandidate
    package var trial: AdviceTrial
    package var readGain: Double
    package var writeCost: Double
    package var storeBytes: Int64
    /// Each workload's cost in the trial.
    package var costs: [String: TrialCost]
    /// Each workload's cost in the set the trial was measured against.
    package var baseCosts: [String: Double] = [:]
    /// A workload whose result differs from the starting variant's, or nil.
    package var differs: String?

    package var net: Double { readGain - writeCost }
}
