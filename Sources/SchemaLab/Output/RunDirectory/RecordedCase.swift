import SchemaLabEngine

/// One finished case as a run keeps it, typed: its row of results.csv (``summary``), its
/// repetitions (samples.csv), its statements and their plans (plans.csv), every read of a
/// reader under a writer (its latencies file) and its result signature (for the checks of a
/// resumed or merged run). Made from a measured ``/SchemaLabEngine/CaseResult`` or read back from a run
/// directory; claims, assertions, the regression gate and the reports read it the same way.
public struct RecordedCase: Sendable {
    /// The case's figures: its row of results.csv.
    public var summary: CaseSummary
    /// Its measured repetitions, in order (samples.csv).
    public var samples: [Sample]
    /// Its distinct statements with their query plans (plans.csv).
    public var plans: [StatementPlan]
    /// Every read of a reader under a writer or query of a box set; empty for other cases.
    public var latencies: [ReadLatency]
    /// The result's signature; nil for a case read back by a ``RunSnapshot`` (which does not
    /// need it).
    package var signature: ResultSignature?

    package init(
        summary: CaseSummary, samples: [Sample], plans: [StatementPlan], latencies: [ReadLatency] = [],
        signature: ResultSignature? = nil
    ) {
        self.summary = summary
        self.samples = samples
        self.plans = plans
        self.latencies = latencies
        self.signature = signature
    }

    /// The case as measured; `variants` and `workloads` give the scenario's order (the
    /// summary's variant and workload indexes, for the plots).
    public init(_ result: CaseResult, variants: [String], workloads: [String]) {
        self.init(
            summary: CaseSummary(
                result, variantIndex: variants.firstIndex(of: result.variant) ?? -1,
                workloadIndex: workloads.firstIndex(of: result.workload) ?? -1),
            samples: result.samples, plans: result.plans, latencies: result.reads, signature: result.signature)
    }

    /// The case: its variant, workload and size.
    public var key: CaseKey { summary.key }

    /// Each repetition's wall time (ms).
    public var wallMs: [Double] { samples.map(\.wallMs) }
    /// Each repetition's CPU time (ms).
    public var cpuMs: [Double] { samples.map(\.cpuMs) }
    /// Each repetition's heap retained (KiB).
    public var heapRetainedKB: [Double] { samples.map { Double($0.heapRetainedKB) } }
    /// Each repetition's longest write transaction (ms).
    public var longestWriteMs: [Double] { samples.map(\.longestWriteMs) }
    /// Every read's latency (ms), in the order they were made.
    public var latencyMs: [Double] { latencies.map(\.ms) }

    /// The case's rows of samples.csv, plans.csv and its latencies file.
    var sampleRows: [CaseRow<Sample>] { samples.map { CaseRow(scenario: summary.scenario, key: key, value: $0) } }
    var planRows: [CaseRow<PlanRow>] {
        plans.flatMap(PlanRow.rows).map { CaseRow(scenario: summary.scenario, key: key, value: $0) }
    }
    var latencyRows: [CaseRow<ReadLatency>] { latencies.map { CaseRow(scenario: summary.scenario, key: key, value: $0) } }
}
