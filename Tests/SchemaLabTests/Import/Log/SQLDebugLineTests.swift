import Testing
@testable import SchemaLab

@Suite("SQLDebug log lines: Core Data's forms, with a console's prefixes and colours")
struct SQLDebugLineTests {
    @Test("a statement line, bare, after NSLog's prefix, after unified logging's category, in colour")
    func statementLines() {
        let sql = "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZITEM t0 WHERE  t0.ZNAME = ?"
        #expect(SQLDebugLine.parse(Substring("CoreData: sql: " + sql)) == .sql(sql))
        #expect(SQLDebugLine.parse(Substring("2014-07-31 15:29:04.797 App[73416:2971038] CoreData: sql: " + sql)) == .sql(sql))
        #expect(
            SQLDebugLine.parse(
                Substring("2020-06-01 10:00:00.123456+0200 0x1a2b Default 0x0 123 0 App: (CoreData) [com.apple.coredata:sql] " + sql))
                == .sql(sql))
        #expect(SQLDebugLine.parse(Substring("\u{1B}[1;34mCoreData: sql:\u{1B}[0m " + sql + "\r")) == .sql(sql))
    }

    @Test("binds of each form: a string, an integer, (int64), a real, nil, bytes, an object")
    func binds() {
        func bind(_ text: String) -> SQLDebugLine { SQLDebugLine.parse(Substring("CoreData: details: SQLite bind[2] = " + text)) }
        #expect(bind("\"a \\\"b\\\" c\"") == .bind(index: 2, value: .text("a \\\"b\\\" c")))
        #expect(bind("42") == .bind(index: 2, value: .integer(42)))
        #expect(bind("(int64)7") == .bind(index: 2, value: .integer(7)))
        #expect(bind("627340800.5") == .bind(index: 2, value: .real(627_340_800.5)))
        #expect(bind("nil") == .bind(index: 2, value: .null))
        #expect(bind("<0a1b ff>") == .bind(index: 2, value: .bytes([0x0A, 0x1B, 0xFF])))
        #expect(bind("<NSManagedObject: 0x6000>") == .bind(index: 2, value: .unreadable("<NSManagedObject: 0x6000>")))
    }

    @Test("times, counts and level 2's summary (its SQL may hold quotes); other lines known or foreign")
    func annotations() {
        #expect(SQLDebugLine.parse("CoreData: annotation: sql connection fetch time: 0.0013s") == .connectionFetchTime(seconds: 0.0013))
        #expect(
            SQLDebugLine.parse("CoreData: annotation: total fetch execution time: 0.0021s for 12 rows.")
                == .fetchExecution(seconds: 0.0021, rows: 12))
        #expect(
            SQLDebugLine.parse("CoreData: annotation: total count request execution time: 0.0007s for count of 3.")
                == .countExecution(seconds: 0.0007, count: 3))
        #expect(
            SQLDebugLine.parse(
                "CoreData: annotation: fetch using NSSQLiteStatement <0x600000c8c0a0> on entity 'Item' with sql text 'SELECT 'x' FROM ZITEM t0' returned 12 rows"
            ) == .statementSummary(entity: "Item", sql: "SELECT 'x' FROM ZITEM t0", rows: 12, dumpFollows: false))
        #expect(
            SQLDebugLine.parse(
                "CoreData: annotation: fetch using NSSQLiteStatement <0x6> on entity 'Item' with sql text 'SELECT 1' returned 2 rows with values: ("
            ) == .statementSummary(entity: "Item", sql: "SELECT 1", rows: 2, dumpFollows: true))
        #expect(SQLDebugLine.parse("CoreData: annotation: Connecting to sqlite database file at \"/x.sqlite\"") == .otherCoreData)
        #expect(SQLDebugLine.parse("Loaded 12 items from the server") == .foreign)
        #expect(SQLDebugLine.parse("") == .foreign)
    }
}
