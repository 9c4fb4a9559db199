/// The ratio of one statistic of two sample sets (`subject / against`) with a 95% bootstrap
/// interval (`Bootstrap`): 2,000 times, each set is resampled with replacement and the ratio
/// of the two resamples' statistics taken; the interval is the nearest-rank 2.5th and 97.5th
/// percentiles of those ratios. The generator's seed is fixed, so the same samples give the
/// same interval.
public struct RatioInterval: Sendable, Equatable {
    /// `subject / against` of the statistic.
    public let ratio: Double
    /// The interval's low end (equal to the ratio for an exact one).
    public let low: Double
    /// The interval's high end (equal to the ratio for an exact one).
    public let high: Double

    /// The statistic a claim compares.
    public enum Statistic: Sendable {
        /// The median (the mean of the two middle values for an even count).
        case median
        /// A nearest-rank percentile (0...1).
        case percentile(Double)

        /// The statistic of ascending values (not empty).
        package func of(sorted values: [Double]) -> Double {
            switch self {
            case .median: return Statistics.median(sorted: values)
            case .percentile(let p): return Statistics.nearestRank(p, sorted: values)
            }
        }
    }

    /// A ratio and its interval as given.
    public init(ratio: Double, low: Double, high: Double) {
        self.ratio = ratio
        self.low = low
        self.high = high
    }

    /// An exact ratio: deterministic counts have no interval.
    public init(exact subject: Double, _ against: Double) {
        let r = Self.divide(subject, against)
        self.init(ratio: r, low: r, high: r)
    }

    /// The bootstrap interval of `statistic(subject) / statistic(against)`; nil when a set
    /// is empty.
    public init?(subject: [Double], against: [Double], statistic: Statistic = .median) {
        let a = subject.filter(\.isFinite).sorted(), b = against.filter(\.isFinite).sorted()
        guard !a.isEmpty, !b.isEmpty else { return nil }
        ratio = Self.divide(statistic.of(sorted: a), statistic.of(sorted: b))
        (low, high) = Self.bootstrap.interval(of: [a, b]) { drawn in
            Self.divide(statistic.of(sorted: drawn[0]), statistic.of(sorted: drawn[1]))
        }
    }

    /// The bootstrap of a ratio: its own seed, fixed.
    static let bootstrap = Bootstrap(seed: 0xC1A1_4B00_7575_0001)

    /// `x / y`, with 0 / 0 = 1 (no effect) and x / 0 = infinity.
    static func divide(_ x: Double, _ y: Double) -> Double {
        if y == 0 { return x == 0 ? 1 : .infinity }
        return x / y
    }

    /// The interval includes a ratio of 1: no effect cannot be ruled out.
    public var includesNoEffect: Bool { low <= 1 && high >= 1 }
}
