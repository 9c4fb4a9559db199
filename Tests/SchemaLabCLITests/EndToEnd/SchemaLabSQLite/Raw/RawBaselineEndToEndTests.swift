import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLab
import SchemaLabTestSupport

/// The raw baseline in a real run of the built CLI: every case of the run has raw_ms.
@Suite("Raw baseline, end to end: every case of a run through the CLI has it")
struct RawBaselineEndToEndTests {
    @Test("Every case of a run has its raw baseline")
    func everyCaseHasRaw() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try TestSupport.runCLI(["run", TestSupport.tinyScenario, "--out", dir + "/run", "--quiet"], environment: ["TMPDIR": dir])
        #expect(r.status == 0, "\(r.err)")
        let rows = CSVWriter.parse(try String(contentsOfFile: dir + "/run/results.csv", encoding: .utf8))
        let col = { (n: String) in rows[0].firstIndex(of: n)! }
        #expect(rows.count == 13)
        for row in rows.dropFirst() {
            let raw = try #require(Double(row[col("raw_ms")]), "\(row[1]) \(row[2])")
            #expect(raw > 0)
            #expect(Double(row[col("raw_ratio")])! > 0)
        }
    }
}
