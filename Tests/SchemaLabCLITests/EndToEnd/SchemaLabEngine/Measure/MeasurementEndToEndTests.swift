import Foundation
import Testing
@testable import SchemaLabEngine
import SchemaLab
import SchemaLabTestSupport

/// Instruction counts in a real run of the built CLI.
@Suite("Measurement, end to end: instruction counts in a run through the CLI")
struct MeasurementEndToEndTests {
    @Test(
        "A counted run of a 200-row count stays within 50,000 instructions of SQLite's own: the timed region holds the workload, not the harness",
        .disabled(if: TestSupport.sanitizer != nil, "callgrind cannot run a sanitized binary"))
    func countedRunExcludesFirstUse() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/count.json"
        try Data(
            """
            {"format": 1, "name": "tiny-count",
             "variants": [{"name": "flat", "entities": [{"name": "Item", "attributes": [{"name": "n", "type": "integer64"}]}]}],
             "dataset": {"seed": 1, "entity": "Item", "counts": [200],
                         "fields": [{"field": "n", "generator": {"kind": "uniformInt", "min": 0, "max": 9}}]},
             "workloads": [{"name": "count", "kind": "fetch", "resultType": "count"}]}
            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        let run = try TestSupport.runCLI(
            ["run", file, "--out", dir + "/run", "--reps", "3", "--instructions", "--quiet"], environment: ["TMPDIR": dir])
        #expect(run.status == 0, "\(run.err)")
        let rows = CSVWriter.parse(try String(contentsOfFile: dir + "/run/results.csv", encoding: .utf8))
        let total = Int(rows[1][rows[0].firstIndex(of: "instructions")!])!
        let sqlite = Int(rows[1][rows[0].firstIndex(of: "sqlite_instructions")!])!
        // Measured: 17,731 in all for SQLite's 3,914 with the tests' debug CLI, 7,021 with the
        // release build. The release build counted 273,619 when the warm-ups skipped the timed
        // region's path (its first use: type metadata, conformance scans); the debug build does
        // not show that cost, so this bounds the harness's share but cannot catch that one.
        #expect(sqlite > 0 && total - sqlite < 50_000, "\(total) instructions for SQLite's \(sqlite)")
    }
}
