import SchemaLabSQLite

/// Everything measured for one case: variant x workload x size.
public struct CaseResult: Sendable {
    /// The scenario's name.
    public let scenario: String
    /// The variant's name.
    public let variant: String
    /// The workload's name.
    public let workload: String
    /// The data set size: how many objects of the root entity.
    public let size: Int
    /// The measured repetitions, in order (warm-ups are not samples).
    public let samples: [Sample]
    /// Statistics of the samples' wall times (ms).
    public let wall: Statistics
    /// Median CPU time (ms).
    public let cpuMedianMs: Double
    /// Peak resident set of the process during the case (KiB).
    public let peakRSSKB: Int64
    /// The largest rise of the peak resident set over the resident set at a repetition's
    /// start (KiB).
    public let rssGrowthKB: Int64
    /// SQLite's heap high-water mark during the case (bytes).
    public let sqliteHeapPeakBytes: Int64
    /// Counters of the last measured repetition.
    public let counters: StatementCounters
    /// Rows one run of the workload returned or wrote (the last repetition's).
    public let rows: Int
    /// Statements one run of the workload executed (the last repetition's).
    public let statements: Int
    /// The result's signature (digest, and values for small value results), computed
    /// outside the timed region.
    package let signature: ResultSignature
    /// The result's digest (`ResultSignature`), compared across variants to check that they
    /// return the same result.
    public var resultDigest: String { signature.digest }
    /// Each distinct statement the case ran, in the order first run, with its query plan.
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
    /// The distribution of ``reads``' times (ms); nil when the case has no reads.
    public var readSummary: LatencySummary? { LatencySummary(reads.map(\.ms)) }
    /// Median over the repetitions of each one's longest write transaction (ms).
    public var longestWriteMs: Double { Statistics(samples.map(\.longestWriteMs)).median }
    /// How the result compares with the reference variant's (set by the runner).
    public var referenceCheck: ResultCheck = .notChecked
    /// How the result compares with the `agreesWith` workload's (set by the runner).
    public var agreementCheck: ResultCheck = .notChecked
}

/// The outcome of comparing one case's result with another's.
public enum ResultCheck: String, Sendable {
    /// Nothing to compare with (no `agreesWith`; the reference variant did not run).
    case notChecked = ""
    /// This case is the reference.
    case reference
    /// The result equals the other's.
    case same
    /// The result differs from the other's.
    case differs
}

/// Instructions counted by callgrind in one run of a case's timed region.
public struct InstructionCount: Sendable, Equatable, Codable {
    /// Every instruction executed between the clock's start and stop.
    public var total: Int64
    /// Those executed inside libsqlite3 (its own code, not the functions it calls back).
    public var sqlite: Int64

    /// A count: `total` instructions, `sqlite` of them inside libsqlite3.
    public init(total: Int64, sqlite: Int64) {
        self.total = total
        self.sqlite = sqlite
    }
}
