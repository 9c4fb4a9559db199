/// The distribution of many latencies (a reader's reads): nearest-rank percentiles.
public struct LatencySummary: Sendable, Equatable {
    /// How many latencies.
    public let count: Int
    /// The 50th percentile (nearest-rank, so one of the values).
    public let p50: Double
    /// The 90th percentile (nearest-rank).
    public let p90: Double
    /// The 99th percentile (nearest-rank).
    public let p99: Double
    /// The longest latency.
    public let max: Double

    /// nil for no values.
    public init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let s = values.sorted()
        count = s.count
        p50 = Statistics.nearestRank(0.5, sorted: s)
        p90 = Statistics.nearestRank(0.9, sorted: s)
        p99 = Statistics.nearestRank(0.99, sorted: s)
        max = s[s.count - 1]
    }
}
