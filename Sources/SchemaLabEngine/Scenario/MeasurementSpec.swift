/// Warm-up and repetitions for every case: `"measurement": {"warmup": 1, "repetitions": 7,
/// "maxSeconds": 30}` (the scenario's, or a workload's own).
public struct MeasurementSpec: Sendable, Equatable {
    /// `warmup` (default 1): untimed runs before the samples.
    public var warmup: Int
    /// `repetitions` (default 7): measured repetitions at most.
    public var repetitions: Int
    /// `maxSeconds` (default 30): stop taking samples after this many seconds of a case (at
    /// least one sample is kept).
    public var maxSeconds: Double
    /// `timeout`: a repetition whose statements run longer than this is interrupted and fails
    /// the case (nil: ``statementTimeout``'s default).
    public var timeout: Double?

    /// A measurement; the defaults are the format's (a key left out).
    public init(warmup: Int = 1, repetitions: Int = 7, maxSeconds: Double = 30, timeout: Double? = nil) {
        self.warmup = warmup
        self.repetitions = repetitions
        self.maxSeconds = maxSeconds
        self.timeout = timeout
    }

    /// The seconds after which a repetition's statements are interrupted: `timeout`, or 10
    /// times `maxSeconds` and at least 60.
    public var statementTimeout: Double { timeout ?? max(60, 10 * maxSeconds) }
}
