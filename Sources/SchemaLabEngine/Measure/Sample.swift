/// One measured repetition of a case.
public struct Sample: Sendable, Equatable {
    /// 1 for the first measured repetition (warm-ups are not samples).
    public var repetition: Int
    /// Wall time of the timed region (ms), per run of the workload (a repetition that runs
    /// it several times is divided by their number).
    public var wallMs: Double
    /// CPU time of the timed region (ms), per run of the workload like ``wallMs``.
    public var cpuMs: Double
    /// Rows one run of the workload returned or wrote.
    public var rows: Int
    /// Statements one run of the workload executed.
    public var statements: Int
    /// Heap (KiB) the result still held when the workload returned: in use after minus before.
    public var heapRetainedKB: Int64
    /// The longest write transaction of the repetition (ms): how long the write lock was held.
    public var longestWriteMs: Double

    /// A repetition's figures; `longestWriteMs` defaults to 0 (no write transaction).
    public init(
        repetition: Int, wallMs: Double, cpuMs: Double, rows: Int, statements: Int, heapRetainedKB: Int64, longestWriteMs: Double = 0
    ) {
        self.repetition = repetition
        self.wallMs = wallMs
        self.cpuMs = cpuMs
        self.rows = rows
        self.statements = statements
        self.heapRetainedKB = heapRetainedKB
        self.longestWriteMs = longestWriteMs
    }
}
