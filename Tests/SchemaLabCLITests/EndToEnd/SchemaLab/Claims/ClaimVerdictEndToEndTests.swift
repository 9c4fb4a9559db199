import Foundation
import Testing
@testable import SchemaLab
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// The verdict rules on fixture runs: one run of the tiny scenario through the built CLI whose
/// two `sections` cases get chosen samples, judged against expectations that give each verdict.
@Suite("Claim verdicts, end to end: a fixture run through the CLI")
struct ClaimVerdictEndToEndTests {
    /// A run of tiny-claims at n=60 whose flat+index and flat `sections` samples are replaced.
    static func fixtureRun(subject: [Double], against: [Double]) throws -> (directory: String, scenario: Scenario) {
        let dir = try TestSupport.temporaryDirectory()
        let out = dir + "/run"
        let run = try TestSupport.runCLI(
            [
                "run", TestSupport.packageRoot + "/Tests/Fixtures/tiny-claims.json", "--out", out, "--size", "60", "--reps",
                "3", "--quiet",
            ],
            environment: ["TMPDIR": dir])
        #expect(run.status == 0, "\(run.err)")
        let path = out + "/samples.csv"
        var rows = CSVWriter.parse(try String(contentsOfFile: path, encoding: .utf8))
        let h = rows[0]
        let schema = h.firstIndex(of: "schema")!, workload = h.firstIndex(of: "workload")!, wall = h.firstIndex(of: "wall_ms")!
        var kept: [[String]] = [h]
        for row in rows.dropFirst() where !(row[workload] == "sections" && (row[schema] == "flat" || row[schema] == "flat+index")) {
            kept.append(row)
        }
        for (variant, samples) in [("flat+index", subject), ("flat", against)] {
            let template = rows.dropFirst().first { $0[schema] == variant && $0[workload] == "sections" }!
            for (i, ms) in samples.enumerated() {
                var row = template
                row[h.firstIndex(of: "repetition")!] = String(i + 1)
                row[wall] = String(ms)
                kept.append(row)
            }
        }
        rows = kept
        var csv = CSVWriter(header: h)
        for row in rows.dropFirst() { csv.append(row) }
        try Data(csv.text.utf8).write(to: URL(fileURLWithPath: path))
        let scenario = try ScenarioDecoder.load(path: TestSupport.packageRoot + "/Tests/Fixtures/tiny-claims.json")
        return (out, scenario)
    }

    static func claim(_ base: ClaimSpec, direction: ClaimSpec.Direction, ratio: Double?) -> ClaimSpec {
        var c = base
        c.expectation.direction = direction
        c.expectation.ratio = ratio.map { $0...$0 }
        return c
    }

    @Test("Half the time: holds against 2x, weaker against 10x, stronger against 1.1x, reversed against 'higher'")
    func verdictsOnAFixtureRun() throws {
        let (dir, scenario) = try Self.fixtureRun(subject: [1.0, 1.02, 0.98, 1.01, 0.99], against: [2.0, 2.04, 1.96, 2.02, 1.98])
        let run = try RunSnapshot(path: dir)
        let base = scenario.claims.first { $0.id == "index-sections" }!
        let cases: [(ClaimSpec.Direction, Double?, ClaimVerdict)] = [
            (.lower, 0.5, .holds), (.lower, 0.1, .weaker), (.lower, 0.9, .stronger), (.higher, nil, .reversed), (.higher, 1.5, .reversed),
            (.lower, nil, .holds),
        ]
        for (direction, ratio, expected) in cases {
            let e = ClaimEvaluation.evaluate(Self.claim(base, direction: direction, ratio: ratio), run: run)
            #expect(e.verdict == expected, "\(direction) \(String(describing: ratio)): \(e.verdict)")
            let m = try #require(e.headline)
            #expect(abs(m.interval.ratio - 0.5) < 1e-9 && m.interval.low < 0.5 && m.interval.high > 0.5 && m.interval.high < 1)
            #expect(m.basis == .medianTime && m.size == 60)
        }
    }

    @Test(
        "Samples that overlap give an interval that spans no effect: within noise when no end reaches an effect the claim counts, else undecided"
    )
    func withinNoise() throws {
        let (dir, scenario) = try Self.fixtureRun(subject: [1.0, 1.6, 1.2, 1.9, 1.1], against: [1.5, 1.05, 1.8, 1.15, 1.3])
        let run = try RunSnapshot(path: dir)
        let base = scenario.claims.first { $0.id == "index-sections" }!
        let cases: [(ClaimSpec.Direction, Double, ClaimVerdict)] = [
            (.lower, 0.5, .undecided), (.higher, 2.0, .undecided), (.lower, 0.1, .withinNoise), (.higher, 10, .withinNoise),
        ]
        for (direction, ratio, verdict) in cases {
            let e = ClaimEvaluation.evaluate(Self.claim(base, direction: direction, ratio: ratio), run: run)
            let m = try #require(e.headline)
            #expect(m.interval.includesNoEffect, "\(m.interval)")
            #expect(e.verdict == verdict, "\(direction) \(ratio): \(m.interval)")
            #expect(m.repetitions == 5)
        }
        // The written file carries the same verdicts, and reads back.
        try ClaimsFile.write(scenario: scenario, directory: dir)
        let rows = try ClaimsFile.read(directory: dir)
        #expect(rows.count == 4 && rows.allSatisfy(\.headline))
        #expect(rows.first { $0.id == "index-sections" }?.verdict == .undecided, "a 2x claim; the interval reaches beyond 1.41x")
        #expect(rows.first { $0.id == "index-sections" }?.repetitions == 5)
        #expect(rows.first { $0.id == "index-fewer-statements" }?.verdict == .withinNoise, "equal counts: no effect")
        #expect(rows.first { $0.id == "index-fewer-statements" }?.repetitions == nil, "a count has no repetitions behind it")
        #expect(rows.first { $0.id == "index-no-sort" }?.verdict == .holds)
    }

    @Test("A case the run lacks: not measured")
    func notMeasured() throws {
        let (dir, scenario) = try Self.fixtureRun(subject: [1], against: [2])
        var claim = scenario.claims[0]
        claim.subject = ClaimSpec.Side(variant: "split", workload: "no-such-workload")
        let e = ClaimEvaluation.evaluate(claim, run: try RunSnapshot(path: dir))
        #expect(e.verdict == .notMeasured && e.measurements.isEmpty)
    }
}
