import Foundation
import Testing
@testable import SchemaLab
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// A real run's CSV files, from the built CLI, read by header name: a column added by a later
/// version, or columns in another order, read the same.
@Suite("CSV tables, end to end: a run's files read back")
struct CSVTableEndToEndTests {
    /// `text` with its columns in the order `permutation` and a column `extra` added after the first.
    static func reshaped(_ text: String, permutation: (Int) -> Int) -> String {
        let rows = CSVWriter.parse(text)
        let order = rows[0].indices.sorted { permutation($0) < permutation($1) }
        var writer = CSVWriter(header: ["a_column_from_the_future"] + order.map { rows[0][$0] })
        for row in rows.dropFirst() { writer.append(["42.5"] + order.map { row[$0] }) }
        return writer.text
    }

    @Test("results.csv with an extra, unknown column and its columns in another order reads to the same cases")
    func extraColumnAndOtherOrder() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try TestSupport.runCLI([
            "run", TestSupport.tinyScenario, "--out", dir + "/run", "--size", "60", "--reps", "2", "--warmup", "0", "--quiet",
        ])
        #expect(run.status == 0, "\(run.err)")
        let before = try RunSnapshot(path: dir + "/run")
        #expect(before.order.count == 12)
        for file in ["results.csv", "samples.csv", "plans.csv"] {
            let path = dir + "/run/" + file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try Self.reshaped(text, permutation: { ($0 * 7 + 3) % 53 }).write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(CSVWriter.parse(try String(contentsOfFile: dir + "/run/results.csv", encoding: .utf8))[0][0] == "a_column_from_the_future")
        let after = try RunSnapshot(path: dir + "/run")
        #expect(after.order == before.order)
        for key in before.order {
            #expect(after.cases[key]?.summary == before.cases[key]?.summary, "\(key)")
            #expect(after.cases[key]?.samples == before.cases[key]?.samples, "\(key)")
            #expect(after.cases[key]?.plans == before.cases[key]?.plans, "\(key)")
        }
        // The gate, the report and the plots read the reshaped run as they read the original.
        let gate = try TestSupport.runCLI(["compare", dir + "/run", dir + "/run"])
        #expect(gate.status == 0, "\(gate.out)\(gate.err)")
    }
}
