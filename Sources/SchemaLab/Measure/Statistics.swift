/// Order statistics of a sample set.
public struct Statistics: Sendable, Equatable {
    public let count: Int
    public let min: Double
    public let median: Double
    public let max: Double
    public let p90: Double

    /// Statistics of `values` (which must not be empty). The median of an even count
    /// is the mean of the two middle values; p90 uses the nearest-rank method.
    public init(_ values: [Double]) {
        precondition(!values.isEmpty, "Statistics needs at least one sample")
        let s = values.sorted()
        count = s.count
        min = s[0]
        max = s[s.count - 1]
        median = s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        p90 = Self.nearestRank(0.9, sorted: s)
    }

    /// The nearest-rank percentile `p` (0...1) of ascending `sorted` values (not empty).
    public static func nearestRank(_ p: Double, sorted s: [Double]) -> Double {
        let rank = Int((p * Double(s.count)).rounded(.up))
        return s[Swift.max(0, Swift.min(s.count - 1, rank - 1))]
    }
}

/// The distribution of many latencies (a reader's reads): nearest-rank percentiles.
public struct LatencySummary: Sendable, Equatable {
    public let count: Int
    public let p50: Double
    public let p90: Double
    public let p99: Double
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
