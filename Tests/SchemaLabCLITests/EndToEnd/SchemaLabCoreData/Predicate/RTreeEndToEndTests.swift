import Foundation
import Testing
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
@testable import SchemaLab
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// The R-tree index in a real run of the built CLI.
@Suite("R-tree, end to end: a box scenario through the CLI")
struct RTreeEndToEndTests {
    @Test("posts-geo through the CLI: every strategy agrees, each box's latency and rows are kept, the plans show the R-tree")
    func cli() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out"
        let r = try TestSupport.runCLI([
            "run", "scenarios/posts-geo.json", "--out", out, "--size", "3000", "--reps", "1", "--warmup", "0", "--quiet",
        ])
        #expect(r.status == 0, "\(r.err)")
        let results = CSVWriter.parse(try String(contentsOfFile: out + "/results.csv", encoding: .utf8))
        let header = results[0]
        let col = { (name: String) in header.firstIndex(of: name)! }
        #expect(results.count == 1 + 4 * 2)
        for row in results.dropFirst() {
            #expect(
                row[col("reference_check")] == (row[col("schema")] == "scan" ? "reference" : "same"),
                "\(row[col("schema")]) \(row[col("workload")])")
            #expect(row[col("reads")] == "100")
            #expect(Double(row[col("read_p99_ms")])! >= Double(row[col("read_p50_ms")])!)
            let lat = CSVWriter.parse(
                try String(contentsOfFile: out + "/latencies/\(row[col("schema")])-\(row[col("workload")])-3000.csv", encoding: .utf8))
            #expect(lat.count == 101 && lat[0].last == "rows")
            #expect(lat.dropFirst().reduce(0) { $0 + Int($1.last!)! } == Int(row[col("rows")])!)
        }
        let plans = try String(contentsOfFile: out + "/plans.csv", encoding: .utf8)
        #expect(plans.contains("SCAN n1_t0 VIRTUAL TABLE INDEX 2:D0B1D2B3"), "rtree-one: one R-tree search on both dimensions")
        #expect(plans.contains("SCAN n2_t0 VIRTUAL TABLE INDEX 2:D2B3"), "rtree: a second search on longitude alone")
        #expect(plans.contains("SEARCH t0 USING INDEX Z_Post_byLatLon (ZLATITUDE>? AND ZLATITUDE<?)"))
    }
}
