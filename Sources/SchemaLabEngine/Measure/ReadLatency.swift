/// One read of a reader under a writer, or one query of a box set.
public struct ReadLatency: Sendable, Equatable {
    /// The repetition it belongs to (from 1).
    public var repetition: Int
    /// Its place among that repetition's reads (from 1).
    public var read: Int
    /// How long it took (ms).
    public var ms: Double
    /// Whether a writer was still writing when the read started.
    public var writerActive: Bool
    /// The rows the read returned.
    public var rows: Int

    /// One read's figures.
    public init(repetition: Int, read: Int, ms: Double, writerActive: Bool, rows: Int) {
        self.repetition = repetition
        self.read = read
        self.ms = ms
        self.writerActive = writerActive
        self.rows = rows
    }
}
