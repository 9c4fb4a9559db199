import Foundation
import Testing
@testable import SchemaLab
import SchemaLabTestSupport

@Suite("The SQLDebug log reader: statements with their values, rows and times, from a noisy console")
struct SQLDebugLogReaderTests {
    static let log = """
        2014-07-31 15:29:04.797 App[73416:2971038] CoreData: annotation: Connecting to sqlite database file at "/tmp/App.sqlite"
        App started
        2014-07-31 15:29:04.800 App[73416:2971038] CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZITEM t0 WHERE  t0.ZNAME = ? ORDER BY t0.ZNAME
        2014-07-31 15:29:04.800 App[73416:2971038] CoreData: details: SQLite bind[0] = "Shoes"
        2014-07-31 15:29:04.801 App[73416:2971038] CoreData: annotation: sql connection fetch time: 0.0010s
        2014-07-31 15:29:04.801 App[73416:2971038] CoreData: annotation: fetch using NSSQLiteStatement <0x7f9> on entity 'Item' with sql text 'SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZITEM t0 WHERE  t0.ZNAME = ? ORDER BY t0.ZNAME' returned 2 rows with values: (
            "<NSSQLRow: 0x600> Item 1 Shoes",
            "<NSSQLRow: 0x601> Item 2 Shoes"
        )
        2014-07-31 15:29:04.802 App[73416:2971038] CoreData: annotation: total fetch execution time: 0.0020s for 2 rows.
        \u{1B}[32mCoreData: sql:\u{1B}[0m SELECT COUNT(*) FROM ZITEM t0
        CoreData: annotation: total count request execution time: 0.0004s for count of 7.
        CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 ORDER B
        """

    @Test("each statement with its binds, entity, rows and time; the dump skipped; a truncated last line still a statement")
    func readsStatements() {
        var statements: [LoggedStatement] = []
        let tally = SQLDebugLogReader.read(text: Self.log) { statements.append($0) }
        #expect(statements.count == 3)
        #expect(statements[0].binds == [.text("Shoes")])
        #expect(statements[0].entity == "Item")
        #expect(statements[0].rows == 2)
        #expect(statements[0].seconds == 0.002)
        #expect(statements[0].line == 3)
        #expect(statements[1].sql == "SELECT COUNT(*) FROM ZITEM t0")
        #expect(statements[1].rows == 7)
        #expect(statements[2].sql == "SELECT 0, t0.Z_PK FROM ZITEM t0 ORDER B")
        #expect(tally.lines == 13)
        #expect(tally.level == 3)
        #expect(tally.skipped == 1, "the app's line")
        #expect(tally.known == 4, "the connection line and the three lines of the dump")
        #expect(tally.recognized == 8)
        #expect(tally.statements == 3)
    }

    @Test("a file is read in chunks with the same result as the text, in bounded memory")
    func readsAFile() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/app.log"
        // Over two chunks of a megabyte: lines cut at a chunk's end must come back whole.
        let repeated = String(repeating: Self.log + "\n", count: 3_000)
        try repeated.write(toFile: path, atomically: true, encoding: .utf8)
        var fromFile = 0, fromText = 0
        let fileTally = try SQLDebugLogReader.read(path: path) { _ in fromFile += 1 }
        let textTally = SQLDebugLogReader.read(text: repeated) { _ in fromText += 1 }
        #expect(fromFile == fromText)
        #expect(fileTally == textTally)
        #expect(fromFile == 9_000)
    }

    @Test("a missing file is an error naming it")
    func missingFile() {
        #expect(throws: SQLDebugLogReader.Failure.self) { try SQLDebugLogReader.read(path: "/nonexistent/app.log") { _ in } }
    }
}

@Suite("The SQLDebug log reader's bounds")
struct SQLDebugLogReaderBoundTests {
    @Test("indented app output after a statement continues it only up to 64 KiB")
    func wrappedStatementsAreBounded() {
        let indented = String(repeating: "    {\"key\": \"value\"}\n", count: 10_000)
        var statements: [LoggedStatement] = []
        let tally = SQLDebugLogReader.read(text: "CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0\n" + indented) { statements.append($0) }
        #expect(statements.count == 1)
        #expect(statements[0].sql.utf8.count <= SQLDebugLogReader.maxWrappedStatement)
        #expect(tally.skipped > 0, "the lines past the bound are the app's")
    }
}
