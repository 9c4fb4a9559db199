import SchemaLabSQLite

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
    /// The result's signature (digest, and values for small value results), computed
    /// outside the timed region.
    package let signature: ResultSignature
    public var resultDigest: String { signature.digest }
    public let plans: [StatementPlan]
    /// The same statements stepped with the bare C API, one per repetition (raw result types only).
    public let floor: Statistics?
    /// The raw baseline: the case's recorded statements stepped with the bare C API, once
    /// after each repetition (nil for a reader under a writer, and under instruction counting).
    public var raw: Statistics?
    /// A reader under a writer: every read of every repetition, and their distribution.
    public var reads: [ReadLatency] = []
    /// Runs of the workload per sample (a short read-only workload runs several times).
    public var multiplier = 1
    /// With `--instructions`: the instructions of one run's timed region under callgrind,
    /// in total and inside libsqlite3.
    public var instructions: InstructionCount?
    public var readSummary: LatencySummary? { LatencySummary(reads.map(\.ms)) }
    /// Median over the repetitions of each one's longest write transaction (ms).
    public var longestWriteMs: Double { Statistics(samples.map(\.longestWriteMs)).median }
    /// How the result compares with the reference variant's, and with `agreesWith`'s (set by the runner).
    public var referenceCheck: ResultCheck = .notChecked
    public var agreementCheck: ResultCheck = .notChecked
}

/// The outcome of comparing one case's result with another's.
public enum ResultCheck: String, Sendable {
    /// Nothing to compare with (no `agreesWith`; the reference variant did not run).
    case notChecked = ""
    /// This case is the reference.
    case reference
    case same
    case differs
}

/// Instructions counted by callgrind in one run of a case's timed region.
public struct InstructionCount: Sendable, Equatable, Codable {
    /// Every instruction executed between the clock's start and stop.
    public var total: Int64
    /// Those executed inside libsqlite3 (its own code, not the functions it calls back).
    public var sqlite: Int64

    public init(total: Int64, sqlite: Int64) {
        self.total = total
        self.sqlite = sqlite
    }
}
