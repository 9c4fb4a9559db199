import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
@testable import SchemaLab
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// The shipped search, photo-tags and photo-storage scenarios (canonical search columns,
/// tokens, tags, external storage) in real runs of the built CLI.
@Suite("Search and storage, end to end: the shipped scenarios through the CLI")
struct SearchAndStorageEndToEndTests {
    @Test("search, photo-tags and photo-storage through the CLI: every pair agrees, every variant matches the reference")
    func cli() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (scenario, size, expected) in [("search", 1500, 36), ("photo-tags", 800, 9), ("photo-storage", 12, 12)] {
            let out = dir + "/" + scenario
            let r = try TestSupport.runCLI([
                "run", "scenarios/\(scenario).json", "--out", out, "--size", "\(size)", "--reps", "1", "--warmup", "0", "--quiet",
            ])
            #expect(r.status == 0, "\(scenario): \(r.err)")
            let results = CSVWriter.parse(try String(contentsOfFile: out + "/results.csv", encoding: .utf8))
            let header = results[0]
            let col = { (name: String) in header.firstIndex(of: name)! }
            #expect(results.count == 1 + expected, "\(scenario)")
            for row in results.dropFirst() {
                let label = "\(scenario) \(row[col("schema")]) \(row[col("workload")])"
                #expect(["reference", "same", ""].contains(row[col("reference_check")]), "\(label)")
                #expect(["same", ""].contains(row[col("agreement_check")]), "\(label)")
                #expect(Int(row[col("rows")])! > 0, "\(label) returns rows")
            }
            let agreed = results.dropFirst().filter { $0[col("agreement_check")] == "same" }.count
            #expect(agreed >= ["search": 26, "photo-tags": 4, "photo-storage": 0][scenario]!, "\(scenario)")
            if scenario == "photo-tags" {
                let insert = results.dropFirst().first { $0[col("schema")] == "entity" && $0[col("workload")] == "insert" }
                #expect(insert?[col("reference_check")] == "same", "the tag string and the Tag rows hold the same logical photos")
            }
            // photo-storage: every variant against inline, on the objects and on the bytes touched.
            if scenario == "photo-storage" {
                #expect(results.dropFirst().filter { $0[col("reference_check")] == "same" }.count == 8)
                let digests = results.dropFirst().filter { $0[col("workload")] == "open-one" }.map { $0[col("result_digest")] }
                #expect(Set(digests).count == 1 && digests[0].contains("-"), "the image's bytes are in the signature")
            }
        }
    }
}
