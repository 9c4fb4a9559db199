import Foundation
import Testing
@testable import SchemaLabSQLite
import SchemaLabTestSupport

/// The flat buffers a dictionary fetch keeps its rows in give back every value as SQLite
/// returned it: each storage class, empty and non-ASCII text, blobs, NULLs, many rows.
@Suite("ValueTable: fetched rows kept as SQLite returned them")
struct ValueTableTests {
    /// Runs `body` on a new database in its own temporary directory, removed afterwards.
    func withDatabase(_ body: (Database) throws -> Void) throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(try Database(path: dir + "/v.sqlite"))
    }

    /// The rows of `sql` read through a ValueTable, as a dictionary fetch reads them (value by
    /// value, through its subscript).
    func tableRows(_ db: Database, _ sql: String) throws -> [[SQLValue]] {
        let s = try db.statement(sql)
        let table = ValueTable(columnCount: Int(s.columnCount))
        while try s.step() { table.appendRow(from: s) }
        s.reset()
        return (0..<table.rowCount).map { row in (0..<table.columnCount).map { table[row, $0] } }
    }

    @Test("Every storage class, edge values and 5,000 rows round-trip through the table")
    func roundTrip() throws {
        try withDatabase { db in
            try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB)")
            let rows: [[SQLValue]] =
                [
                    [.integer(Int64.min), .real(-0.5), .text(""), .blob([])],
                    [.integer(Int64.max), .real(.greatestFiniteMagnitude), .text("Straße É 🇫🇷"), .blob([0, 255, 7])],
                    [.null, .null, .null, .null],
                    [.integer(0), .real(1e-300), .text(String(repeating: "x", count: 70_000)), .blob(Array(repeating: 9, count: 3000))],
                ] + (0..<5000).map { i in [.integer(Int64(i)), .real(Double(i) / 3), .text("row \(i)"), .null] }
            try db.execute("BEGIN")
            for r in rows { try db.execute("INSERT INTO t VALUES (?, ?, ?, ?)", r) }
            try db.execute("COMMIT")
            let back = try tableRows(db, "SELECT i, r, s, b FROM t ORDER BY rowid")
            #expect(back.count == rows.count)
            for (i, (got, want)) in zip(back, rows).enumerated() where got != want {
                Issue.record("row \(i): \(got.map(\.description).joined(separator: ", ").prefix(200)) != expected")
            }
        }
    }

    @Test("A dictionary fetch's rows equal the same statement read value by value; a row of no columns counts")
    func matchesStatementValues() throws {
        try withDatabase { db in
            try db.execute("CREATE TABLE t (a, b)")
            for i in 0..<300 {
                try db.execute(
                    "INSERT INTO t VALUES (?, ?)",
                    [i % 3 == 0 ? .text("t\(i)") : .integer(Int64(i)), i % 5 == 0 ? .null : .real(Double(i))])
            }
            #expect(try tableRows(db, "SELECT a, b FROM t") == db.rows("SELECT a, b FROM t"))
            let empty = ValueTable(columnCount: 0)
            let s = try db.statement("SELECT a, b FROM t LIMIT 3")
            while try s.step() { empty.appendRow(from: s) }
            s.reset()
            #expect(empty.rowCount == 3)
        }
    }
}
