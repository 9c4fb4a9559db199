import Foundation
import Testing
@testable import SchemaLabEngine
@testable import SchemaLab
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// The regression gate end to end through the built CLI: an A/A comparison passes, a removed
/// index is caught (exit 2, with the plan's diff), work done twice is caught by the
/// instruction count; shards and merge, baselines, what compare refuses.
@Suite("Regression gate, end to end: run, compare, shards and merge through the CLI")
struct RegressionGateEndToEndTests {
    /// tiny.json with 5 repetitions after a warm-up.
    static func scenario() -> String {
        let text = try! String(contentsOfFile: TestSupport.tinyScenario, encoding: .utf8)
        let s = text.replacingOccurrences(
            of: #""measurement": {"warmup": 0, "repetitions": 2, "maxSeconds": 5}"#,
            with: #""measurement": {"warmup": 1, "repetitions": 5, "maxSeconds": 5}"#)
        precondition(s != text)
        return s
    }

    static func run(_ args: [String], _ dir: String) throws -> (status: Int32, out: String, err: String) {
        try TestSupport.runCLI(args, environment: ["TMPDIR": dir])
    }

    @Test(
        "A/A passes; a removed index exits 2 with the plan's diff; work done twice exits 2 on instructions; baselines save and list",
        .disabled(if: TestSupport.sanitizer != nil, "callgrind cannot run a sanitized binary"))
    func gateEndToEnd() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let withIndex = dir + "/tiny.json", withoutIndex = dir + "/tiny-noindex.json"
        try Data(Self.scenario().utf8).write(to: URL(fileURLWithPath: withIndex))
        // The index made useless for the sort (same name, on another column): as if it had been removed.
        let noIndex = Self.scenario().replacingOccurrences(
            of: #"{"name": "byStarsCreated", "entity": "Note", "elements": [{"key": "stars", "order": "descending"}, "created"]}"#,
            with: #"{"name": "byStarsCreated", "entity": "Note", "elements": ["title"]}"#)
        #expect(noIndex != Self.scenario())
        try Data(noIndex.utf8).write(to: URL(fileURLWithPath: withoutIndex))
        let args = ["--workloads", "by-created,sections", "--quiet"]
        // Run b under a longer $TMPDIR: the counts must not depend on where the stores are.
        let longer = dir + "/a-longer-temporary-directory"
        try FileManager.default.createDirectory(atPath: longer, withIntermediateDirectories: true)
        for (name, tmp) in [("a", dir), ("b", longer)] {
            let r = try Self.run(["run", withIndex, "--out", dir + "/" + name, "--instructions"] + args, tmp)
            #expect(r.status == 0, "\(r.err)")
        }
        let results = CSVWriter.parse(try String(contentsOfFile: dir + "/a/results.csv", encoding: .utf8))
        let col = { (n: String) in results[0].firstIndex(of: n)! }
        for row in results.dropFirst() {
            #expect(Int64(row[col("instructions")])! > Int64(row[col("sqlite_instructions")])!, "\(row[1]) \(row[2])")
            #expect(Int64(row[col("sqlite_instructions")])! > 0)
        }
        // A/A: same commit, two runs, no regression.
        let aa = try Self.run(["compare", dir + "/a", dir + "/b"], dir)
        #expect(aa.status == 0, "\(aa.out)\(aa.err)")
        #expect(aa.out.contains("0 regressed"))
        // Instruction counts repeat to the instruction, in another temporary directory too.
        let b = CSVWriter.parse(try String(contentsOfFile: dir + "/b/results.csv", encoding: .utf8))
        #expect(results.dropFirst().map { $0[col("instructions")] } == b.dropFirst().map { $0[col("instructions")] })

        // The index made useless: the plan loses it, and the gate says so.
        let r = try Self.run(["run", withoutIndex, "--out", dir + "/noindex", "--instructions"] + args, dir)
        #expect(r.status == 0, "\(r.err)")
        let caught = try Self.run(["compare", dir + "/a", dir + "/noindex", "--markdown", dir + "/report.md"], dir)
        #expect(caught.status == 2, "\(caught.out)")
        #expect(caught.out.contains("flat+index sections n=120"))
        #expect(caught.out.contains("REGRESSED: plan of `SELECT"), "\(caught.out)")
        #expect(caught.out.contains("USING INDEX Z_Note_byStarsCreated became"), "\(caught.out)")
        #expect(caught.out.contains("USE TEMP B-TREE FOR ORDER BY"))
        #expect(try String(contentsOfFile: dir + "/report.md", encoding: .utf8).contains("**REGRESSED**"))

        // The work done twice in one case: caught by its instruction count (and reported as such).
        let slow = try Self.run(
            ["run", withIndex, "--out", dir + "/slow", "--instructions", "--inject-slowdown", "flat/by-created=2"] + args, dir)
        #expect(slow.status == 0, "\(slow.err)")
        let doubled = try Self.run(["compare", dir + "/a", dir + "/slow"], dir)
        #expect(doubled.status == 2, "\(doubled.out)")
        #expect(doubled.out.contains("REGRESSED: instructions "), "\(doubled.out)")
        #expect(doubled.out.split(separator: "\n").contains { $0.hasPrefix("flat by-created n=120") && $0.hasSuffix("REGRESSED") })

        // Baselines: saved, listed, compared by name; a missing one exits 3; another environment is refused.
        #expect(try Self.run(["baseline", "save", dir + "/a", "tiny-ci", "--dir", dir + "/baselines"], dir).status == 0)
        #expect(try Self.run(["baseline", "save", dir + "/a", "tiny-ci", "--dir", dir + "/baselines"], dir).status == 2)
        #expect(try Self.run(["baseline", "list", "--dir", dir + "/baselines"], dir).out.contains("tiny-ci  tiny  6 cases"))
        #expect(try Self.run(["compare", "tiny-ci", dir + "/b", "--dir", dir + "/baselines"], dir).status == 0)
        #expect(try Self.run(["compare", "nope", dir + "/b", "--dir", dir + "/baselines"], dir).status == 3)
        let env = URL(fileURLWithPath: dir + "/baselines/tiny-ci/env.json")
        var manifest = try JSONDecoder().decode(RunManifest.self, from: Data(contentsOf: env))
        manifest.environment.cores += 1
        try JSONEncoder().encode(manifest).write(to: env)
        let refused = try Self.run(["compare", "tiny-ci", dir + "/b", "--dir", dir + "/baselines"], dir)
        #expect(refused.status == 1 && refused.err.contains("CPU cores"), "\(refused.err)")
        #expect(try Self.run(["compare", "tiny-ci", dir + "/b", "--dir", dir + "/baselines", "--across-environments"], dir).status == 0)
    }

    @Test("Shards run disjoint groups and merge into the cases of one run; assertions fail a run with exit 2")
    func shardsAndAssertions() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/tiny.json"
        let asserting = Self.scenario().replacingOccurrences(
            of: #"  "measurement":"#,
            with: #"""
                  "assertions": [
                    {"workload": "sections", "variant": "flat+index", "usesIndex": "Z_Note_byStarsCreated"},
                    {"workload": "sections", "variant": "flat", "noTempBTree": true},
                    {"workload": "by-created", "sameResults": ["flat", "flat+index", "split"]}
                  ],
                  "measurement":
                """#)
        try Data(asserting.utf8).write(to: URL(fileURLWithPath: file))
        let failing = try Self.run(["run", file, "--out", dir + "/full", "--quiet"], dir)
        #expect(failing.status == 2)
        #expect(failing.err.contains("assertion failed: tiny: flat sections n=120: statement 1 `SELECT"), "\(failing.err)")
        #expect(failing.err.contains("uses a temporary B-tree (SCAN t0; USE TEMP B-TREE FOR ORDER BY) [$.assertions[1]]"), "\(failing.err)")
        #expect(failing.err.contains("1 of 3 assertion checks failed"))
        for i in 1...3 {
            let r = try Self.run(["run", file, "--out", dir + "/s\(i)", "--shard", "\(i)/3", "--quiet"], dir)
            #expect(r.status == 0 || r.status == 2, "\(r.err)")
        }
        let shardCases = try (1...3).map { i in try RunDirectory.readState(at: dir + "/s\(i)").cases }
        #expect(Set(shardCases.flatMap { $0 }).count == shardCases.map(\.count).reduce(0, +), "disjoint")
        let merged = try Self.run(["merge", dir + "/s1", dir + "/s2", dir + "/s3", "--out", dir + "/merged"], dir)
        #expect(merged.status == 0, "\(merged.err)")
        let full = try RunDirectory.readState(at: dir + "/full"), joined = try RunDirectory.readState(at: dir + "/merged")
        #expect(Set(full.cases) == Set(joined.cases) && joined.state == .complete)
        #expect(try Self.run(["compare", dir + "/full", dir + "/merged"], dir).status != 1)
        #expect(try Self.run(["merge", dir + "/s1", dir + "/s2", "--out", dir + "/m2"], dir).err.contains("missing shard(s) 3"))
        #expect(try Self.run(["run", file, "--out", dir + "/x", "--shard", "4/3"], dir).status == 2)
    }

    @Test(
        "compare refuses an incomplete run and runs with no case in common; a baseline case missing from the run fails unless --allow-missing"
    )
    func compareGuards() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/tiny.json"
        // A huge maxSeconds is a valid budget (it once overflowed a UInt64 of nanoseconds).
        let text = Self.scenario().replacingOccurrences(of: #""maxSeconds": 5"#, with: #""maxSeconds": 1e300"#)
        #expect(text != Self.scenario())
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let all = try Self.run(["run", file, "--out", dir + "/all", "--workloads", "by-created,sections", "--quiet"], dir)
        #expect(all.status == 0, "\(all.err)")
        let part = try Self.run(["run", file, "--out", dir + "/part", "--workloads", "by-created", "--quiet"], dir)
        #expect(part.status == 0, "\(part.err)")
        let missing = try Self.run(["compare", dir + "/all", dir + "/part"], dir)
        #expect(missing.status == 2, "\(missing.out)\(missing.err)")
        #expect(missing.out.contains("3 MISSING from the run"), "\(missing.out)")
        #expect(missing.err.contains("3 baseline case(s) missing from the run"), "\(missing.err)")
        // What is checked is the missing cases, not time: these runs count no instructions, so a
        // loaded machine could make a time change gate; a threshold no change reaches keeps it out.
        let allowed = try Self.run(["compare", dir + "/all", dir + "/part", "--allow-missing", "--threshold", "1000000"], dir)
        #expect(allowed.status == 0, "\(allowed.out)\(allowed.err)")
        #expect(allowed.out.contains("3 not in the run (allowed)"))

        let other = try Self.run(["run", file, "--out", dir + "/other", "--workloads", "by-created", "--size", "40", "--quiet"], dir)
        #expect(other.status == 0, "\(other.err)")
        let unmatched = try Self.run(["compare", dir + "/part", dir + "/other"], dir)
        #expect(
            unmatched.status == 1 && unmatched.err.contains("nothing was compared (sizes 40 in the run, 120 in the baseline"),
            "\(unmatched.err)")

        // A run stopped half-way (run.json says so) is neither compared nor saved as a baseline.
        try FileManager.default.copyItem(atPath: dir + "/part", toPath: dir + "/stopped")
        let runJSON = URL(fileURLWithPath: dir + "/stopped/run.json")
        var state = try JSONDecoder().decode(RunState.self, from: Data(contentsOf: runJSON))
        state.state = .interrupted
        try JSONEncoder().encode(state).write(to: runJSON)
        let stopped = try Self.run(["compare", dir + "/part", dir + "/stopped"], dir)
        #expect(stopped.status == 1 && stopped.err.contains("the run is interrupted"), "\(stopped.err)")
        let asBase = try Self.run(["compare", dir + "/stopped", dir + "/part"], dir)
        #expect(asBase.status == 1 && asBase.err.contains("cannot compare with the baseline"), "\(asBase.err)")
        let save = try Self.run(["baseline", "save", dir + "/stopped", "half", "--dir", dir + "/baselines"], dir)
        #expect(save.status == 2 && save.err.contains("the run is interrupted"), "\(save.err)")
        // --replace puts the new baseline in place of the old one, and leaves nothing beside it.
        for _ in 0..<2 {
            let r = try Self.run(["baseline", "save", dir + "/part", "p", "--dir", dir + "/baselines", "--replace"], dir)
            #expect(r.status == 0, "\(r.err)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/baselines") == ["p"])
    }
}
