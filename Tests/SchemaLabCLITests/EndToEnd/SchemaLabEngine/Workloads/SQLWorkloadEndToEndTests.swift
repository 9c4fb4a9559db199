import Foundation
import Testing
@testable import SchemaLab
import SchemaLabTestSupport

/// `sql` workloads (statements of an app's log run as they are) in a real run of the built CLI.
@Suite("sql workloads, end to end: runs through the CLI")
struct SQLWorkloadEndToEndTests {
    static let scenario = TestSupport.packageRoot + "/Tests/Fixtures/sql-workloads.json"

    @Test("The CLI runs queries and a write as sql workloads: results.csv with the same digests in both variants, plans.csv with the index")
    func run() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out"
        let r = try TestSupport.runCLI(["run", Self.scenario, "--out", out, "--reps", "1", "--warmup", "0", "--quiet"])
        #expect(r.status == 0, "\(r.err)")
        let rows = CSVWriter.parse(try String(contentsOfFile: out + "/results.csv", encoding: .utf8))
        let header = rows[0]
        func column(_ name: String) throws -> Int { try #require(header.firstIndex(of: name), "no \(name) column") }
        let (schema, workload, digest, check, count) = (
            try column("schema"), try column("workload"), try column("result_digest"), try column("reference_check"), try column("rows")
        )
        let cases = rows.dropFirst()
        #expect(cases.count == 8)
        for name in ["strong", "strong-codes", "late-places", "validate"] {
            let pair = cases.filter { $0[workload] == name }
            #expect(pair.map { $0[schema] }.sorted() == ["indexed", "plain"], "\(name)")
            #expect(Set(pair.map { $0[digest] }).count == 1, "\(name): \(pair.map { $0[digest] })")
            #expect(Set(pair.map { $0[count] }).count == 1 && pair.allSatisfy { Int($0[count])! > 0 }, "\(name)")
            #expect(pair.map { $0[check] }.sorted() == ["reference", "same"], "\(name)")
        }
        let plans = try String(contentsOfFile: out + "/plans.csv", encoding: .utf8)
        #expect(plans.contains("SEARCH t0 USING INDEX Z_Quake_byMagnitude (ZMAGNITUDE>?)"), "\(plans)")
        #expect(plans.contains("sql-workloads,plain,strong,400,1,\"SELECT 0, t0.Z_PK"), "\(plans)")
    }

    @Test("schemalab validate refuses a second statement and an unknown column, at the workload's 'sql' (exit 2)")
    func refusals() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = try String(contentsOfFile: Self.scenario, encoding: .utf8)
        let query = "SELECT ZCODE FROM ZQUAKE WHERE ZMAGNITUDE > ?"
        for (edit, says) in [
            (query + "; DROP TABLE ZQUAKE", "$.workloads[1].sql: one statement only"),
            (
                "SELECT ZDEPTH FROM ZQUAKE WHERE ZMAGNITUDE > ?",
                "$.workloads[1].sql: in variant plain, the statement does not prepare: no such column: ZDEPTH"
            ),
        ] {
            let file = dir + "/bad.json"
            try text.replacingOccurrences(of: query, with: edit).write(toFile: file, atomically: true, encoding: .utf8)
            let r = try TestSupport.runCLI(["validate", file])
            #expect(r.status == 2, "\(edit): \(r.out) \(r.err)")
            #expect((r.out + r.err).contains(says), "\(edit): \(r.out) \(r.err)")
        }
    }

    @Test("run --store runs the sql queries on copies of a store and skips the sql write; asked for the write, it refuses")
    func existingStore() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = dir + "/quakes.sqlite"
        let made = try TestSupport.runCLI(["generate", Self.scenario, "--size", "300", "--store", store, "--variant", "plain"])
        #expect(made.status == 0, "\(made.err)")
        let r = try TestSupport.runCLI(["run", Self.scenario, "--store", store, "--out", dir + "/run", "--reps", "1", "--warmup", "0"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("skipping the workloads that write: validate"), "\(r.err)")
        let rows = CSVWriter.parse(try String(contentsOfFile: dir + "/run/results.csv", encoding: .utf8))
        let workload = try #require(rows[0].firstIndex(of: "workload"))
        #expect(Set(rows.dropFirst().map { $0[workload] }) == ["strong", "strong-codes", "late-places"])
        let write = try TestSupport.runCLI(["run", Self.scenario, "--store", store, "--out", dir + "/run2", "--workloads", "validate"])
        #expect(write.status == 2)
        #expect(write.err.contains("validate is a sql workload that writes"), "\(write.err)")
    }
}
