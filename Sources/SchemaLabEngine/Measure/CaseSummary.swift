import SchemaLabSQLite

/// One case's figures as one row of results.csv holds them, typed: what the claims, the
/// assertions, the regression gate and the reports read, whether the case was measured in
/// this process (``init(_:variantIndex:workloadIndex:)``) or read back from a run directory.
///
/// A value the case did not record is nil (no floor for a fetch of objects, no instruction
/// count without `instructions`, no reads but for a reader under a writer or a box set).
public struct CaseSummary: Sendable, Equatable {
    /// The scenario's name.
    public var scenario = ""
    /// The variant's name.
    public var variant = ""
    /// The workload's name.
    public var workload = ""
    /// The data set size: how many objects of the root entity.
    public var size = 0
    /// Measured repetitions.
    public var repetitions = 0
    /// The fastest repetition's wall time (ms). Every wall time is one run's: a repetition
    /// that runs the workload several times (``multiplier``) is divided by their number.
    public var minMs = 0.0
    /// The median wall time (ms).
    public var medianMs = 0.0
    /// The slowest repetition's wall time (ms).
    public var maxMs = 0.0
    /// The 90th percentile of the wall times, nearest-rank (ms).
    public var p90Ms = 0.0
    /// The wall times' median absolute deviation from their median, unscaled (ms).
    public var madMs = 0.0
    /// The low end of the median's 95% bootstrap interval (ms).
    public var ciLowMs = 0.0
    /// The high end of the median's 95% bootstrap interval (ms).
    public var ciHighMs = 0.0
    /// Repetitions far from the median (counted, never dropped).
    public var outliers = 0
    /// Median CPU time (ms).
    public var cpuMs = 0.0
    /// Peak resident set of the process during the case (KiB).
    public var peakRSSKB: Int64 = 0
    /// The largest rise of the peak resident set over the resident set at a repetition's
    /// start (KiB).
    public var rssGrowthKB: Int64 = 0
    /// SQLite's heap high-water mark (bytes).
    public var sqliteHeapPeakBytes: Int64 = 0
    /// SQLite's counters of the last repetition.
    public var counters = StatementCounters()
    /// Rows one run of the workload returned or wrote (the last repetition's).
    public var rows = 0
    /// Statements one run of the workload executed (the last repetition's).
    public var statements = 0
    /// The result's digest (`ResultSignature`).
    public var resultDigest = ""
    /// The variant's place in the scenario, from 0 (for the plots' order); -1 when unknown.
    public var variantIndex = -1
    /// The workload's place in the scenario, from 0 (for the plots' order); -1 when unknown.
    public var workloadIndex = -1
    /// The result against the reference variant's.
    public var referenceCheck = ResultCheck.notChecked
    /// The result against the `agreesWith` workload's.
    public var agreementCheck = ResultCheck.notChecked
    /// The raw result types' floor: their one statement stepped with the bare C API (median ms).
    public var floorMs: Double?
    /// Median heap the result still held when the workload returned (KiB).
    public var heapRetainedKB: Int64 = 0
    /// Median of each repetition's longest write transaction (ms).
    public var longestWriteMs = 0.0
    /// Reads of a reader under a writer, or queries of a box set: how many over all the
    /// repetitions; nil when the workload has none.
    public var reads: Int?
    /// The reads' 50th percentile, nearest-rank (ms); nil without reads.
    public var readP50Ms: Double?
    /// The reads' 90th percentile, nearest-rank (ms); nil without reads.
    public var readP90Ms: Double?
    /// The reads' 99th percentile, nearest-rank (ms); nil without reads.
    public var readP99Ms: Double?
    /// The longest read (ms); nil without reads.
    public var readMaxMs: Double?
    /// Runs of the workload per repetition (a short read runs several times).
    public var multiplier = 1
    /// Instructions of one run's timed region under callgrind, in all; nil when the run did
    /// not count instructions.
    public var instructions: Int64?
    /// Those of ``instructions`` executed inside libsqlite3; nil when the run did not count
    /// instructions.
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
