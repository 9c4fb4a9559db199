import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
@testable import SchemaLab
import SchemaLabTestSupport

/// A fetch's key binding chosen by a scenario, in a real run of the built CLI.
@Suite("Key binding, end to end: a scenario's keyBinding through the CLI")
struct PartialFetchEndToEndTests {
    @Test("schemalab run key-binding.json: each IN (?,...) workload agrees with its integer-array twin, end to end")
    func keyBindingScenario() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try TestSupport.runCLI([
            "run", TestSupport.packageRoot + "/scenarios/key-binding.json", "--out", dir + "/run", "--size", "300", "--reps", "1",
            "--warmup", "0", "--quiet",
        ])
        #expect(run.status == 0, "\(run.err)")
        let rows = CSVWriter.parse(try String(contentsOfFile: dir + "/run/results.csv", encoding: .utf8))
        let header = rows[0]
        let workload = header.firstIndex(of: "workload")!, agreement = header.firstIndex(of: "agreement_check")!
        let checks = rows.dropFirst().filter { $0[workload].hasSuffix("-params") }.map { $0[agreement] }
        #expect(checks.count == 6 && checks.allSatisfy { $0 == "same" }, "\(checks)")
    }
}
