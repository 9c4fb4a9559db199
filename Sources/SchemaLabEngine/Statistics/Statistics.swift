/// Order statistics of a sample set, its spread and a confidence interval of its median.
public struct Statistics: Sendable, Equatable {
    /// How many samples.
    public let count: Int
    /// The smallest sample.
    public let min: Double
    /// The median (the mean of the two middle samples for an even count).
    public let median: Double
    /// The largest sample.
    public let max: Double
    /// The 90th percentile, nearest-rank.
    public let p90: Double
    /// Median absolute deviation from the median (unscaled).
    public let mad: Double
    /// The low end of a 95% bootstrap confidence interval of the median (`Bootstrap`: the
    /// percentile interval of 2,000 resamples from a fixed seed, so the same samples give the
    /// same interval); the median itself for one sample.
    public let ciLow: Double
    /// The high end of the median's 95% bootstrap interval (see ``ciLow``).
    public let ciHigh: Double
    /// Samples beyond 3 MADs (scaled by 1.4826, a normal distribution's sigma) from the
    /// median or outside Tukey's fences (1.5 IQR beyond the quartiles): counted, never dropped.
    public let outliers: Int

    /// Statistics of `values` (which must not be empty). The median of an even count
    /// is the mean of the two middle values; p90 uses the nearest-rank method.
    public init(_ values: [Double]) {
        precondition(!values.isEmpty, "Statistics needs at least one sample")
        let s = values.sorted()
        count = s.count
        min = s[0]
        max = s[s.count - 1]
        median = Self.median(sorted: s)
        p90 = Self.nearestRank(0.9, sorted: s)
        let mad = Self.median(sorted: s.map { abs($0 - Self.median(sorted: s)) }.sorted())
        self.mad = mad
        (ciLow, ciHigh) = Self.bootstrapMedianInterval(s)
        let q1 = Self.quantile(0.25, sorted: s), q3 = Self.quantile(0.75, sorted: s)
        let fence = 1.5 * (q3 - q1)
        let m = median
        outliers = s.filter { x in (mad > 0 && abs(x - m) > 3 * 1.4826 * mad) || x < q1 - fence || x > q3 + fence }.count
    }

    /// The median of ascending values (not empty).
    public static func median(sorted values: [Double]) -> Double {
        values.count % 2 == 1 ? values[values.count / 2] : (values[values.count / 2 - 1] + values[values.count / 2]) / 2
    }

    /// A linearly interpolated quantile (`fraction` in 0...1) of ascending values (not empty).
    public static func quantile(_ fraction: Double, sorted values: [Double]) -> Double {
        let h = fraction * Double(values.count - 1)
        let lo = Int(h.rounded(.down)), hi = Swift.min(lo + 1, values.count - 1)
        return values[lo] + (h - Double(lo)) * (values[hi] - values[lo])
    }

    /// The bootstrap of a case's median: its own seed, fixed.
    static let medianBootstrap = Bootstrap(seed: 0xB007_5743_0000_0001)

    /// The `Bootstrap` percentile interval of the median of ascending values (not empty).
    static func bootstrapMedianInterval(_ s: [Double]) -> (Double, Double) {
        guard s.count > 1 else { return (s[0], s[0]) }
        return medianBootstrap.interval(of: [s]) { median(sorted: $0[0]) }
    }

    /// The nearest-rank percentile `p` (0...1) of ascending `sorted` values (not empty).
    public static func nearestRank(_ percentile: Double, sorted values: [Double]) -> Double {
        let rank = Int((percentile * Double(values.count)).rounded(.up))
        return values[Swift.max(0, Swift.min(values.count - 1, rank - 1))]
    }
}
