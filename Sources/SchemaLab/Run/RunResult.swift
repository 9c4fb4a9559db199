import SchemaLabEngine

/// What a run measured, in memory: every case's measurements, statements and plans, with its
/// result checks; the cases that failed; the stores it filled; and the scenario's claims and
/// assertions judged on it.
public struct RunResult: Sendable {
    /// A case that failed, and why.
    public struct FailedCase: Sendable, Equatable {
        /// The case.
        public let key: CaseKey
        /// Why it failed.
        public let failure: CaseFailure
    }

    /// The scenario the run measured, as checked (one built in Swift gains its text's SHA-256).
    public let scenario: Scenario
    /// What the run set out to do: its cases, sizes, variants and workloads.
    public let plan: RunPlan
    /// The cases measured, in the order they finished, each checked against the reference
    /// variant and its `agreesWith` workload (``/SchemaLabEngine/CaseResult/referenceCheck``, ``/SchemaLabEngine/CaseResult/agreementCheck``).
    public let cases: [CaseResult]
    /// The cases that failed, in the order they failed.
    public let failures: [FailedCase]
    /// What filling each variant's store cost, per size.
    public let fills: [FillMeasurement]
    /// The scenario's claims judged on the run (empty when it states none, or when the run
    /// stopped at a failure).
    public let claims: [ClaimEvaluation]
    /// The scenario's assertions checked on the run; nil when it states none, or when a case
    /// failed.
    public let assertions: AssertionCheck?
    /// The environment the run measured in.
    public let environment: EnvironmentFingerprint
    /// True when the run stopped at its first failed case (``/SchemaLabEngine/RunOptions/stopsAtFirstFailure``).
    public let stoppedAtFailure: Bool
    /// What the run has to say beside its results: a re-measurement that failed, say.
    public let notes: [String]

    /// The measured case of `variant`, `workload` and `size`.
    public func result(variant: String, workload: String, size: Int) -> CaseResult? {
        cases.first { $0.variant == variant && $0.workload == workload && $0.size == size }
    }

    /// The claim with this id, judged.
    public func claim(_ id: String) -> ClaimEvaluation? {
        claims.first { $0.claim.id == id }
    }

    /// The cases whose result differs from the one they must equal.
    public var differingCases: [CaseResult] {
        cases.filter { $0.referenceCheck == .differs || $0.agreementCheck == .differs }
    }

    /// The run as the claims, the gate and the reports read it.
    public var snapshot: RunSnapshot {
        let variants = scenario.variants.map(\.name), workloads = scenario.workloads.map(\.name)
        return RunSnapshot(
            scenario: scenario.name, cases: cases.map { RecordedCase($0, variants: variants, workloads: workloads) }, fills: fills,
            environment: environment)
    }
}
