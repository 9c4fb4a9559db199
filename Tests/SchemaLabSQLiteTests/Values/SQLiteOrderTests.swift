import Foundation
import Testing
@testable import SchemaLabSQLite
import SchemaLabTestSupport

/// The lab's one sort of values (a result signature's rows, an update-or-insert's sorted
/// merge) must put values where SQLite's ORDER BY puts them, integers above 2^53 included:
/// compared as doubles, 2^53 and 2^53 + 1 are equal, and a copy of the rule that did so
/// disagreed with the exact one.
@Suite("SQLiteOrder: the order of SQLite's ORDER BY")
struct SQLiteOrderTests {
    static let twoTo53: Int64 = 1 << 53

    /// Values of every storage class, with integers and reals on both sides of 2^53 and of Int64's range.
    static let values: [SQLValue] = [
        .integer(twoTo53 + 1), .real(Double(twoTo53)), .integer(twoTo53), .integer(twoTo53 - 1), .real(Double(twoTo53) + 2),
        .integer(Int64.max), .real(9.3e18), .integer(Int64.min), .real(-9.3e18), .real(-0.5), .integer(0), .real(0.5),
        .null, .text("b"), .text("a"), .text("ab"), .text(""), .text("É"), .blob([1]), .blob([]), .blob([0, 255]), .integer(-1),
        .real(-1), .integer(Int64.max - 1), .real(9_223_372_036_854_775_807.0),
    ]

    @Test("Sorting with SQLiteOrder gives SQLite's ORDER BY, integers above 2^53 included")
    func matchesSQLite() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = try Database(path: dir + "/order.sqlite")
        try db.execute("CREATE TABLE t (v)")
        for value in Self.values { try db.execute("INSERT INTO t VALUES (?)", [value]) }
        // rowid breaks ties, so both orders are total.
        let sqlite = try db.rows("SELECT v, rowid FROM t ORDER BY v, rowid").map { $0[0] }
        let ours = Self.values.enumerated().sorted { a, b in
            let order = SQLiteOrder.compare(a.element, b.element)
            return order != 0 ? order < 0 : a.offset < b.offset
        }.map(\.element)
        #expect(ours == sqlite)
    }

    @Test("Integers and reals near 2^53 compare exactly, as sqlite3IntFloatCompare does")
    func exactNumbers() {
        #expect(SQLiteOrder.less(.integer(Self.twoTo53), .integer(Self.twoTo53 + 1)))
        #expect(!SQLiteOrder.less(.integer(Self.twoTo53 + 1), .integer(Self.twoTo53)))
        #expect(SQLiteOrder.compare(.integer(Self.twoTo53 + 1), .real(Double(Self.twoTo53))) == 1)
        #expect(SQLiteOrder.compare(.real(Double(Self.twoTo53)), .integer(Self.twoTo53)) == 0)
        #expect(SQLiteOrder.compare(.integer(Int64.max), .real(9_223_372_036_854_775_807.0)) == -1, "the real is 2^63")
        #expect(SQLiteOrder.precedes([.integer(1), .integer(Self.twoTo53)], [.integer(1), .integer(Self.twoTo53 + 1)]))
        #expect(SQLiteOrder.precedes([.integer(1)], [.integer(1), .null]), "a prefix sorts first")
    }
}
