/// One measured repetition.
public struct Sample: Sendable {
    public let repetition: Int
    public let wallMs: Double
    public let cpuMs: Double
    public let rows: Int
    public let statements: Int
}

/// One distinct statement a case ran, with its query plan.
public struct StatementPlan: Sendable {
    public let number: Int
    public let sql: String
    public let plan: [QueryPlanNode]
}

/// Everything measured for one case: variant x workload x size.
public struct CaseResult: Sendable {
    public let scenario: String
    public let variant: String
    public let workload: String
    public let size: Int
    public let samples: [Sample]
    /// Statistics of the samples' wall times (ms).
    public let wall: Statistics
    /// Median CPU time (ms).
    public let cpuMedianMs: Double
    /// Peak resident set during the case (KiB), and its growth over the resident set at the start.
    public let peakRSSKB: Int64
    public let rssGrowthKB: Int64
    /// SQLite's heap high-water mark during the case (bytes).
    public let sqliteHeapPeakBytes: Int64
    /// Counters of the last measured repetition.
    public let counters: StatementCounters
    public let rows: Int
    public let statements: Int
    /// Digest of the result (ordered IDs, sections), computed outside the timed region.
    public let resultDigest: String
    public let plans: [StatementPlan]
}
