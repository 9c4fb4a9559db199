import Foundation
import Testing
@testable import SchemaLab
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// The verdict rule on intervals, and the bootstrap interval of a claim's ratio (verdicts on
/// fixture runs are `ClaimVerdictEndToEndTests`, in SchemaLabCLITests).
@Suite("Claims: the verdict rule and the ratio's interval")
struct ClaimVerdictTests {
    @Test("The rule on intervals: magnitudes compare as logarithms, with the claim's tolerance")
    func rule() {
        func expect(_ direction: ClaimSpec.Direction, _ ratio: ClosedRange<Double>?, tolerance: Double = 2) -> ClaimSpec.Expectation {
            ClaimSpec.Expectation(direction: direction, ratio: ratio, figure: nil, tolerance: tolerance)
        }
        let measured = RatioInterval(ratio: 0.4, low: 0.36, high: 0.44)
        #expect(ClaimVerdict.judge(expect(.lower, 0.2...0.2), measured) == .holds)  // |ln .44| = 0.82 >= 1.61 / 2
        #expect(ClaimVerdict.judge(expect(.lower, 0.2...0.2, tolerance: 1.5), measured) == .weaker)
        #expect(ClaimVerdict.judge(expect(.lower, 0.75...0.75), measured) == .stronger)  // 0.92 > 0.29 * 2
        #expect(ClaimVerdict.judge(expect(.lower, 0.3...0.5), measured) == .holds)
        #expect(ClaimVerdict.judge(expect(.higher, nil), measured) == .reversed)
        // An interval that includes 1: within noise only inside the equivalence margin (10% for a
        // direction, the weaker bound of a figure), else undecided.
        #expect(ClaimVerdict.judge(expect(.lower, nil), RatioInterval(ratio: 0.97, low: 0.95, high: 1.02)) == .withinNoise)
        #expect(ClaimVerdict.judge(expect(.lower, nil), RatioInterval(ratio: 0.9, low: 0.8, high: 1.0)) == .undecided)
        #expect(ClaimVerdict.judge(expect(.lower, 0.1...0.1), RatioInterval(ratio: 0.9, low: 0.5, high: 1.5)) == .withinNoise)
        // An interval whose ends read differently: undecided (here across the stronger bound,
        // 0.29 * 2 = 0.58, r = 0.56; and across the weaker one, 1.61 / 2 = 0.80, r = 0.45).
        #expect(ClaimVerdict.judge(expect(.lower, 0.75...0.75), RatioInterval(ratio: 0.55, low: 0.5, high: 0.6)) == .undecided)
        #expect(ClaimVerdict.judge(expect(.lower, 0.2...0.2), RatioInterval(ratio: 0.45, low: 0.4, high: 0.5)) == .undecided)
        #expect(ClaimVerdict.judge(expect(.lower, 0.2...0.2), RatioInterval(ratio: 0.45, low: 0.4, high: 0.5)).rank == 1)
        #expect(ClaimVerdict.judge(expect(.higher, 3.0...4.0), RatioInterval(exact: 7, 2)) == .holds)
        #expect(ClaimVerdict.judge(expect(.lower, nil), RatioInterval(exact: 0, 0)) == .withinNoise, "0 / 0 is no effect")
        // A figure counted once is judged on its ratio; its band decides within noise only.
        let counted = RatioInterval(ratio: 0.45, low: 0.45 / 1.01, high: 0.45 * 1.01)
        #expect(ClaimVerdict.judge(expect(.lower, 0.2...0.2), counted) == .undecided, "as a sampled interval it would be")
        #expect(ClaimVerdict.judgeFigure(expect(.lower, 0.2...0.2), counted) == .weaker)
        #expect(ClaimVerdict.judgeFigure(expect(.lower, nil), RatioInterval(ratio: 1.005, low: 0.995, high: 1.015)) == .withinNoise)
        #expect(ClaimVerdict.summary([.holds, .reversed, .holds]) == "1 reversed, 2 holds")
    }

    @Test("The bootstrap interval is the same for the same samples, and contains the ratio")
    func bootstrap() throws {
        let a = [3.0, 3.1, 2.9, 3.05, 2.95], b = [1.0, 1.1, 0.9, 1.05, 0.95]
        let first = try #require(RatioInterval(subject: a, against: b)), second = try #require(RatioInterval(subject: a, against: b))
        #expect(first == second)
        #expect(first.ratio == 3 && first.low <= 3 && first.high >= 3 && first.low > 2.5 && first.high < 3.5)
        #expect(RatioInterval(subject: [], against: b) == nil)
    }
}
