/// One measured repetition of a case.
public struct Sample: Sendable, Equatable {
    /// 1 for the first measured repetition (warm-ups are not samples).
    public var repetition: Int
    /// Wall and CPU time of the timed region (ms).
    public var wallMs: Double
    public var cpuMs: Double
    /// Rows the workload returned or wrote, and the statements it ran.
    public var rows: Int
    public var statements: Int
    /// Heap (KiB) the result still held when the workload returned: in use after minus before.
    public var heapRetainedKB: Int64
    /// The longest write transaction of the repetition (ms): how long the write lock was held.
    public var longestWriteMs: Double

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
