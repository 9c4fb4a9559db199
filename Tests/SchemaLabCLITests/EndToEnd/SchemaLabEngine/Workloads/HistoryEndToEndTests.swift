import Foundation
import Testing
@testable import SchemaLab
import SchemaLabTestSupport

/// Persistent history through the built CLI: the shipped `history` scenario runs with its
/// claims, and a store the lab made with history on imports as its model, history marked.
@Suite("Persistent history, end to end: the history scenario and importing a store with history")
struct HistoryEndToEndTests {
    static let scenario = TestSupport.packageRoot + "/scenarios/history.json"

    @Test("schemalab run scenarios/history.json: every case runs (history requests, purge, merges), plans recorded, eight claims judged")
    func run() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out"
        let r = try TestSupport.runCLI(["run", Self.scenario, "--out", out, "--size", "300", "--reps", "1", "--warmup", "0", "--quiet"])
        #expect(r.status == 0, "\(r.err)")
        let rows = CSVWriter.parse(try String(contentsOfFile: out + "/results.csv", encoding: .utf8))
        let header = rows[0]
        let workload = try #require(header.firstIndex(of: "workload")), schema = try #require(header.firstIndex(of: "schema"))
        let cases = rows.dropFirst()
        // Four workloads in both variants, thirteen in the history variant only.
        #expect(cases.count == 4 * 2 + 13, "\(cases.map { "\($0[schema]) \($0[workload])" })")
        #expect(try String(contentsOfFile: out + "/failures.csv", encoding: .utf8).split(separator: "\n").count == 1)
        let plans = try String(contentsOfFile: out + "/plans.csv", encoding: .utf8)
        #expect(plans.contains("history-all") && plans.contains("FROM ATRANSACTION t0"), "\(plans.prefix(2000))")
        #expect(plans.contains("SEARCH t0 USING INDEX ACHANGE_ZTRANSACTIONID_INDEX") || plans.contains("ACHANGE_ZTRANSACTIONID_INDEX"))
        let claims = CSVWriter.parse(try String(contentsOfFile: out + "/claims.csv", encoding: .utf8))
        #expect(claims.count == 1 + 8)
        // Seventeen long workload names: the bar chart slants them rather than overlap them.
        let plot = try TestSupport.runCLI(["plot", out])
        #expect(plot.status == 0, "\(plot.err)")
        let svg = try String(contentsOfFile: out + "/plots/history-300.svg", encoding: .utf8)
        #expect(svg.components(separatedBy: "rotate(-35)").count - 1 == 17, "\(svg.prefix(300))")
    }

    @Test("A store made with history on imports as its model: the history entities left out, the variant marked persistentHistory")
    func importStore() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = dir + "/posts.sqlite"
        let g = try TestSupport.runCLI(["generate", Self.scenario, "--size", "20", "--store", store, "--variant", "history"])
        #expect(g.status == 0, "\(g.err)")
        let out = dir + "/imported.json"
        let r = try TestSupport.runCLI(["import", store, "--out", out])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("persistent history"), "\(r.err)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.contains("\"persistentHistory\": true"))
        #expect(!text.contains("TRANSACTION") && !text.contains("\"CHANGE\""))
        #expect(try TestSupport.runCLI(["validate", out]).status == 0)
    }
}
