import Foundation
import Testing
@testable import SchemaLab
import SchemaLabTestSupport

@Suite("Logged SQL: Core Data's SELECTs parsed, shapes compared by tokens")
struct LoggedSQLParserTests {
    @Test("a fetch with a to-one join, a predicate, a sort with a collation, a limit and an offset")
    func fetch() throws {
        let select = try LoggedSQLParser.select(
            "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZBOOK t0 LEFT OUTER JOIN ZAUTHOR t1 ON t0.ZAUTHOR = t1.Z_PK WHERE ( t0.ZYEAR > ? AND NSCoreDataLike( t1.ZNAME, ?, 1)) ORDER BY t1.ZNAME COLLATE NSCollateLocaleSensitive DESC, t0.Z_PK LIMIT 10 OFFSET 5"
        )
        #expect(select.table == "ZBOOK" && select.alias == "t0")
        #expect(select.columns.count == 4)
        #expect(
            select.joins == [
                .init(
                    outer: true, table: "ZAUTHOR", alias: "t1", left: .column(alias: "t0", name: "ZAUTHOR"),
                    right: .column(alias: "t1", name: "Z_PK"))
            ])
        #expect(
            select.whereClause
                == .parenthesized(
                    .binary(
                        "AND", .binary(">", .column(alias: "t0", name: "ZYEAR"), .parameter(0)),
                        .function("NSCoreDataLike", [.column(alias: "t1", name: "ZNAME"), .parameter(1), .integer(1)], distinct: false))))
        #expect(select.orderBy.map(\.descending) == [true, false])
        #expect(select.orderBy[0].collation == "NSCollateLocaleSensitive")
        #expect(select.limit == 10 && select.offset == 5)
    }

    @Test("IN lists, IN (SELECT * FROM _Z_intarray0), BETWEEN, IS NOT NULL, NOT, subqueries, COUNT(DISTINCT)")
    func expressions() throws {
        let window = try LoggedSQLParser.select(
            "SELECT 0, t0.Z_PK, t0.Z_OPT FROM ZNOTE t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0) LIMIT 20")
        guard case .inSelect(_, let inner, false)? = window.whereClause else {
            Issue.record("not an IN (SELECT …)")
            return
        }
        #expect(inner.table == "_Z_intarray0")
        let other = try LoggedSQLParser.select(
            "SELECT COUNT( DISTINCT t0.Z_PK) FROM ZAUTHOR t0 WHERE (t0.ZBORN BETWEEN ? AND ? AND t0.ZNAME IS NOT NULL AND NOT t0.ZID IN (?,?,?) AND (SELECT COUNT(t1.Z_PK) FROM ZBOOK t1 WHERE (t0.Z_PK = t1.ZAUTHOR) ) > ?)"
        )
        #expect(other.columns == [.function("COUNT", [.column(alias: "t0", name: "Z_PK")], distinct: true)])
        guard case .parenthesized(let conjunction)? = other.whereClause,
            case .binary("AND", _, .binary(">", .subquery, .parameter(5))) = conjunction
        else {
            Issue.record("the subquery comparison is not last: \(String(describing: other.whereClause))")
            return
        }
    }

    @Test("text the parser does not read is a failure with the reason, never a crash")
    func failures() {
        for sql in [
            "SELECT", "SELECT 0 FROM", "SELECT 'open FROM ZX", "SELECT 0, t0.Z_PK FROM ZX t0 WHERE", "UPDATE ZX SET Z_OPT = 1",
            "SELECT # FROM ZX",
        ] {
            #expect(throws: LoggedSQLParser.Failure.self, "\(sql)") { try LoggedSQLParser.select(sql) }
        }
    }

    @Test("every SELECT of the fidelity suite (statements Core Data logged) parses")
    func fidelityStatementsParse() throws {
        struct Entry: Decodable { var id: String; var sql: String }
        struct Fixture: Decodable { var statements: [Entry] }
        let data = try Data(contentsOf: URL(fileURLWithPath: TestSupport.packageRoot + "/Tests/Fixtures/Fidelity/statements.json"))
        let selects = try JSONDecoder().decode(Fixture.self, from: data).statements.filter { $0.sql.hasPrefix("SELECT") }
        #expect(selects.count >= 20)
        for entry in selects {
            #expect(throws: Never.self, "\(entry.id)") { try LoggedSQLParser.select(entry.sql) }
        }
    }

    @Test("shapes: whitespace and IN list lengths do not count; everything else does")
    func shapes() {
        #expect(
            StatementShape.of("SELECT COUNT( t1.Z_PK) FROM ZITEM t0 WHERE  t0.Z_PK = ?")
                == StatementShape.of("SELECT COUNT(t1.Z_PK) FROM ZITEM t0 WHERE t0.Z_PK = ?"))
        #expect(StatementShape.of("WHERE t0.ZID IN (?, ?, ?)") == StatementShape.of("WHERE t0.ZID IN (?)"))
        #expect(StatementShape.of("VALUES(?,?,?)") == StatementShape.of("VALUES(?, ?, ?)"))
        #expect(StatementShape.of("WHERE a > ?") != StatementShape.of("WHERE a >= ?"))
        #expect(StatementShape.of("ORDER BY t0.ZNAME, t0.Z_PK") != StatementShape.of("ORDER BY t0.Z_PK, t0.ZNAME"))
        #expect(StatementShape.of("(a AND b) AND c") != StatementShape.of("(a AND b AND c)"))
        #expect(StatementShape.of("SELECT 1;") == StatementShape.of("SELECT 1"))
    }
}
