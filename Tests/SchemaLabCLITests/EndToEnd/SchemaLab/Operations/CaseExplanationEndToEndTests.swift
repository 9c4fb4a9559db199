import Foundation
import Testing
@testable import SchemaLab
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// `schemalab explain`: statements, plans, counters and `.expert` advice for one case; with
/// --advise the suggested index measured as a new variant.
@Suite("Explain, end to end: one case's statements, plans, counters and index advice with proof")
struct CaseExplanationEndToEndTests {
    @Test(
        "The flat variant's sections: a sort in a temporary B-tree, the compound index suggested, measured, the same result; the save measured with it"
    )
    func explainAndAdvise() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try TestSupport.runCLI(
            ["explain", TestSupport.tinyScenario, "--variant", "flat", "--workload", "sections", "--advise", "--reps", "3"],
            environment: ["TMPDIR": dir])
        #expect(r.status == 0, "\(r.err)")
        let out = r.out
        #expect(out.hasPrefix("tiny: flat · sections · n = 120\n"), "\(out)")
        #expect(
            out.contains(
                "statement 1: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCREATED, t0.ZSTARS, t0.ZTITLE FROM ZNOTE t0 ORDER BY t0.ZSTARS DESC, t0.ZCREATED"
            ), "\(out)")
        #expect(out.contains("    SCAN t0\n    USE TEMP B-TREE FOR ORDER BY\n"))
        #expect(out.contains("SQLite's .expert suggests:\n      CREATE INDEX ZNOTE_idx_"))
        #expect(out.contains("ON ZNOTE(ZSTARS DESC, ZCREATED);"))
        #expect(out.contains("advice: flat+advice adds Note(stars DESC, created)"), "\(out)")
        #expect(out.contains("flat+advice: median ") && out.contains("plan: SCAN t0 USING INDEX Z_Note_advice1"), "\(out)")
        #expect(out.contains("results the same"))
        // Three repetitions a side cannot reach significance at 0.05, and the line says so.
        #expect(out.contains("(the smallest p 3 and 3 repetitions allow is 0.100: 4 a side can reach 0.05)"), "\(out)")
        #expect(out.contains("sorts 0"), "the advised variant sorts nothing")
        // The scenario's save runs with and without the index: its VM steps grow by the index's.
        let save = try #require(out.split(separator: "\n").first { $0.hasPrefix("  save insert: median ") }, "\(out)")
        func pair(_ label: String) -> [Int] {
            let after = save.components(separatedBy: label + " ").last ?? ""
            return (after.components(separatedBy: ",").first ?? "").components(separatedBy: " -> ").compactMap { Int($0) }
        }
        let steps = pair("VM steps"), pages = pair("pages written")
        #expect(steps.count == 2 && steps[1] > steps[0], "\(save)")
        #expect(pages.count == 2 && pages[0] > 0 && pages[1] >= pages[0], "the index's pages are written with the save: \(save)")

        let bad = try TestSupport.runCLI(["explain", TestSupport.tinyScenario, "--variant", "nope", "--workload", "sections"])
        #expect(bad.status == 2 && bad.err.contains("no variant 'nope'") && bad.err.contains("has: flat, flat+index, split"), "\(bad.err)")
    }

    @Test("Without the sqlite3 tool the explanation says there is no advice and still succeeds (no SIGPIPE)")
    func missingSQLiteTool() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The write to a sqlite3 that never started raced with its exit: 0 to 9 runs in 10 ended with SIGPIPE (141).
        for _ in 0..<3 {
            let r = try TestSupport.runCLI(
                ["explain", TestSupport.tinyScenario, "--variant", "flat", "--workload", "sections", "--sqlite3", dir + "/no-sqlite3"],
                environment: ["TMPDIR": dir])
            #expect(r.status == 0, "\(r.status): \(r.err)")
            #expect(r.out.contains("no index advice: no \(dir)/no-sqlite3 on the PATH"), "\(r.out)")
        }
    }
}
