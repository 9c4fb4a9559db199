import Foundation
import Testing
@testable import SchemaLab
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// `fasterThan` judgements that do not fail on noise: the sequential rule on a fixture run
/// with chosen samples, and through the real CLI the instruction basis and a clear verdict.
@Suite("Assertions: the sequential rule of fasterThan, and instructions")
struct SequentialAssertionTests {
    /// tiny.json with one fasterThan assertion, in `dir`.
    static func scenario(in dir: String, faster: String, than slower: String) throws -> String {
        var object =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: TestSupport.tinyScenario))) as! [String: Any]
        object["name"] = "tiny-assert"
        object["assertions"] = [["workload": "sections", "variant": faster, "fasterThan": slower]]
        let path = dir + "/tiny-assert.json"
        try Data(TestSupport.json(object).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A fixture run whose `sections` samples are chosen, with the assertion "flat+index is faster than flat".
    static func fixture(subject: [Double], against: [Double]) throws -> (Scenario, RunSnapshot) {
        let (dir, base) = try ClaimVerdictEndToEndTests.fixtureRun(subject: subject, against: against)
        var scenario = base
        scenario.assertions = [
            AssertionSpec(workload: "sections", variant: "flat+index", kind: .faster(than: "flat"), path: "$.assertions[0]")
        ]
        return (scenario, try RunSnapshot(path: dir))
    }

    static let faster = CaseKey(variant: "flat+index", workload: "sections", size: 60)
    static let slower = CaseKey(variant: "flat", workload: "sections", size: 60)

    @Test("Four overlapping samples are in doubt; five more of each that separate decide it in one round")
    func oneRoundDecides() throws {
        let (scenario, run) = try Self.fixture(subject: [1.0, 1.5, 1.1, 1.4], against: [1.2, 1.3, 1.05, 1.45])
        let first = AssertionCheck(scenario: scenario, run: run)
        #expect(first.failures.count == 1 && first.inDoubt.count == 1)
        var notes: [String] = [], asked: [Set<CaseKey>] = []
        let check = AssertionCheck.sequential(scenario: scenario, run: run) { keys, _, reason in
            notes.append(reason)
            asked.append(keys)
            return [Self.faster: [0.5, 0.5, 0.5, 0.5, 0.5], Self.slower: [2.0, 2.0, 2.0, 2.0, 2.0]]
        }
        #expect(check.failures.isEmpty, "\(check.failures)")
        #expect(asked == [[Self.faster, Self.slower]])
        #expect(notes == ["fasterThan in doubt (flat+index against flat sections n=60): 5 more repetitions of each case, round 1 of 3"])
    }

    @Test("Still undecided after three rounds: it fails, saying how many more repetitions it took")
    func limitReached() throws {
        let (scenario, run) = try Self.fixture(subject: [1.0, 1.5, 1.1, 1.4], against: [1.2, 1.3, 1.05, 1.45])
        var rounds = 0
        let check = AssertionCheck.sequential(scenario: scenario, run: run) { _, round, _ in
            rounds = round
            return [Self.faster: [1.0, 1.5, 1.1, 1.4, 1.2], Self.slower: [1.2, 1.3, 1.05, 1.45, 1.25]]
        }
        #expect(rounds == 3)
        #expect(check.failures.count == 1 && check.failures[0].contains("after 15 and 15 more repetitions (sequential rule, alpha 0.013)"))
    }

    @Test("A case that cannot be measured again is not asked for again; slower beyond doubt fails at once")
    func brokenAndReversed() throws {
        let (scenario, run) = try Self.fixture(subject: [1.0, 1.5, 1.1, 1.4], against: [1.2, 1.3, 1.05, 1.45])
        var calls = 0
        let broken = AssertionCheck.sequential(scenario: scenario, run: run) { _, _, _ in
            calls += 1
            return [:]
        }
        #expect(calls == 1 && broken.failures.count == 1)
        let (reversedScenario, reversedRun) = try Self.fixture(subject: [3.0, 3.1, 2.9, 3.05, 2.95], against: [1.0, 1.1, 0.9, 1.05, 0.95])
        let reversed = AssertionCheck.sequential(scenario: reversedScenario, run: reversedRun) { _, _, _ in
            Issue.record("a case slower beyond doubt is not measured again")
            return [:]
        }
        #expect(reversed.failures.count == 1 && reversed.inDoubt.isEmpty)
        // Three repetitions: the check is skipped with a note, not measured again.
        let (fewScenario, fewRun) = try Self.fixture(subject: [1.0, 1.1, 0.9], against: [2.0, 2.1, 1.9])
        let few = AssertionCheck.sequential(scenario: fewScenario, run: fewRun) { _, _, _ in
            Issue.record("a run with 3 repetitions is not measured again")
            return [:]
        }
        #expect(few.failures.isEmpty && few.skipped == 1 && few.notes.first?.contains("needs 4 or more repetitions") == true)
    }

    @Test("Through the CLI: a clear 10x effect holds at the first look")
    func clearEffect() throws {
        let dir = try TestSupport.temporaryDirectory()
        let file = try Self.scenario(in: dir, faster: "flat+index", than: "flat")
        let run = try TestSupport.runCLI(
            ["run", file, "--out", dir + "/run", "--size", "60", "--reps", "4", "--inject-slowdown", "flat/sections=10", "--quiet"],
            environment: ["TMPDIR": dir])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("1 assertion checks hold") && !run.err.contains("in doubt"), "\(run.err)")
    }

    @Test(
        "In a counted run a fasterThan is judged on instructions",
        .disabled(if: TestSupport.sanitizer != nil, "callgrind cannot run a sanitized binary"))
    func onInstructions() throws {
        let dir = try TestSupport.temporaryDirectory()
        let file = try Self.scenario(in: dir, faster: "flat", than: "flat+index")
        let run = try TestSupport.runCLI(
            ["run", file, "--out", dir + "/run", "--size", "60", "--reps", "3", "--instructions", "--workloads", "sections", "--quiet"],
            environment: ["TMPDIR": dir])
        // flat sorts its sections in a temporary B-tree: more instructions than the index walk, whatever the clock says.
        #expect(run.status == 2, "\(run.err)")
        #expect(run.err.contains("not faster than flat+index in instructions") && !run.err.contains("in doubt"), "\(run.err)")
    }
}
