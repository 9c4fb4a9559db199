import Foundation
import Testing
@testable import SchemaLab
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// Which claims a run measures again: the undecided ones on a metric repetitions can narrow,
/// cheapest first within the time left, a case two claims share paid once.
@Suite("Claims: which undecided claims are measured again")
struct ClaimSettlingTests {
    static func evaluation(_ id: String, _ subject: String, _ against: String, verdict: ClaimVerdict, basis: ClaimMetric = .medianTime)
        -> ClaimEvaluation
    {
        let claim = ClaimSpec(
            id: id, source: .init(document: "d", year: 2014, location: "w"), statement: id,
            subject: .init(variant: subject, workload: "w"), against: .init(variant: against, workload: "w"), metric: basis,
            expectation: .init(direction: .lower))
        let measurement = ClaimEvaluation.Measurement(
            size: 10, subject: 1, against: 2, interval: RatioInterval(ratio: 0.5, low: 0.3, high: 1.2), verdict: verdict, basis: basis)
        return ClaimEvaluation(claim: claim, measurements: [measurement], headline: measurement, change: "")
    }

    static func key(_ variant: String) -> CaseKey { CaseKey(variant: variant, workload: "w", size: 10) }

    @Test("Cheapest first within the time; decided and counted claims never; a shared case paid once; a broken case left out")
    func choice() {
        let settling = ClaimSettling(caseSeconds: [
            Self.key("a"): 0.5, Self.key("b"): 0.5, Self.key("c"): 1.0, Self.key("d"): 9.0, Self.key("e"): 0.1,
        ])
        let claims = [
            Self.evaluation("cheap", "a", "b", verdict: .undecided),  // 1.0 s
            Self.evaluation("shares-a", "a", "c", verdict: .undecided),  // 1.5 s, 1.0 s once a is paid
            Self.evaluation("dear", "c", "d", verdict: .undecided),  // 10 s
            Self.evaluation("decided", "a", "e", verdict: .holds),
            Self.evaluation("counted", "b", "e", verdict: .undecided, basis: .statements),
        ]
        #expect(settling.pairs(claims, within: 2.1, excluding: []).map(\.claim) == ["cheap", "shares-a"])
        #expect(settling.pairs(claims, within: 1.2, excluding: []).map(\.claim) == ["cheap"])
        #expect(settling.pairs(claims, within: 100, excluding: []).map(\.claim) == ["cheap", "shares-a", "dear"])
        #expect(settling.pairs(claims, within: 100, excluding: [Self.key("b")]).map(\.claim) == ["shares-a", "dear"])
        #expect(settling.pairs(claims, within: 0.5, excluding: []).isEmpty)
    }
}
