import Foundation
import Testing
@testable import SchemaLabEngine
@testable import SchemaLab
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// The regression gate's pieces: what a slower time alone is, usesIndex, the U test, bad
/// assertions (the gate end to end is `RegressionGateEndToEndTests`, in SchemaLabCLITests;
/// the statistics and the callgrind parser are in Measure's tests).
@Suite("Regression gate: time-only findings, usesIndex, the U test, assertion errors")
struct RegressionGateTests {
    @Test("A slower time alone is gated only in a counted case: equal instructions, or a case the runs did not count, are reported")
    func timeOnlyFindings() {
        func c(_ ms: [Double], instructions: String) -> RecordedCase {
            var summary = CaseSummary()
            summary.variant = "v"
            summary.workload = "w"
            summary.size = 1
            summary.instructions = Int64(instructions)
            let samples = ms.enumerated().map {
                Sample(repetition: $0.offset + 1, wallMs: $0.element, cpuMs: $0.element, rows: 1, statements: 1, heapRetainedKB: 0)
            }
            return RecordedCase(summary: summary, samples: samples, plans: [])
        }
        let base = [10.0, 10.1, 10.2, 10.3, 10.4], slow = [13.0, 13.1, 13.2, 13.3, 13.4]
        #expect(RunComparison.compare(c(base, instructions: "1000"), c(slow, instructions: "1300"), .init()).verdict == .regressed)
        #expect(RunComparison.compare(c(base, instructions: "1000"), c(slow, instructions: "1000"), .init()).verdict == .changed)
        let uncounted = RunComparison.compare(c(base, instructions: ""), c(slow, instructions: ""), .init(), countedRuns: true)
        #expect(uncounted.verdict == .changed && uncounted.findings.contains { $0.message.contains("did not count") })
        #expect(
            RunComparison.compare(c(base, instructions: ""), c(slow, instructions: ""), .init(), countedRuns: false).verdict == .regressed,
            "without instruction counts anywhere, time is what the gate has")
    }

    @Test("usesIndex matches the index's whole name")
    func usesIndexWholeName() {
        let line = "SCAN t0 USING INDEX Z_Photo_byLikesDate"
        #expect(AssertionCheck.line(line, usesIndex: "Z_Photo_byLikesDate"))
        #expect(!AssertionCheck.line(line, usesIndex: "Z_Photo_byLikes"))
        #expect(AssertionCheck.line("SEARCH t0 USING COVERING INDEX Z_ix (ZA=?)", usesIndex: "Z_ix"))
        #expect(AssertionCheck.line("SEARCH t0 USING INDEX Z_ix2 (ZA=?) USING INDEX Z_ix", usesIndex: "Z_ix"))
        #expect(!AssertionCheck.line("SEARCH t0 USING INDEX Z_ix2 (ZA=?)", usesIndex: "Z_ix"))
        #expect(!AssertionCheck.line("SCAN t0", usesIndex: "Z_ix"))
    }

    @Test("Mann-Whitney U: exact p for small samples, the normal approximation with ties")
    func mannWhitney() {
        #expect(abs(MannWhitney.pValue([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]) - 2.0 / 252) < 1e-12)
        #expect(MannWhitney.pValue([1, 2, 3], [4, 5, 6]) == 0.1)
        #expect(MannWhitney.pValue([1, 3, 5, 7], [2, 4, 6, 8]) > 0.5)
        let a = (0..<30).map { Double($0 % 7) }, b = (0..<30).map { Double($0 % 7) + 3 }
        #expect(MannWhitney.pValue(a, b) < 0.001)
        #expect(MannWhitney.pValue(a, a) > 0.9)
        // The smallest p the sizes allow is the p of samples that do not overlap.
        #expect(MannWhitney.smallestPValue(3, 3) == MannWhitney.pValue([1, 2, 3], [4, 5, 6]))
        #expect(abs(MannWhitney.smallestPValue(5, 5) - 2.0 / 252) < 1e-12)
        #expect(MannWhitney.smallestPValue(1, 1) == 1 && MannWhitney.smallestPValue(0, 4) == 1)
        #expect(MannWhitney.repetitionsForSignificance(at: 0.05) == 4)
    }

    @Test("Assertions: bad ones are errors at their JSON path")
    func assertionErrors() throws {
        let base = try String(contentsOfFile: TestSupport.tinyScenario, encoding: .utf8)
        let cases: [(String, String)] = [
            (#"{"workload": "nope", "variant": "flat", "noTempBTree": true}"#, "$.assertions[0].workload: no workload named 'nope'"),
            (#"{"workload": "sections", "variant": "flat"}"#, "$.assertions[0]: an assertion states one of usesIndex"),
            (
                #"{"workload": "sections", "variant": "flat", "noTempBTree": true, "noFullScan": true}"#,
                "$.assertions[0]: an assertion states one thing"
            ),
            (#"{"workload": "sections", "noTempBTree": true}"#, "$.assertions[0]: this assertion is about one case: give 'variant'"),
            (#"{"workload": "sections", "variant": "nope", "noTempBTree": true}"#, "$.assertions[0]: no variant named 'nope'"),
            (
                #"{"workload": "sections", "variant": "flat", "fasterThan": "flat"}"#,
                "$.assertions[0].fasterThan: a variant cannot be faster than itself"
            ),
            (
                #"{"workload": "sections", "variant": "flat", "noTempBTree": false}"#,
                "$.assertions[0].noTempBTree: write \"noTempBTree\": true"
            ),
            (
                #"{"workload": "sections", "variant": "flat", "sameResults": ["flat", "split"]}"#,
                "$.assertions[0].variant: sameResults names its variants"
            ),
        ]
        for (assertion, message) in cases {
            let text = base.replacingOccurrences(of: #"  "measurement":"#, with: "  \"assertions\": [\(assertion)],\n  \"measurement\":")
            #expect { _ = try TestSupport.decode(text) } throws: { error in
                let e = error as! ScenarioError
                return "\(e.path): \(e.message)".hasPrefix(message)
                    ? true
                    : {
                        print("got: \(e.path): \(e.message)"); return false
                    }()
            }
        }
    }
}
