import Foundation
import Testing
@testable import SchemaLab
@testable import SchemaLabEngine
import SchemaLabSQLite
import SchemaLabTestSupport

/// The values a log binds where a fetch compares an attribute for equality become that
/// attribute's generator, so that the log's fetches find rows in the generated data.
@Suite("Value pools from a log's bound values")
struct LoggedValuePoolTests {
    static let model = TestSupport.packageRoot + "/Tests/Fixtures/SQLDebug/raymccrae-person.xcdatamodel"
    static let fetch =
        "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZAGE, t0.ZFIRSTNAME, t0.ZLASTNAME, t0.ZPERSONID FROM ZPERSON t0 WHERE t0.ZLASTNAME = ?"

    static func importLog(_ log: String, in dir: String) throws -> Scenario {
        try log.write(toFile: dir + "/app.log", atomically: true, encoding: .utf8)
        var modelImport = ModelImport(model: model)
        modelImport.log = dir + "/app.log"
        modelImport.out = dir + "/person.json"
        modelImport.today = "2026-11-27"
        return try ScenarioDecoder.load(path: try modelImport.write(console: CollectingConsole()))
    }

    @Test("level 2: the bound last names become lastName's choice, weighted by how often; the fetch then finds rows")
    func poolsFromBinds() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = ["Smith", "Smith", "Jones", "Smith"].map { Self.fetch + "\nCoreData: details: SQLite bind[0] = \"\($0)\"" }
            .joined(separator: "\n")
        let scenario = try Self.importLog(log, in: dir)
        let field = try #require(scenario.dataset.fields.first { $0.names == ["lastName"] })
        #expect(field.generator == .choice(values: [.text("Jones"), .text("Smith")], weights: [1, 3]))
        #expect(scenario.workloads.first?.weight == 4)
        #expect(scenario.description.contains("the ones the log bound"))
        let result = try Lab.run(scenario, options: RunOptions(sizes: [200], repetitions: 1, warmup: 0))
        let rows = try #require(result.cases.first?.rows)
        #expect(rows > 0, "the fetch of 'Smith' or 'Jones' finds rows in the generated data")
    }

    @Test("level 1: no values, so the data set keeps its guesses and the description says so")
    func levelOneKeepsGuesses() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scenario = try Self.importLog(Self.fetch + "\n", in: dir)
        let field = try #require(scenario.dataset.fields.first { $0.names == ["lastName"] })
        if case .choice = field.generator { Issue.record("a level-1 log changed the generator") }
        #expect(scenario.description.contains("the data set keeps its guesses"))
    }
}
