import SchemaLabSQLite

/// One case's figures as one row of results.csv holds them, typed: what the claims, the
/// assertions, the regression gate and the reports read, whether the case was measured in
/// this process (``init(_:variantIndex:workloadIndex:)``) or read back from a run directory.
///
/// A value the case did not record is nil (no floor for a fetch of objects, no instruction
/// count without `instructions`, no reads but for a reader under a writer or a box set).
public struct CaseSummary: Sendable, Equatable {
    public var scenario = ""
    public var variant = ""
    public var workload = ""
    public var size = 0
    /// Measured repetitions.
    public var repetitions = 0
    /// Wall time per repetition (ms): order statistics, spread and the median's 95% interval.
    public var minMs = 0.0
    public var medianMs = 0.0
    public var maxMs = 0.0
    public var p90Ms = 0.0
    public var madMs = 0.0
    public var ciLowMs = 0.0
    public var ciHighMs = 0.0
    /// Repetitions far from the median (counted, never dropped).
    public var outliers = 0
    /// Median CPU time (ms).
    public var cpuMs = 0.0
    /// Peak resident set (KiB) and its growth over the resident set at the case's start.
    public var peakRSSKB: Int64 = 0
    public var rssGrowthKB: Int64 = 0
    /// SQLite's heap high-water mark (bytes).
    public var sqliteHeapPeakBytes: Int64 = 0
    /// SQLite's counters of the last repetition.
    public var counters = StatementCounters()
    public var rows = 0
    public var statements = 0
    /// The result's digest (`ResultSignature`).
    public var resultDigest = ""
    /// The variant's and the workload's place in the scenario (for the plots' order).
    public var variantIndex = -1
    public var workloadIndex = -1
    /// The result against the reference variant's and the `agreesWith` workload's.
    public var referenceCheck = ResultCheck.notChecked
    public var agreementCheck = ResultCheck.notChecked
    /// The raw result types' floor: their one statement stepped with the bare C API (median ms).
    public var floorMs: Double?
    /// Median heap the result still held when the workload returned (KiB).
    public var heapRetainedKB: Int64 = 0
    /// Median of each repetition's longest write transaction (ms).
    public var longestWriteMs = 0.0
    /// Reads of a reader under a writer, or queries of a box set: how many, and their
    /// nearest-rank percentiles (ms).
    public var reads: Int?
    public var readP50Ms: Double?
    public var readP90Ms: Double?
    public var readP99Ms: Double?
    public var readMaxMs: Double?
    /// Runs of the workload per repetition (a short read runs several times).
    public var multiplier = 1
    /// Instructions of one run's timed region under callgrind, in all and inside libsqlite3.
    public var instructions: Int64?
    public var sqliteInstructions: Int64?
    /// The raw baseline: the case's statements stepped with the bare C API (median ms).
    public var rawMs: Double?

    /// An empty row, filled column by column when a file is read.
    public init() {}

    /// The case this row is about.
    public var key: CaseKey { CaseKey(variant: variant, workload: workload, size: size) }

    /// The median time over the floor's, when the case has a floor.
    public var floorRatio: Double? { floorMs.map { medianMs / $0 } }
    /// The median time over the raw baseline's, when the case has one.
    public var rawRatio: Double? { rawMs.map { medianMs / $0 } }

    /// The summary of a measured case; `variantIndex` and `workloadIndex` are the case's
    /// places in its scenario.
    public init(_ result: CaseResult, variantIndex: Int, workloadIndex: Int) {
        scenario = result.scenario
        variant = result.variant
        workload = result.workload
        size = result.size
        repetitions = result.samples.count
        minMs = result.wall.min
        medianMs = result.wall.median
        maxMs = result.wall.max
        p90Ms = result.wall.p90
        madMs = result.wall.mad
        ciLowMs = result.wall.ciLow
        ciHighMs = result.wall.ciHigh
        outliers = result.wall.outliers
        cpuMs = result.cpuMedianMs
        peakRSSKB = result.peakRSSKB
        rssGrowthKB = result.rssGrowthKB
        sqliteHeapPeakBytes = result.sqliteHeapPeakBytes
        counters = result.counters
        rows = result.rows
        statements = result.statements
        resultDigest = result.resultDigest
        self.variantIndex = variantIndex
        self.workloadIndex = workloadIndex
        referenceCheck = result.referenceCheck
        agreementCheck = result.agreementCheck
        floorMs = result.floor?.median
        heapRetainedKB = Int64(Statistics(result.samples.map { Double($0.heapRetainedKB) }).median)
        longestWriteMs = result.longestWriteMs
        if let summary = result.readSummary {
            reads = summary.count
            readP50Ms = summary.p50
            readP90Ms = summary.p90
            readP99Ms = summary.p99
            readMaxMs = summary.max
        }
        multiplier = result.multiplier
        instructions = result.instructions?.total
        sqliteInstructions = result.instructions?.sqlite
        rawMs = result.raw?.median
    }
}
