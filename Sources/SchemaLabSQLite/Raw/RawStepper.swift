import CIntArray
import CSQLite

/// The SQLite floor: the same statements a workload ran, stepped with nothing but the
/// C API on a second connection — prepare once, bind, step every row, read every column
/// with `sqlite3_column_*` (text and blobs by pointer, no copies), reset. What the lab
/// adds on top of this (values, arrays, objects) is its overhead.
package final class RawStepper {
    private let handle: OpaquePointer
    /// The connection's `_Z_intarray0`, which recorded array bindings fill.
    private let integerArray: OpaquePointer
    @exclusivity(unchecked) private var prepared: [String: OpaquePointer] = [:]
    /// A checksum of everything read, so the reads cannot be optimized away.
    @exclusivity(unchecked) package private(set) var checksum: UInt64 = 0

    /// Opens a second connection to the store at `path`, with the lab's functions registered.
    package init(path: String) throws {
        let db = try Database(path: path)
        integerArray = try db.integerArray.array
        handle = db.detachHandle()
    }

    /// Takes over `db`'s connection (with its pragmas and functions); `db` must not be used after.
    package init(takingOver db: Database) throws {
        integerArray = try db.integerArray.array
        handle = db.detachHandle()
    }

    deinit {
        for s in prepared.values { sqlite3_finalize(s) }
        sqlite3_close_v2(handle)
    }

    /// Runs each statement once with its bindings; returns the rows stepped.
    @discardableResult
    package func run(_ statements: [(sql: String, bindings: [SQLValue])]) throws -> Int {
        var rows = 0
        for (sql, bindings) in statements {
            if RawTrace.arrayName(sql) != nil {
                try bindArray(bindings.map { if case .integer(let x) = $0 { x } else { 0 } })
                continue
            }
            let s = try statement(sql)
            try bind(bindings, to: s, sql: sql)
            rows += try stepAll(s, sql: sql, sum: &checksum)
        }
        return rows
    }

    /// Steps a recorded trace: each execution's statement (prepared once), its values bound
    /// from the trace's flat arrays, every row read as ``run(_:)`` reads it. Returns the rows.
    @discardableResult
    package func run(_ trace: RawTrace) throws -> Int {
        // Prepared before the run; one that names a table an earlier statement creates (the
        // temporary table a batch request's history triggers fill) is prepared at its first use.
        let isArray = trace.sqls.map { RawTrace.arrayName($0) != nil }
        var statements = trace.sqls.indices.map { isArray[$0] ? nil : try? statement(trace.sqls[$0]) }
        var rows = 0
        var sum = checksum
        var keys: [Int64] = []
        try trace.bytes.withUnsafeBufferPointer { bytes in
            let base = UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!)
            for e in 0..<trace.count {
                let index = Int(trace.executions[e])
                let s: OpaquePointer
                if let prepared = statements[index] {
                    s = prepared
                } else if !isArray[index] {
                    s = try statement(trace.sqls[index])
                    statements[index] = s
                } else {
                    // A recorded integer-array binding: fill `_Z_intarray0` for the statements after it.
                    keys.removeAll(keepingCapacity: true)
                    for j in Int(trace.valueStart[e])..<Int(trace.valueStart[e + 1]) {
                        keys.append(Int64(bitPattern: trace.numbers[j]))
                    }
                    try bindArray(keys)
                    continue
                }
                var p: Int32 = 1
                for j in Int(trace.valueStart[e])..<Int(trace.valueStart[e + 1]) {
                    let n = trace.numbers[j]
                    let rc: Int32
                    switch trace.kinds[j] {
                    case RawTrace.integer: rc = sqlite3_bind_int64(s, p, Int64(bitPattern: n))
                    case RawTrace.real: rc = sqlite3_bind_double(s, p, Double(bitPattern: n))
                    case RawTrace.text:
                        rc = sqlite3_bind_text(
                            s, p, (base + Int(n)).assumingMemoryBound(to: CChar.self), trace.lengths[j], schemalab_sqlite_transient())
                    case RawTrace.blob: rc = sqlite3_bind_blob(s, p, base + Int(n), trace.lengths[j], schemalab_sqlite_transient())
                    default: rc = sqlite3_bind_null(s, p)
                    }
                    if rc != SQLITE_OK {
                        throw SQLiteError(
                            code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: trace.sqls[Int(trace.executions[e])])
                    }
                    p += 1
                }
                rows += try stepAll(s, sql: trace.sqls[Int(trace.executions[e])], sum: &sum)
            }
        }
        checksum = sum
        return rows
    }

    /// Runs a write floor: the statements before, `rowSQL` once per row with that row's
    /// values bound, the statements after. Returns the rows written.
    @discardableResult
    package func run(_ floor: WriteFloor) throws -> Int {
        try run(floor.before)
        let s = try statement(floor.rowSQL)
        for row in floor.rows {
            try bind(row, to: s, sql: floor.rowSQL)
            let rc = sqlite3_step(s)
            guard rc == SQLITE_DONE else {
                let message = String(cString: sqlite3_errmsg(handle))
                sqlite3_reset(s)
                throw SQLiteError(code: rc, message: message, sql: floor.rowSQL)
            }
            sqlite3_reset(s)
        }
        try run(floor.after)
        return floor.rows.count
    }

    /// Steps `s` to the end, reading every column of every row into `sum` (text and blobs by
    /// pointer, no copies), and resets it. Returns the rows.
    @inline(__always)
    private func stepAll(_ s: OpaquePointer, sql: @autoclosure () -> String, sum: inout UInt64) throws -> Int {
        let columns = sqlite3_column_count(s)
        var rows = 0
        while true {
            let rc = sqlite3_step(s)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                let message = String(cString: sqlite3_errmsg(handle))
                sqlite3_reset(s)
                throw SQLiteError(code: rc, message: message, sql: sql())
            }
            rows += 1
            for c in 0..<columns {
                switch sqlite3_column_type(s, c) {
                case SQLITE_INTEGER: sum &+= UInt64(bitPattern: sqlite3_column_int64(s, c))
                case SQLITE_FLOAT: sum &+= sqlite3_column_double(s, c).bitPattern
                case SQLITE_TEXT:
                    if let t = sqlite3_column_text(s, c) { sum &+= UInt64(t.pointee) &+ UInt64(sqlite3_column_bytes(s, c)) }
                case SQLITE_BLOB: sum &+= UInt64(sqlite3_column_bytes(s, c))
                default: break
                }
            }
        }
        sqlite3_reset(s)
        return rows
    }

    /// Binds values to parameters 1...n with the bare C API.
    @inline(__always)
    private func bind(_ values: [SQLValue], to s: OpaquePointer, sql: String) throws {
        for (i, v) in values.enumerated() {
            let p = Int32(i + 1)
            let rc: Int32
            switch v {
            case .null: rc = sqlite3_bind_null(s, p)
            case .integer(let x): rc = sqlite3_bind_int64(s, p, x)
            case .real(let x): rc = sqlite3_bind_double(s, p, x)
            case .text(let t): rc = Self.bindText(s, p, t)
            case .blob(let b):
                rc = b.withUnsafeBytes { sqlite3_bind_blob(s, p, $0.baseAddress, Int32($0.count), schemalab_sqlite_transient()) }
            }
            if rc != SQLITE_OK { throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql) }
        }
    }

    /// Binds text by pointer and length (no C string is built: the floor copies no more
    /// than SQLite's own SQLITE_TRANSIENT copy).
    @inline(__always)
    private static func bindText(_ s: OpaquePointer, _ p: Int32, _ t: String) -> Int32 {
        var t = t
        return t.withUTF8 { buf in
            buf.withMemoryRebound(to: CChar.self) {
                sqlite3_bind_text(s, p, $0.baseAddress ?? UnsafePointer(bitPattern: 1), Int32($0.count), schemalab_sqlite_transient())
            }
        }
    }

    /// Replaces the contents of the connection's integer array.
    private func bindArray(_ keys: [Int64]) throws {
        let rc = keys.withUnsafeBufferPointer { schemalab_intarray_bind(integerArray, Int32($0.count), $0.baseAddress) }
        if rc != SQLITE_OK { throw SQLiteError(code: rc, message: "cannot bind \(keys.count) keys to the integer array") }
    }

    private func statement(_ sql: String) throws -> OpaquePointer {
        if let s = prepared[sql] { return s }
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
        prepared[sql] = stmt
        return stmt
    }
}
