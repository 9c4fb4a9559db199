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
        let rank = Int((0.9 * Double(s.count)).rounded(.up))
        p90 = s[Swift.max(0, Swift.min(s.count - 1, rank - 1))]
    }
}
