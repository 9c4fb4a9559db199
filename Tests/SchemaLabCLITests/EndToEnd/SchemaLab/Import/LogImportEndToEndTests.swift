import Foundation
import Testing
@testable import SchemaLab
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// A new user's path with a log: `schemalab import MODEL --log LOG`, then `schemalab run`, and
/// the import's refusals of logs it cannot use.
@Suite("Importing a SQLDebug log, end to end: schemalab import --log")
struct LogImportEndToEndTests {
    static let fixtures = TestSupport.packageRoot + "/Tests/Fixtures/SQLDebug"

    @Test("import --log writes the log's fetches as workloads with their device cost, and run measures them")
    func importAndRun() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/derived.json"
        let imported = try TestSupport.runCLI([
            "import", Self.fixtures + "/fatbobman-count-derived.xcdatamodel", "--log", Self.fixtures + "/fatbobman-count-derived.log",
            "--out", out,
        ])
        #expect(imported.status == 0, "\(imported.err)")
        #expect(imported.err.contains("5 of 5 fetch shapes rebuilt with identical SQL"), "\(imported.err)")
        let scenario = try ScenarioDecoder.load(path: out)
        #expect(scenario.workloads.first?.prefetch == ["attachments"], "the prefetch after the first fetch is its")
        #expect(scenario.workloads.allSatisfy { $0.device?.runs == 1 })
        #expect(scenario.description.contains("fatbobman-count-derived.log (level 1)"))
        let run = try TestSupport.runCLI(["run", out, "--out", dir + "/run", "--size", "40", "--reps", "1", "--warmup", "0", "--quiet"])
        #expect(run.status == 0, "\(run.err)")
        let report = try TestSupport.runCLI(["report", dir + "/run"])
        #expect(report.status == 0, "\(report.err)")
        let markdown = try String(contentsOfFile: dir + "/run/report.md", encoding: .utf8)
        #expect(markdown.contains("## Your log"), "the report opens with the log")
        #expect(markdown.contains("| log-1-item-fetch | request | 1 | 5.300 | 190 |"), "the device's 0.0053 s and 190 rows")
        let plans = try String(contentsOfFile: dir + "/run/plans.csv", encoding: .utf8)
        #expect(
            plans.contains("WHERE  t0.ZITEM IN (SELECT * FROM _Z_intarray0)  ORDER BY t0.ZITEM")
                || plans.contains("t0.ZITEM IN (SELECT * FROM _Z_intarray0) ORDER BY t0.ZITEM"))
    }

    @Test("an empty log, a log without Core Data lines, another model's log, and an unknown column are refused with where and what")
    func refusals() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let model = Self.fixtures + "/raymccrae-person.xcdatamodel"
        func importLog(_ text: String, _ extra: [String] = []) throws -> (status: Int32, out: String, err: String) {
            try text.write(toFile: dir + "/app.log", atomically: true, encoding: .utf8)
            return try TestSupport.runCLI(["import", model, "--log", dir + "/app.log", "--out", dir + "/out.json", "--replace"] + extra)
        }
        var r = try importLog("")
        #expect(r.status == 2 && r.err.contains("app.log is empty"), "\(r.err)")
        r = try importLog("App started\nloading\n")
        #expect(r.status == 2 && r.err.contains("has no Core Data statements (2 lines"), "\(r.err)")
        r = try importLog("CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZBOOK t0\n")
        #expect(r.status == 2 && r.err.contains("is the log from another app's model?"), "\(r.err)")
        let unknown =
            "App started\nCoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZAGES FROM ZPERSON t0 WHERE t0.ZAGES > ?\n"
            + "CoreData: sql: SELECT COUNT(*) FROM ZPERSON t0\n"
        r = try importLog(unknown)
        #expect(r.status == 2 && r.err.contains("line 2: the statement names ZAGES (nearest: ZAGE)"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.json"), "nothing written")
        r = try importLog(unknown, ["--keep-unknown"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("line 2: not run: it names ZAGES, which the model does not have"), "\(r.err)")
        #expect(try String(contentsOfFile: dir + "/out.json", encoding: .utf8).contains("Not run: line 2"))
        // A truncated last line is logged SQL that does not prepare: listed, not run, and the rest imports.
        r = try importLog(
            "CoreData: sql: SELECT COUNT(*) FROM ZPERSON t0\nCoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZAGE FROM ZPERSON t0 ORDER B")
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("line 2: not run: it does not run here"), "\(r.err)")
        let noLog = try TestSupport.runCLI(["import", model, "--keep-unknown"])
        #expect(noLog.status != 0 && noLog.err.contains("--keep-unknown needs --log"))
    }
}
