import Foundation
import Testing
@testable import SchemaLab
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// The import's promise, checked on logs the lab writes itself: a scenario's statements written
/// in SQLDebug's form (levels 1 and 3, with a console's prefixes), imported back, rebuilt as
/// requests whose SQL is identical, and the imported scenario issuing the logged statements.
@Suite("The log import on the lab's own statements: written as a log, imported, issued again")
struct LogSelfRoundTripTests {
    static let scenarioPath = TestSupport.packageRoot + "/Tests/Fixtures/shapes.json"

    /// The statements each workload of `scenario` issues on `variant`, in order of first use.
    static func issued(_ scenario: Scenario, variant: String) throws -> [(workload: String, statements: [String])] {
        let result = try Lab.run(scenario, options: RunOptions(sizes: [60], repetitions: 1, warmup: 0, variants: [variant]))
        #expect(result.failures.isEmpty)
        return scenario.workloads.compactMap { w in
            guard let measured = result.cases.first(where: { $0.workload == w.name }) else { return nil }
            return (w.name, measured.plans.map(\.sql))
        }
    }

    /// A log of `statements` at `level`: NSLog's prefix on every line, the app's own lines
    /// between, at level 3 a summary with a row dump after each statement.
    static func log(_ statements: [String], level: Int) -> String {
        var lines: [String] = []
        let prefix = "2026-11-27 10:00:00.000 App[100:200] "
        for (n, sql) in statements.enumerated() {
            lines.append("App: loading screen \(n)")
            lines.append(prefix + "CoreData: sql: " + sql)
            lines.append(prefix + "CoreData: annotation: sql connection fetch time: 0.0010s")
            if level >= 3 {
                lines.append(
                    prefix
                        + "CoreData: annotation: fetch using NSSQLiteStatement <0x6000> on entity 'Note' with sql text '\(sql)' returned 1 rows with values: ("
                )
                lines.append("    \"<NSSQLRow: 0x600> Note 1\"")
                lines.append(")")
            }
            lines.append(prefix + "CoreData: annotation: total fetch execution time: 0.0020s for 1 rows.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(
        "levels 1 and 3: each fetch shape rebuilt with identical SQL or kept with a reason; the imported scenario issues every logged shape",
        arguments: [1, 3])
    func roundTrip(level: Int) throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let original = try ScenarioDecoder.load(path: Self.scenarioPath)
        let issued = try Self.issued(original, variant: "flat")
        let logged = issued.flatMap(\.statements).filter { $0.hasPrefix("SELECT") }
        let path = dir + "/app.log"
        try Self.log(logged, level: level).write(toFile: path, atomically: true, encoding: .utf8)

        var imported = original
        let summary = try LogImport(path: path, keepsUnknown: false).apply(to: &imported, today: "2026-11-27")
        #expect(summary.tally.statements == logged.count)
        #expect(summary.tally.level == level)
        #expect(summary.tally.skipped == logged.count, "the app's own lines")
        for entry in summary.entries where entry.rawReason != nil {
            #expect((entry.rawReason ?? "").count > 10, "\(entry.workload.name): a raw statement says why")
        }
        let rebuilt = summary.entries.filter { $0.rawReason == nil }
        #expect(rebuilt.count == summary.identical, "every request kept as a request issues the logged statement")
        #expect(
            summary.identical == summary.entries.count,
            "every shape of the lab's own fetches rebuilds: \(summary.identical) of \(summary.entries.count)")
        let weights = summary.entries.reduce(0) { $0 + $1.workload.weight }
        let followers = summary.entries.reduce(0) { $0 + $1.shape.followerRuns }
        #expect(Int(weights) + followers == logged.count, "every statement counted once: as a shape's run or as a window or fault")

        let again = try Self.issued(imported, variant: "flat")
        let shapesAgain = Set(again.flatMap(\.statements).map(StatementShape.of))
        let missing = Set(logged.map(StatementShape.of)).subtracting(shapesAgain)
        #expect(missing.isEmpty, "logged statements the imported scenario does not issue:\n\(missing.sorted().joined(separator: "\n"))")
    }

