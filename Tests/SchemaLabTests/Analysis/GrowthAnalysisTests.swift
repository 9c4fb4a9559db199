import Foundation
import Testing
@testable import SchemaLabEngine
@testable import SchemaLab
import SchemaLabTestSupport

/// The growth fit and the crossover on synthetic curves with a known exponent and a known
/// crossing; the size sweep of a scenario's `counts`.
@Suite("Growth: log-log slope, best model, crossovers, size sweeps")
struct GrowthAnalysisTests {
    static let sizes: [Double] = [1000, 3162, 10000, 31623, 100000]

    @Test(
        "A known exponent: the slope and the best model",
        arguments: [
            (GrowthFit.Model.linear, 1.0), (.quadratic, 2.0), (.constant, 0.0),
        ])
    func knownExponent(model: GrowthFit.Model, slope: Double) throws {
        let fit = try #require(GrowthFit(Self.sizes.map { ($0, 3e-4 * model.f($0)) }))
        #expect(abs(fit.slope - slope) < 1e-9)
        #expect(fit.model == model && fit.residual < 1e-9)
        #expect(abs(fit.constant - 3e-4) < 1e-12)
        #expect(fit.slopeError! < 1e-9)
    }

    @Test("n log n is told apart from n, and noise leaves the slope near its exponent")
    func linearithmicAndNoise() throws {
        let nlogn = try #require(GrowthFit(Self.sizes.map { ($0, 1e-5 * $0 * log2($0)) }))
        #expect(nlogn.model == .linearithmic)
        #expect(nlogn.slope > 1.05 && nlogn.slope < 1.12)
        // +-10% multiplicative noise, deterministic.
        let noise = [1.1, 0.9, 1.05, 0.95, 1.0]
        let noisy = try #require(GrowthFit(zip(Self.sizes, noise).map { ($0, 0.002 * $0 * $1) }))
        #expect(noisy.model == .linear && abs(noisy.slope - 1) < 0.05 && noisy.residual > 0.01)
        #expect(try #require(GrowthFit(Self.sizes.map { ($0, 0.01 * log2($0)) })).model == .logarithmic)
        #expect(GrowthFit([(1000, 1)]) == nil, "one size is no fit")
        #expect(GrowthFit([(1000, 1), (2000, 0)]) == nil, "a zero time is no fit")
    }

    @Test("A known crossover: n against 100 sqrt(n) cross at n = 10,000")
    func knownCrossover() throws {
        func points(_ f: (Double) -> Double, spread: Double) -> [Crossover.Point] {
            [1000, 100000].map { n in Crossover.Point(size: Int(n), median: f(n), low: f(n) * (1 - spread), high: f(n) * (1 + spread)) }
        }
        let linear = points({ $0 }, spread: 0.01), root = points({ 100 * $0.squareRoot() }, spread: 0.01)
        let found = Crossover.find("linear", linear, "root", root)
        let c = try #require(found.first)
        #expect(found.count == 1)
        #expect(abs(c.size - 10000) / 10000 < 1e-9)
        #expect(c.fasterBelow == "linear" && c.fasterAbove == "root")
        #expect(c.low < 10000 && c.high > 10000 && c.low >= 1000 && c.high <= 100000)
        #expect(c.significant)
        // Intervals that overlap at a bracketing size: the crossing is reported as noise.
        let wide = Crossover.find("linear", points({ $0 }, spread: 0.9), "root", root)
        #expect(wide.count == 1 && !wide[0].significant)
        // A tie at a measured size is one crossing, at that size.
        let tie = Crossover.find(
            "a",
            [
                Crossover.Point(size: 10, median: 2, low: 2, high: 2), Crossover.Point(size: 100, median: 5, low: 5, high: 5),
                Crossover.Point(size: 1000, median: 9, low: 9, high: 9),
            ],
            "b",
            [
                Crossover.Point(size: 10, median: 3, low: 3, high: 3), Crossover.Point(size: 100, median: 5, low: 5, high: 5),
                Crossover.Point(size: 1000, median: 6, low: 6, high: 6),
            ])
        #expect(tie.count == 1 && abs(tie[0].size - 100) < 1e-9 && tie[0].fasterBelow == "a" && tie[0].fasterAbove == "b", "\(tie)")
        // Curves that never cross.
        #expect(Crossover.find("linear", linear, "double", points({ 2 * $0 }, spread: 0.01)).isEmpty)
    }

    @Test("A size sweep in counts: log and linear spacing; bad sweeps are errors at their path")
    func sizeSweep() throws {
        #expect(SizeSweep(from: 1000, to: 1_000_000, steps: 7, scale: .log).sizes == [1000, 3162, 10000, 31623, 100000, 316228, 1000000])
        #expect(SizeSweep(from: 100, to: 500, steps: 5, scale: .linear).sizes == [100, 200, 300, 400, 500])
        #expect(SizeSweep(from: 1, to: 3, steps: 10, scale: .log).sizes == [1, 2, 3], "repeats after rounding are dropped")
        let text = try String(contentsOfFile: TestSupport.tinyScenario, encoding: .utf8)
        func decode(_ counts: String) throws -> Scenario {
            let s = text.replacingOccurrences(of: #""counts": [120]"#, with: #""counts": "# + counts)
            precondition(s != text)
            return try ScenarioDecoder.decode(text: s, file: "t.json")
        }
        #expect(try decode(#"{"from": 100, "to": 10000, "steps": 3}"#).dataset.counts == [100, 1000, 10000])
        for (counts, message) in [
            (#"{"from": 100, "to": 100, "steps": 3}"#, "$.dataset.counts.to: a sweep goes up"),
            (#"{"from": 100, "to": 1000, "steps": 1}"#, "$.dataset.counts.steps: 1 is out of range"),
            (#"{"from": 100, "to": 1000, "steps": 3, "scale": "cubic"}"#, "$.dataset.counts.scale: unknown value 'cubic'"),
            (#"{"from": 100, "steps": 3}"#, "$.dataset.counts: missing required key 'to'"),
            (#"[10, 20, 10]"#, "$.dataset.counts[2]: the size 10 is listed twice"),
        ] {
            #expect { try decode(counts) } throws: { "\($0)".contains(message) }
        }
    }
}
