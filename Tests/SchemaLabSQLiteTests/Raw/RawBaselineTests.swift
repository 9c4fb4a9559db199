import Foundation
import Testing
@testable import SchemaLabSQLite
import SchemaLabTestSupport

/// The raw baseline: a connection's executions recorded with their bindings, replayed with
/// the bare C API into a fresh store with the same effect.
@Suite("Raw baseline: traced statements replayed with the bare C API")
struct RawBaselineTests {
    @Test("A trace keeps each execution's SQL and bindings, and its replay writes the same rows")
    func traceAndReplay() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let schema = "CREATE TABLE T(id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB)"
        let db = try Database(path: dir + "/a.sqlite")
        try db.executeScript(schema)
        db.beginTrace()
        try db.execute("BEGIN")
        let insert = try db.statement("INSERT INTO T(id, name, score, data) VALUES (?, ?, ?, ?)")
        try insert.run([.integer(1), .text("a"), .real(1.5), .blob([1, 2])])
        try insert.run([.integer(2), .null, .real(2.5), .blob([3])])
        try insert.bind(Int64(3), at: 1)  // the other parameters keep their last values, as in SQLite
        try insert.run()
        try db.execute("COMMIT")
        _ = try db.statement("SELECT count(*) FROM T WHERE score > ?").run([.real(2)])
        let trace = db.endTrace()
        #expect(
            (0..<trace.count).map { trace.execution($0).sql } == [
                "BEGIN", insert.sql, insert.sql, insert.sql, "COMMIT", "SELECT count(*) FROM T WHERE score > ?",
            ])
        #expect(trace.sqls.count == 4, "each distinct statement once")
        #expect(trace.execution(1).bindings == [.integer(1), .text("a"), .real(1.5), .blob([1, 2])])
        #expect(trace.execution(3).bindings == [.integer(3), .null, .real(2.5), .blob([3])])
        #expect(trace.execution(5).bindings == [.real(2)])
        try db.execute("INSERT INTO T(id) VALUES (9)")
        #expect(db.endTrace().isEmpty, "nothing is recorded after endTrace")

        let copy = try Database(path: dir + "/b.sqlite")
        try copy.executeScript(schema)
        let raw = try RawStepper(takingOver: copy)
        #expect(try raw.run(trace) == 1, "the SELECT's one row")
        let check = try Database(path: dir + "/b.sqlite")
        #expect(
            try check.rows("SELECT id, name, score, data FROM T ORDER BY id") == [
                [.integer(1), .text("a"), .real(1.5), .blob([1, 2])], [.integer(2), .null, .real(2.5), .blob([3])],
                [.integer(3), .null, .real(2.5), .blob([3])],
            ])
    }
}