    @Test("saves: the lab's own append, update and delete written as saves come back as write workloads issuing the same statements")
    func saves() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var scenario = try ScenarioDecoder.load(path: Self.scenarioPath)
        scenario.variants = scenario.variants.filter { $0.name == "flat" }
        scenario.claims = []
        scenario.assertions = []
        let keys = PredicateValue.array([1, 2, 3].map { .integer($0) })
        scenario.workloads = [
            WorkloadSpec(name: "add", kind: .append, count: 4),
            WorkloadSpec(
                name: "rate", kind: .update, entity: "Note", predicate: PredicateSpec(text: "self IN %@", arguments: [keys]),
                set: [AttributeAssignment(attribute: "stars", value: .integer(9))]),
            WorkloadSpec(name: "drop", kind: .delete, entity: "Note", predicate: PredicateSpec(text: "self IN %@", arguments: [keys])),
        ]
        let issued = try Self.issued(scenario, variant: "flat")
        let writes = issued.map {
            ($0.workload, $0.statements.filter { s in ["INSERT", "UPDATE", "DELETE"].contains { s.hasPrefix($0) } })
        }
        var lines: [String] = []
        for (_, statements) in writes {
            lines.append("CoreData: sql: BEGIN EXCLUSIVE")
            for statement in statements where !statement.contains("Z_PRIMARYKEY") {
                // Three objects a save, as the workloads wrote them.
                for _ in 0..<3 { lines.append("CoreData: sql: " + statement) }
            }
            lines.append("CoreData: sql: COMMIT")
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: dir + "/app.log", atomically: true, encoding: .utf8)
        var imported = scenario
        let summary = try LogImport(path: dir + "/app.log", keepsUnknown: false).apply(to: &imported, today: "2026-11-27")
        #expect(summary.saves == 3)
        let kinds = Set(imported.workloads.map(\.kind))
        #expect(kinds == [.append, .update, .delete], "\(imported.workloads.map(\.name))")
        for entry in summary.entries {
            #expect(
                summary.outcomes[entry.workload.name] == .identical,
                "\(entry.workload.name): \(String(describing: summary.outcomes[entry.workload.name]))")
            #expect(entry.workload.weight == 1, "one save each")
        }
        let update = try #require(imported.workloads.first { $0.kind == .update })
        #expect(update.set.map(\.attribute) == ["stars"])
        #expect(update.predicate?.arguments == [keys], "three objects a save")
        #expect(imported.workloads.first { $0.kind == .append }?.count == 3)
    }

    /// Shipped scenarios whose fetches cover hierarchies (`Z_ENT`), relationships (joins,
    /// prefetches, faults, many-to-many) and the fetch shapes, with their first variant.
    static let shipped = ["inheritance", "relationships", "photos-matrix", "fetch-shaping"]

    @Test(
        "shipped scenarios' statements, written as a level-1 log: every fetch shape rebuilt identical or kept with a reason",
        arguments: shipped)
    func shippedScenario(name: String) throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var scenario = try ScenarioDecoder.load(path: TestSupport.packageRoot + "/scenarios/\(name).json")
        let variant = scenario.variants[0].name
        scenario.variants = [scenario.variants[0]]
        scenario.workloads = scenario.workloads.filter { $0.kind.readsOnly && ($0.variants?.contains(variant) ?? true) }.map {
            var w = $0
            w.variants = nil
            w.agreesWith = nil
            return w
        }
        scenario.claims = []
        scenario.assertions = []
        let logged = try Self.issued(scenario, variant: variant).flatMap(\.statements).filter { $0.hasPrefix("SELECT") }
        try Self.log(logged, level: 1).write(toFile: dir + "/app.log", atomically: true, encoding: .utf8)
        var imported = scenario
        let summary = try LogImport(path: dir + "/app.log", keepsUnknown: false).apply(to: &imported, today: "2026-11-27")
        let fetches = summary.entries.filter { $0.shape.kind == .select }
        for entry in fetches where entry.rawReason != nil {
            #expect(
                RebuildReasons.documented.contains { entry.rawReason!.contains($0) }, "\(name) \(entry.workload.name): \(entry.rawReason!)")
        }
        #expect(summary.identical * 10 >= fetches.count * 7, "\(name): \(summary.identical) of \(fetches.count) rebuilt")
        let again = Set(try Self.issued(imported, variant: variant).flatMap(\.statements).map(StatementShape.of))
        // A follower the import reported as not issued (several requests with one keys-only
        // fetch and other batch sizes or faults become one workload) is the one exception.
        var reported: Set<String> = []
        for case .identicalButFollowers(let missing) in summary.outcomes.values { reported.formUnion(missing) }
        // A window's LIMIT is its batch's length (the last one shorter): compared without it.
        func bare(_ shape: String) -> String {
            guard shape.contains("_Z_intarray0"), let limit = shape.range(of: " LIMIT ", options: .backwards) else { return shape }
            return String(shape[..<limit.lowerBound])
        }
        let missing = Set(logged.map { bare(StatementShape.of($0)) }).subtracting(again.map(bare)).subtracting(reported.map(bare))
        #expect(missing.isEmpty, "\(name): not issued again, not reported:\n\(missing.sorted().joined(separator: "\n"))")
    }
}

/// The reasons docs/statement-shapes.md (9.1) gives for a statement that stays logged SQL.
enum RebuildReasons {
    static let documented = ["many-to-many", "join", "SUBQUERY", "subquery", "older", "other SQL", "fault", "without the fetch it follows"]
}
