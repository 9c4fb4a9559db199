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
