import Foundation
import SchemaLabSQLite
import Testing
@testable import SchemaLabCoreData
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// A JSON value of the suite: a row's cell or a `%@` argument (a number, a string, nil, or an
/// array of them, for arguments).
private indirect enum SuiteValue: Decodable {
    case null, integer(Int64), real(Double), text(String), array([SuiteValue])

    init(from decoder: Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let i = try? single.decode(Int64.self) {
            self = .integer(i)
        } else if let d = try? single.decode(Double.self) {
            self = .real(d)
        } else if let s = try? single.decode(String.self) {
            self = .text(s)
        } else {
            self = .array(try single.decode([SuiteValue].self))
        }
    }

    var predicateValue: PredicateValue {
        switch self {
        case .null: return .null
        case .integer(let v): return .integer(v)
        case .real(let v): return .real(v)
        case .text(let v): return .string(v)
        case .array(let elements): return .array(elements.map(\.predicateValue))
        }
    }

    /// The value a cell stores (rows hold no arrays).
    var sqlValue: SQLValue { predicateValue.sqlValue ?? .null }
}

/// `Fixtures/PredicateSuite/suite.json`, written by `generate.py` there: the rows, each
/// predicate with the rows Core Data's SQL store selects, and the refusals with their column.
private struct PredicateSuite: Decodable {
    struct Case: Decodable {
        let predicate: String
        let entity: String
        let rows: [Int64]
        let arguments: [SuiteValue]?
        let source: String?
    }
    struct Refusal: Decodable {
        let predicate: String
        let entity: String
        let column: Int
        let message: String
        let arguments: [SuiteValue]?
    }
    let rows: [String: [[String: SuiteValue]]]
    let links: [[Int64]]
    let cases: [Case]
    let refusals: [Refusal]

    enum CodingKeys: String, CodingKey { case rows, cases, refusals }
    enum RowKeys: String, CodingKey { case Person, Pet, Club, links = "Person.clubs" }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let r = try c.nestedContainer(keyedBy: RowKeys.self, forKey: .rows)
        rows = [
            "Person": try r.decode([[String: SuiteValue]].self, forKey: .Person),
            "Pet": try r.decode([[String: SuiteValue]].self, forKey: .Pet),
            "Club": try r.decode([[String: SuiteValue]].self, forKey: .Club),
        ]
        links = try r.decode([[Int64]].self, forKey: .links)
        cases = try c.decode([Case].self, forKey: .cases)
        refusals = try c.decode([Refusal].self, forKey: .refusals)
    }

    static func load() throws -> PredicateSuite {
        let data = try Data(contentsOf: URL(fileURLWithPath: PredicateSuiteTests.folder + "/suite.json"))
        return try JSONDecoder().decode(PredicateSuite.self, from: data)
    }
}

/// Every predicate of the suite, compiled for a variant without indexes and one with an index on
/// every compared attribute, selects the rows the suite's evaluator (written apart from the
/// compiler, in `generate.py`) says Core Data's SQL store selects; every refusal fails at its column.
@Suite("Predicate suite: expected rows over a fixed data set, indexed and not")
struct PredicateSuiteTests {
    static let folder = TestSupport.packageRoot + "/Tests/Fixtures/PredicateSuite"

    /// The store of one variant with the suite's rows.
    private func store(_ model: ResolvedModel, _ suite: PredicateSuite, in dir: String) throws -> Store {
        let store = try Store.create(path: dir + "/\(model.variant).sqlite", model: model)
        for (entityName, rows) in suite.rows {
            let entity = model.entity(entityName)!
            for row in rows {
                var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
                var values: [SQLValue] = [row["pk"]!.sqlValue, .integer(Int64(entity.number)), .integer(1)]
                for (key, cell) in row where key != "pk" {
                    if let a = entity.attribute(key) {
                        columns.append(a.column)
                    } else {
                        columns.append(entity.relationship(key)!.foreignKeyColumn!)
                    }
                    values.append(cell.sqlValue)
                }
                let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
                try store.db.execute("INSERT INTO \(entity.table) (\(columns.joined(separator: ", "))) VALUES (\(marks))", values)
            }
        }
        let clubs = model.entity("Person")!.relationship("clubs")!
        guard case .joinTable(let table, let own, let other) = clubs.storage else { throw CocoaError(.featureUnsupported) }
        for link in suite.links {
            try store.db.execute("INSERT INTO \(table) (\(own), \(other)) VALUES (?, ?)", [.integer(link[0]), .integer(link[1])])
        }
        return store
    }

