import Foundation
import Testing
@testable import SchemaLab

/// The sequential rule of a time `fasterThan` through the real CLI: a check the run's samples
/// cannot decide is measured again before it passes or fails.
@Suite("Assertions: the sequential rule of fasterThan")
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

    @Test("Three repetitions cannot decide: five more of each decide a real 3x effect, and the run passes")
    func moreRepetitionsDecide() throws {
        let dir = try TestSupport.temporaryDirectory()
        let file = try Self.scenario(in: dir, faster: "flat+index", than: "flat")
        let run = try TestSupport.runCLI(
            ["run", file, "--out", dir + "/run", "--size", "60", "--reps", "3", "--inject-slowdown", "flat/sections=3", "--quiet"],
            environment: ["TMPDIR": dir])
        #expect(run.status == 0, "\(run.err)")
        #expect(
            run.err.contains("fasterThan in doubt (flat+index against flat sections n=60): 5 more repetitions of each case, round 1 of 3"),
            "\(run.err)")
        #expect(run.err.contains("1 assertion checks hold"), "\(run.err)")
        // results.csv keeps the run's own three repetitions.
        let snapshot = try RunSnapshot(path: dir + "/run")
        #expect(snapshot.cases.values.allSatisfy { $0.wallMs.count == 3 })
    }

    @Test("A case slower beyond doubt fails without more rounds, naming the extra repetitions it took")
    func slowerFails() throws {
        let dir = try TestSupport.temporaryDirectory()
        let file = try Self.scenario(in: dir, faster: "flat", than: "flat+index")
        let run = try TestSupport.runCLI(
            ["run", file, "--out", dir + "/run", "--size", "60", "--reps", "3", "--inject-slowdown", "flat/sections=3", "--quiet"],
            environment: ["TMPDIR": dir])
        #expect(run.status == 2, "\(run.err)")
        #expect(run.err.contains("round 1 of 3") && !run.err.contains("round 2 of 3"), "\(run.err)")
        #expect(
            run.err.contains("not faster than flat+index") && run.err.contains("after 5 more repetitions of each (sequential rule"),
            "\(run.err)")
    }

    @Test("In a counted run a fasterThan is judged on instructions")
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
