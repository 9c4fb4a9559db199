import Foundation
import Testing
@testable import SchemaLabSQLite
import SchemaLabTestSupport

/// `_Z_intarray0`, the TEMP table of integers through which key lists are bound.
@Suite("Integer array: the _Z_intarray0 virtual table")
struct IntegerArrayTests {
    @Test("Every connection has it; a binding replaces the list, read whole and in order; IN reads it as a key list")
    func bindAndRead() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = try Database(path: dir + "/a.sqlite")
        try db.executeScript("CREATE TABLE T(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO T VALUES (1,'a'),(2,'b'),(3,'c'),(4,'d');")
        let array = try db.integerArray
        #expect(array.name == "_Z_intarray0")
        try array.bind([3, 1, 3, 9])
        #expect(array.count == 4)
        #expect(try db.rows("SELECT * FROM _Z_intarray0") == [[.integer(3)], [.integer(1)], [.integer(3)], [.integer(9)]])
        let select = try db.statement("SELECT name FROM T WHERE id IN (SELECT * FROM _Z_intarray0) ORDER BY id")
        var names: [String] = []
        while try select.step() { names.append(select.text(at: 0)!) }
        select.reset()
        #expect(names == ["a", "c"], "duplicates and unknown keys change nothing")
        try array.bind([Int64]())
        #expect(try db.rows("SELECT count(*) FROM _Z_intarray0") == [[.integer(0)]])
        try array.bind(Array(1...5000).map(Int64.init))
        #expect(try db.rows("SELECT count(*), sum(value) FROM _Z_intarray0") == [[.integer(5000), .integer(12_502_500)]])
    }

    @Test("A traced binding is replayed by the raw floor before the statements after it")
    func rawReplay() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let schema = "CREATE TABLE T(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO T VALUES (1,'a'),(2,'b'),(3,'c'),(4,'d');"
        let db = try Database(path: dir + "/a.sqlite")
        try db.executeScript(schema)
        db.beginTrace()
        let select = try db.statement("SELECT name FROM T WHERE id IN (SELECT * FROM _Z_intarray0)")
        try db.integerArray.bind([1, 2])
        try select.run()
        try db.integerArray.bind([4])
        try select.run()
        let trace = db.endTrace()
        #expect(trace.count == 4, "two bindings and two executions")
        #expect(trace.execution(0).bindings == [.integer(1), .integer(2)])
        let copy = try Database(path: dir + "/a.sqlite")
        let raw = try RawStepper(takingOver: copy)
        #expect(try raw.run(trace) == 3, "2 rows for [1, 2], then 1 for [4]: the second binding replaced the first")
    }
}
