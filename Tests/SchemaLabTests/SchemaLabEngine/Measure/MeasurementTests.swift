import Foundation
import Testing
@testable import SchemaLabEngine
import SchemaLab
import SchemaLabTestSupport

/// The instructions a case reports, read from callgrind's output.
@Suite("Measurement: instruction counts")
struct MeasurementTests {
    @Test("The callgrind parser sums libsqlite3's self cost and its C library calls, and leaves out its calls back into the lab")
    func callgrindParser() {
        let text = """
            events: Ir
            ob=/usr/lib/libsqlite3.so.0
            fl=sqlite3.c
            fn=sqlite3VdbeExec
            10 100
            cob=/app/schemalab
            cfn=callback
            calls=1 20
            12 5000
            13 50
            cob=/usr/lib/x86_64-linux-gnu/libc.so.6
            cfn=pthread_mutex_lock
            calls=1 30
            14 40
            cfn=sqlite3VdbeSerialGet
            calls=1 40
            15 7
            ob=/app/schemalab
            fn=callback
            20 5000
            cob=/usr/lib/x86_64-linux-gnu/libc.so.6
            cfn=malloc
            calls=1 30
            21 60
            ob=/usr/lib/x86_64-linux-gnu/libc.so.6
            fn=pthread_mutex_lock
            30 40
            fn=malloc
            31 60
            totals: 10250
            """
        // 100 + 50 of its own and the 40 of the mutex it locks; the 7 of its own callee are
        // already its own function's self cost elsewhere, the callback and its malloc are the lab's.
        #expect(CallgrindCounter.parse(text) == InstructionCount(total: 10250, sqlite: 190))
        #expect(CallgrindCounter.parse("events: Ir\n") == nil)
    }

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