    @Test("At least 500 predicates select the expected rows, in the plain and the indexed variant")
    func expectedRows() throws {
        let suite = try PredicateSuite.load()
        #expect(suite.cases.count >= 500)
        #expect(
            Set(suite.cases.map { "\($0.entity) \($0.predicate) \(String(describing: $0.arguments.map { $0.map(\.predicateValue) }))" })
                .count == suite.cases.count)
        let plan = try TestSupport.decode(String(contentsOfFile: Self.folder + "/model.json", encoding: .utf8))
        #expect(plan.models.map(\.variant) == ["plain", "indexed"])
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var usedIndex = false
        for model in plan.models {
            let store = try store(model, suite, in: dir)
            var mismatches: [String] = []
            for c in suite.cases {
                do {
                    let (compiled, from) = try PredicateFixtures.compile(
                        model, c.entity, c.predicate, (c.arguments ?? []).map(\.predicateValue))
                    let sql = "SELECT t0.Z_PK \(from) WHERE \(compiled.sql) ORDER BY t0.Z_PK"
                    let rows = try store.db.rows(sql, compiled.bindings).map { $0[0].integerValue ?? -1 }
                    if rows != c.rows { mismatches.append("\(c.predicate): \(rows), expected \(c.rows) [\(compiled.sql)]") }
                    if model.variant == "indexed", !usedIndex {
                        let plan = try store.db.rows("EXPLAIN QUERY PLAN " + sql, compiled.bindings)
                        usedIndex = plan.contains { $0.last?.textValue?.contains("USING INDEX") == true }
                    }
                } catch {
                    mismatches.append("\(c.predicate): \(error)")
                }
            }
            #expect(
                mismatches.isEmpty, "\(model.variant): \(mismatches.count) of \(suite.cases.count)\n\(mismatches.joined(separator: "\n"))")
        }
        #expect(usedIndex, "the indexed variant's plans use an index for some predicate")
    }

    @Test("What Apple's parser or Core Data's SQL store refuses fails at its column with the reason")
    func refusals() throws {
        let suite = try PredicateSuite.load()
        let model = try TestSupport.decode(String(contentsOfFile: Self.folder + "/model.json", encoding: .utf8)).models[0]
        for r in suite.refusals {
            do {
                _ = try PredicateFixtures.compile(model, r.entity, r.predicate, (r.arguments ?? []).map(\.predicateValue))
                Issue.record("\(r.predicate) was accepted")
            } catch let e as SchemaLabCoreData.PredicateError {
                #expect(e.column == r.column, "\(r.predicate): \(e)")
                #expect(e.message.contains(r.message), "\(r.predicate): \(e)")
            }
        }
    }
}

/// A Float attribute holds its value as a 32-bit float does, so the store holds the widened double.
@Suite("Float attributes")
struct FloatAttributeTests {
    @Test("1.7 is saved as 1.7000000476837158 on insert and on update; == 1.7 finds nothing, == the float's value finds it")
    func floatStorage() throws {
        let plan = try TestSupport.decode(String(contentsOfFile: PredicateSuiteTests.folder + "/model.json", encoding: .utf8))
        let model = plan.models[0]
        let mom = ManagedObjectModel(model)
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try Store.create(path: dir + "/store.sqlite", model: model)
        let context = ManagedObjectContext(store: store, objectModel: mom)
        let person = mom.entity("Person")!
        let weight = person.model.attributes.firstIndex { $0.name == "weight" }!
        var values = Array(repeating: SQLValue.null, count: person.model.attributes.count)
        values[weight] = .real(1.7)
        let first = context.insert(person, values: values)
        let second = context.insert(person, values: values)
        try context.save()
        try context.set(second, attribute: weight, to: .real(2.3))
        try context.save()
        #expect(Double(Float(1.7)) == 1.7000000476837158)
        #expect(try store.db.scalar("SELECT ZWEIGHT FROM ZPERSON WHERE Z_PK = ?", [.integer(first.objectID)]) == .real(1.7000000476837158))
        #expect(try store.db.scalar("SELECT ZWEIGHT FROM ZPERSON WHERE Z_PK = ?", [.integer(second.objectID)]) == .real(Double(Float(2.3))))
        for (argument, expected) in [(PredicateValue.real(1.7), 0), (.real(Double(Float(1.7))), 1)] {
            let (compiled, from) = try PredicateFixtures.compile(model, "Person", "weight == %@", [argument])
            #expect(try store.db.rows("SELECT t0.Z_PK \(from) WHERE \(compiled.sql)", compiled.bindings).count == expected)
        }
    }
}
