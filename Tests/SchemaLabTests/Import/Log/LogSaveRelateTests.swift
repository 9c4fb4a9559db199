import Foundation
import Testing
@testable import SchemaLab
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// A logged save of a post by an existing author (its INSERT binds the author's key, then the
/// author's version is written) comes back as an append of that entity, related through the
/// to-one the log binds, which issues the logged INSERT again.
@Suite("The log import: a save that relates a new object to an existing one")
struct LogSaveRelateTests {
    static let scenario = """
        {"format": 1, "name": "blog",
         "variants": [{"name": "as-is", "entities": [
           {"name": "Author", "attributes": [{"name": "name", "type": "string"}],
            "relationships": [{"name": "posts", "destination": "Post", "toMany": true, "inverse": "author"}]},
           {"name": "Post", "attributes": [{"name": "title", "type": "string"}],
            "relationships": [{"name": "author", "destination": "Author", "inverse": "posts"}]}]}],
         "dataset": {"seed": 5, "entity": "Author", "counts": [40],
           "fields": [{"field": "name", "generator": {"kind": "uuid", "prefix": "author-"}}],
           "related": [{"relationship": "posts", "fanOut": {"kind": "uniformInt", "min": 0, "max": 4},
             "fields": [{"field": "title", "generator": {"kind": "text", "minLength": 5, "maxLength": 30}}]}]},
         "workloads": [{"name": "authors", "kind": "fetch", "sort": ["name"]}]}
        """

    static func log(authorKey: String) -> String {
        [
            "CoreData: sql: BEGIN EXCLUSIVE",
            "CoreData: sql: INSERT INTO ZPOST(Z_PK, Z_ENT, Z_OPT, ZAUTHOR, ZTITLE) VALUES(?, ?, ?, ?, ?)",
            "CoreData: details: SQLite bind[0] = (int64)41", "CoreData: details: SQLite bind[1] = (int64)2",
            "CoreData: details: SQLite bind[2] = (int64)1", "CoreData: details: SQLite bind[3] = \(authorKey)",
            "CoreData: details: SQLite bind[4] = \"Hello\"",
            "CoreData: sql: UPDATE OR FAIL ZAUTHOR SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
            "CoreData: sql: COMMIT",
        ].joined(separator: "\n") + "\n"
    }

    /// The blog scenario with the log of one save, whose INSERT binds `authorKey`, imported.
    static func imported(authorKey: String) throws -> (scenario: Scenario, summary: LogImport.Summary) {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try scenario.write(toFile: dir + "/blog.json", atomically: true, encoding: .utf8)
        try log(authorKey: authorKey).write(toFile: dir + "/app.log", atomically: true, encoding: .utf8)
        var loaded = try ScenarioDecoder.load(path: dir + "/blog.json")
        let summary = try LogImport(path: dir + "/app.log", keepsUnknown: false).apply(to: &loaded, today: "2026-11-27")
        return (loaded, summary)
    }

    @Test("an INSERT binding the author's key: an append of Post relating 'author'; its statement issued identical")
    func relatesTheBoundToOne() throws {
        let (scenario, summary) = try Self.imported(authorKey: "(int64)7")
        let append = try #require(scenario.workloads.first { $0.kind == .append })
        #expect(append.entity == "Post")
        #expect(append.relate == ["author"])
        #expect(append.count == 1)
        #expect(summary.outcomes[append.name] == .identical, "\(String(describing: summary.outcomes[append.name]))")
        // The author's version is not a workload of its own: the append writes it.
        #expect(!scenario.workloads.contains { $0.kind == .update })
        let result = try Lab.run(scenario, options: RunOptions(sizes: [40], repetitions: 1, warmup: 0))
        #expect(result.failures.isEmpty)
        let issued = try #require(result.cases.first { $0.workload == append.name }).plans.map(\.sql)
        #expect(issued.contains("UPDATE OR FAIL ZAUTHOR SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"))
    }

    @Test("an INSERT whose author key is NULL relates nothing")
    func nullKeyRelatesNothing() throws {
        let (scenario, _) = try Self.imported(authorKey: "NULL")
        let append = try #require(scenario.workloads.first { $0.kind == .append })
        #expect(append.entity == "Post" && append.relate.isEmpty)
    }
}
