import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
@testable import SchemaLab
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// The write workloads in real runs of the built CLI: a failing case, memory per case, the shipped write scenarios.
@Suite("Write workloads, end to end: runs through the CLI")
struct WriteWorkloadEndToEndTests {
    @Test("Through the CLI, a case whose records break a unique index fails alone with the record's position; the others run; exit 1")
    func failingCaseCLI() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let json = QuakeWriteScenarios.ingest.replacingOccurrences(
            of: #""addUniquenessConstraints": [{"entity": "Quake", "attributes": ["code"]}]"#,
            with: #""addIndexes": [{"name": "byPlace", "entity": "Quake", "elements": ["place"], "unique": true}]"#)
        let file = dir + "/s.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        let out = dir + "/out"
        let r = try TestSupport.runCLI(["run", file, "--out", out, "--workloads", "objects,array", "--quiet"])
        #expect(r.status == 1, "\(r.err)")
        let failures = CSVWriter.parse(try String(contentsOfFile: out + "/failures.csv", encoding: .utf8))
        #expect(failures.count == 3)
        let byWorkload = Dictionary(uniqueKeysWithValues: failures.dropFirst().map { ($0[2], $0) })
        #expect(byWorkload["objects"]?[1] == "unique")
        #expect(byWorkload["objects"]?[4].contains("UNIQUE constraint failed: ZQUAKE.ZPLACE (Quake object ") ?? false)
        #expect(byWorkload["array"]?[4].contains("UNIQUE constraint failed: ZQUAKE.ZPLACE (record ") ?? false)
        #expect(byWorkload["array"]?[5].hasPrefix("INSERT INTO ZQUAKE(") ?? false)
        let results = CSVWriter.parse(try String(contentsOfFile: out + "/results.csv", encoding: .utf8))
        #expect(results.dropFirst().map { "\($0[1]) \($0[2])" } == ["plain objects", "plain array"])
    }

    @Test(
        "Per-case memory: after a warm-up and an earlier case freed their memory, a case's resident growth is still its own",
        .disabled(
            if: TestSupport.sanitizer != nil,
            "a sanitizer's allocator does not give freed pages back (malloc_trim), the resident growth this test measures"))
    func memoryIsPerCase() throws {
        let json = QuakeWriteScenarios.scenario(
            """
            {"name": "first", "kind": "insert"}, {"name": "second", "kind": "insert"}
            """, count: 20_000)
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/m.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        // In a process of its own (the tests run side by side in this one), with a warm-up as
        // the shipped scenarios run: without giving the warm-up's and the earlier case's freed
        // pages back first, the measured repetitions reuse them and the growth reads a fraction
        // of the objects' memory.
        let r = try TestSupport.runCLI([
            "run", file, "--out", dir + "/out", "--variants", "plain", "--reps", "2", "--warmup", "1", "--quiet",
        ])
        #expect(r.status == 0, "\(r.err)")
        let rows = CSVWriter.parse(try String(contentsOfFile: dir + "/out/results.csv", encoding: .utf8))
        let col = rows[0].firstIndex(of: "rss_growth_kb")!
        let growth = rows.dropFirst().map { Int($0[col])! }
        #expect(growth.count == 2)
        // Measured: 9.3 and 8.1 MB with the pages given back, 3.7 and 1.8 MB without.
        for g in growth { #expect(g > 5_000, "\(growth) KiB") }
        #expect(Double(growth[1]) > 0.7 * Double(growth[0]), "the same work grows alike, first or second: \(growth) KiB")
    }

    @Test(
        "The CLI runs the shipped write scenarios small: strategies agree, latencies are written, batch inserts are timed against the floor"
    )
    func cli() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["quakes-ingest", "quakes-reingest", "quakes-update-delete", "reader-under-writer"] {
            let out = dir + "/" + name
            let r = try TestSupport.runCLI([
                "run", TestSupport.packageRoot + "/scenarios/\(name).json", "--out", out, "--size", "300", "--reps", "1", "--warmup", "0",
                "--quiet",
            ])
            #expect(r.status == 0, "\(name): \(r.err)")
            let rows = CSVWriter.parse(try String(contentsOfFile: out + "/results.csv", encoding: .utf8))
            let col = { (c: String) in rows[0].firstIndex(of: c)! }
            #expect(rows.count > 2)
            for row in rows.dropFirst() {
                // quakes-ingest's merged ingests run only with history on: no reference variant runs them.
                let alone = row[col("schema")] == "history"
                #expect((alone ? [""] : ["reference", "same"]).contains(row[col("reference_check")]), "\(name) \(row[col("workload")])")
                #expect(["", "same"].contains(row[col("agreement_check")]), "\(name) \(row[col("workload")])")
                #expect(Double(row[col("longest_write_ms")])! > 0, "\(name) \(row[col("workload")])")
            }
            if name == "quakes-ingest" {
                let batch = rows.first { $0[col("workload")] == "batch-array" }!
                #expect(!batch[col("floor_ms")].isEmpty && Double(batch[col("floor_ratio")])! > 0)
            }
            if name == "reader-under-writer" {
                for row in rows.dropFirst() {
                    #expect(Int(row[col("reads")])! >= 1)
                    #expect(Double(row[col("read_max_ms")])! >= Double(row[col("read_p50_ms")])!)
                    let file = out + "/latencies/plain-\(row[col("workload")])-300.csv"
                    let lat = CSVWriter.parse(try String(contentsOfFile: file, encoding: .utf8))
                    #expect(lat[0] == RunFiles.latencies.header)
                    #expect(lat.count == 1 + Int(row[col("reads")])!)
                }
            }
        }
    }
}
