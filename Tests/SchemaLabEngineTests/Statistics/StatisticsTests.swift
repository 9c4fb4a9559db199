import Testing
@testable import SchemaLabEngine

/// The statistics of a case's samples: order statistics, spread, outliers and the interval
/// of the median.
@Suite("Statistics: a case's samples")
struct StatisticsTests {
    @Test("Statistics: MAD, a bootstrap interval around the median, outliers counted")
    func statistics() {
        let s = Statistics([10, 11, 12, 13, 14, 100])
        #expect(s.median == 12.5 && s.mad == 1.5)
        #expect(s.outliers == 1)
        #expect(s.ciLow <= s.median && s.median <= s.ciHigh && s.ciLow >= 10 && s.ciHigh <= 100)
        #expect(Statistics([10, 11, 12, 13, 14, 100]) == s, "the same samples give the same interval")
        #expect(Statistics([5]).ciLow == 5 && Statistics([5]).outliers == 0)
    }
}

/// The one bootstrap (``Bootstrap``): deterministic from its seed, read by nearest rank, and
/// the intervals of a case's median and of a claim's ratio that come from it.
@Suite("Statistics: the bootstrap")
struct BootstrapTests {
    /// Thirty samples (two decimals, 1 to 2) whose 1,950th and 1,951st bootstrap medians
    /// differ (1.615 and 1.62): interpolating between them would give 1.615125.
    static let thirty: [Double] = [
        1.64, 1.37, 1.55, 1.06, 1.06, 1.21, 1.68, 1.43, 1.31, 1.59, 1.45, 1.3, 1.79, 1.7, 1.24,
        1.57, 1.53, 1.88, 1.73, 1.29, 1.98, 1.12, 1.42, 1.76, 1.15, 1.49, 1.04, 1.67, 1.76, 1.57,
    ]

    @Test("The same seed gives the same replicates; another seed, others; each replicate is a value the statistic can take")
    func deterministic() {
        let sets = [Self.thirty]
        func median(_ drawn: [[Double]]) -> Double { Statistics.median(sorted: drawn[0]) }
        let first = Bootstrap(seed: 42).replicates(of: sets, statistic: median)
        #expect(first == Bootstrap(seed: 42).replicates(of: sets, statistic: median))
        #expect(first != Bootstrap(seed: 43).replicates(of: sets, statistic: median))
        #expect(first.count == 2000 && first == first.sorted())
        #expect(first.allSatisfy { (Self.thirty.min()!...Self.thirty.max()!).contains($0) })
        #expect(Bootstrap(seed: 42, resamples: 10).replicates(of: sets, statistic: median).count == 10)
    }

    @Test("The interval's ends are the 50th and the 1,950th of 2,000 ordered replicates (nearest rank, not interpolated)")
    func nearestRank() {
        let bootstrap = Bootstrap(seed: 0xB007_5743_0000_0001)
        func median(_ drawn: [[Double]]) -> Double { Statistics.median(sorted: drawn[0]) }
        let replicates = bootstrap.replicates(of: [Self.thirty.sorted()], statistic: median)
        let interval = bootstrap.interval(of: [Self.thirty.sorted()], statistic: median)
        #expect(interval.low == replicates[49] && interval.high == replicates[1949])
        #expect(replicates[1949] == 1.615 && replicates[1950] == 1.62, "the sample shows the rule")
    }

    @Test("A known sample gives a known interval of its median")
    func knownMedianInterval() {
        let s = Statistics(Self.thirty)
        #expect(s.median == 1.51)
        #expect(s.ciLow == 1.34 && s.ciHigh == 1.615)
        let six = Statistics([10, 11, 12, 13, 14, 100])
        #expect(six.ciLow == 10.5 && six.ciHigh == 57)
    }

    @Test("A known pair of samples gives a known interval of their ratio; an infinite replicate ends it at infinity")
    func knownRatioInterval() throws {
        let r = try #require(RatioInterval(subject: [10, 12, 11, 13, 9], against: [20, 22, 21, 19, 25]))
        #expect(r.ratio == 11.0 / 21 && r.low == 9.0 / 22 && r.high == 12.0 / 19)
        let p90 = try #require(RatioInterval(subject: [10, 12, 11, 13, 9], against: [20, 22, 21, 19, 25], statistic: .percentile(0.9)))
        #expect(p90.ratio == 13.0 / 25 && p90.low == 11.0 / 25 && p90.high == 13.0 / 21)
        let overZero = try #require(RatioInterval(subject: [1, 2, 3], against: [0, 0, 5]))
        #expect(overZero.ratio == .infinity && overZero.low == 1.0 / 5 && overZero.high == .infinity)
    }
}
