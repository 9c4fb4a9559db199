import Foundation
import Synchronization
import Testing
@testable import SchemaLab
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// The fidelity suite: statements Core Data itself logged, from public sources, each with a
/// scenario that reconstructs its model and request (`Fixtures/Fidelity`). Every scenario is
/// run through the real CLI; each logged statement must be among those its workload issued
/// (for an entry without a workload: the variant's DDL or the statements of opening a store).
/// An entry with a `difference` is a known departure: the logged statement must NOT be issued
/// (so that a departure that went away is noticed) and the lab's own statement must be.
@Suite("Fidelity: the lab's SQL against statements Core Data logged")
struct FidelityTests {
    static let directory = TestSupport.packageRoot + "/Tests/Fixtures/Fidelity"

    struct Entry: Decodable {
        struct Difference: Decodable {
            var kind: String
            var reason: String
            var lab: String
        }
        var id: String
        var source: String
        var year: Int
        var scenario: String
        var variant: String
        var workload: String?
        var sql: String
        var difference: Difference?
    }

    struct Fixture: Decodable {
        var statements: [Entry]
    }

    static func fixture() throws -> [Entry] {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/statements.json"))
        return try JSONDecoder().decode(Fixture.self, from: data).statements
    }

    /// SQL as tokens, by the rule the log import's round trip uses (`StatementShape`): whitespace
    /// runs never matter, a trailing `;` is dropped, an `IN` list of markers is `(?,…)`.
    static func normalize(_ sql: String) -> String { StatementShape.of(sql) }

    /// The statements a run of `scenario` issued, by "variant/workload", plus "variant/" for
    /// the variant's DDL and the statements of opening its store.
    static func issued(scenario name: String, in directory: String) throws -> [String: Set<String>] {
        try IssuedStatements.collect(scenario: Self.directory + "/\(name).json", size: 30, in: directory, normalize: normalize)
    }

    @Test("the normalization ignores whitespace only")
    func normalization() {
        #expect(
            Self.normalize("SELECT COUNT( t1.Z_PK) FROM ZITEM t0 WHERE  t0.Z_PK = ?")
                == Self.normalize("SELECT COUNT(t1.Z_PK) FROM ZITEM t0 WHERE t0.Z_PK = ?"))
        #expect(Self.normalize("VALUES(?,?,?)") == Self.normalize("VALUES(?, ?, ?)"))
        #expect(Self.normalize("SET A = 1 , B = 2") == Self.normalize("SET A = 1, B = 2"))
        #expect(Self.normalize("WHERE a > ?") != Self.normalize("WHERE a >= ?"))
        #expect(Self.normalize("ORDER BY t0.ZNAME, t0.Z_PK") != Self.normalize("ORDER BY t0.Z_PK, t0.ZNAME"))
        #expect(Self.normalize("(a AND b) AND c") != Self.normalize("(a AND b AND c)"))
    }

    @Test("the suite has at least 30 logged statements, each with a named source, and every departure says why")
    func fixtureShape() throws {
        let entries = try Self.fixture()
        #expect(entries.filter { $0.difference == nil }.count >= 30)
        #expect(Set(entries.map(\.id)).count == entries.count, "entry ids are unique")
        for e in entries {
            #expect(e.source.count > 20 && (2009...2026).contains(e.year), "\(e.id): a source and its year")
            #expect(FileManager.default.fileExists(atPath: Self.directory + "/\(e.scenario).json"), "\(e.id): scenario \(e.scenario)")
            if let d = e.difference {
                #expect(
                    ["older Core Data", "lab departure"].contains(d.kind) && d.reason.count > 40, "\(e.id): a departure's kind and reason")
            }
        }
    }

    @Test("every logged statement is one the lab issues for its reconstructed request; every recorded departure is real")
    func statementsMatch() throws {
        let entries = try Self.fixture()
        let scenarios = Set(entries.map(\.scenario)).sorted()
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let results = Mutex<[String: Result<[String: Set<String>], any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: scenarios.count) { i in
            let name = scenarios[i]
            let outcome = Result<[String: Set<String>], any Error>(catching: {
                let sub = dir + "/" + name
                try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
                return try Self.issued(scenario: name, in: sub)
            })
            results.withLock { $0[name] = outcome }
        }
        let issued = try results.withLock { r in try r.mapValues { try $0.get() } }
        var matched = 0
        for e in entries {
            let key = e.variant + "/" + (e.workload ?? "")
            guard let statements = issued[e.scenario]?[key] else {
                Issue.record("\(e.id): \(e.scenario) issued nothing for \(key)")
                continue
            }
            let logged = Self.normalize(e.sql)
            if let d = e.difference {
                #expect(!statements.contains(logged), "\(e.id): recorded as a departure, but the lab now issues Core Data's statement")
                #expect(
                    statements.contains(Self.normalize(d.lab)),
                    "\(e.id): the departure's statement is not what the lab issues:\n  \(statements.sorted().joined(separator: "\n  "))")
            } else if statements.contains(logged) {
                matched += 1
            } else {
                Issue.record(
                    "\(e.id) (\(e.source)): the lab does not issue\n  \(logged)\nfor \(e.scenario) \(key); it issues:\n  \(statements.sorted().joined(separator: "\n  "))"
                )
            }
        }
        #expect(matched >= 30)
    }
}
