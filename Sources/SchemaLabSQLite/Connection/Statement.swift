import CSQLite

/// A prepared statement. Owned by its ``Database``'s statement cache, finalized on deinit.
///
/// Every result code is checked right after the call; a failure throws a
/// ``SQLiteError`` that carries the statement's SQL.
public final class Statement {
    @usableFromInline let handle: OpaquePointer
    /// `unowned(unsafe)`: a statement never outlives its database (the database's cache
    /// owns it, and uncached ones live inside a call on the database), and a checked
    /// `unowned` costs two atomic operations on every step (seen under callgrind).
    @usableFromInline unowned(unsafe) let database: Database
    /// The SQL text this statement was prepared from.
    public let sql: String
    /// True between the first `step()` of an execution and `reset()`.
    @usableFromInline @exclusivity(unchecked) var running = false
    /// True when the statement writes nothing (`sqlite3_stmt_readonly`: COMMIT and a deferred
    /// BEGIN count as read-only, BEGIN EXCLUSIVE does not; the transaction tracking does not
    /// rely on it, it only spares the clock reads for autocommit reads).
    @usableFromInline let isReadOnly: Bool
    /// For the current execution: whether it began in autocommit mode, and when (ns) if it writes.
    @usableFromInline @exclusivity(unchecked) var beganInAutocommit = false
    @usableFromInline @exclusivity(unchecked) var writeStart: UInt64 = 0
    /// The statement-log generation in which this statement last ran (see ``Database/beginStatementLog()``).
    @usableFromInline @exclusivity(unchecked) var loggedGeneration = -1
    /// The values bound, by parameter, kept while the database traces (SQLite keeps bindings
    /// across resets, and so does this).
    @usableFromInline @exclusivity(unchecked) var bound: [SQLValue] = []

    init(database: Database, sql: String) throws {
        self.database = database
        self.sql = sql
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw SQLiteError(code: rc, message: database.lastErrorMessage, sql: sql)
        }
        handle = stmt
        isReadOnly = sqlite3_stmt_readonly(stmt) != 0
    }

    deinit { sqlite3_finalize(handle) }

    /// True when the statement writes nothing to the database (`sqlite3_stmt_readonly`): what
    /// tells a query from a write when a statement comes from elsewhere (a `sql` workload).
    package var readsOnly: Bool { isReadOnly }

    /// Number of `?` parameters.
    @inlinable public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }
    /// Number of result columns.
    @inlinable public var columnCount: Int32 { sqlite3_column_count(handle) }

    // MARK: Binding (1-based parameter indexes, as in SQLite)

    @inlinable @inline(__always)
    func check(_ rc: Int32) throws {
        if rc != SQLITE_OK { throw SQLiteError(code: rc, message: database.lastErrorMessage, sql: sql) }
    }

    @usableFromInline func record(_ value: SQLValue, at index: Int32) {
        let i = Int(index) - 1
        if bound.count <= i { bound += repeatElement(SQLValue.null, count: i - bound.count + 1) }
        bound[i] = value
    }

    @inlinable public func bind(_ value: Int64, at index: Int32) throws {
        if database.tracing { record(.integer(value), at: index) }
        try check(sqlite3_bind_int64(handle, index, value))
    }

    @inlinable public func bind(_ value: Double, at index: Int32) throws {
        if database.tracing { record(.real(value), at: index) }
        try check(sqlite3_bind_double(handle, index, value))
    }

    @inlinable public func bind(_ value: String, at index: Int32) throws {
        if database.tracing { record(.text(value), at: index) }
        var value = value
        let rc = value.withUTF8 { buf -> Int32 in
            buf.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_bind_text(
                    handle, index, chars.baseAddress ?? UnsafePointer(bitPattern: 1), Int32(chars.count),
                    schemalab_sqlite_transient())
            }
        }
        try check(rc)
    }

    @inlinable public func bind(_ value: SQLValue, at index: Int32) throws {
        switch value {
        case .null:
            if database.tracing { record(.null, at: index) }
            try check(sqlite3_bind_null(handle, index))
        case .integer(let v): try bind(v, at: index)
        case .real(let v): try bind(v, at: index)
        case .text(let v): try bind(v, at: index)
        case .blob(let bytes):
            if database.tracing { record(value, at: index) }
            let rc = bytes.withUnsafeBytes { buf in
                sqlite3_bind_blob(handle, index, buf.baseAddress, Int32(buf.count), schemalab_sqlite_transient())
            }
            try check(rc)
        }
    }

    /// Binds values to parameters 1...n.
    @inlinable public func bind(_ values: [SQLValue]) throws {
        for (i, v) in values.enumerated() { try bind(v, at: Int32(i + 1)) }
    }

    // MARK: Execution

    /// Advances the statement. Returns true when a row is available, false when done.
    ///
    /// Inlinable with its per-row path only: the first step of an execution (counting it,
    /// tracing its bindings, starting the write clock) and the end of it are calls, so that
    /// every caller, in any module, steps rows without a call of ours.
    @inlinable @discardableResult
    public func step() throws -> Bool {
        if !running { beginExecution() }
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        return try finishExecution(rc)
    }

    /// The first step of an execution: counted, logged, traced, and its transaction noted.
    @inlinable func beginExecution() {
        running = true
        database.noteExecution(of: self)
        if database.tracing {
            let n = Int(parameterCount)
            if bound.count < n { bound += repeatElement(SQLValue.null, count: n - bound.count) }
            database.trace.append(sql: sql, bindings: bound.prefix(n))
        }
        beganInAutocommit = database.isAutocommit
        writeStart = beganInAutocommit && !isReadOnly ? Clock.wallNanoseconds() : 0
    }

    /// After the last row (`SQLITE_DONE`: returns false) or an error (throws it).
    @usableFromInline func finishExecution(_ rc: Int32) throws -> Bool {
        if rc == SQLITE_DONE {
            if isReadOnly || writeStart != 0 {
                database.noteFinished(self, wasAutocommit: beganInAutocommit, start: writeStart)
            }
            return false
        }
        let message = database.lastErrorMessage
        sqlite3_reset(handle)
        running = false
        database.noteFinished(self, wasAutocommit: beganInAutocommit, start: writeStart)
        throw SQLiteError(code: rc, message: message, sql: sql)
    }

    /// Resets the statement so it can run again (bindings are kept).
    @inlinable public func reset() {
        sqlite3_reset(handle)
        running = false
    }

    /// Runs the statement to completion, ignoring rows, then resets it.
    public func run(_ values: [SQLValue] = []) throws {
        if !values.isEmpty { try bind(values) }
        defer { reset() }
        while try step() {}
    }

    // MARK: Columns (0-based, as in SQLite)

    @inlinable public func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    @inlinable public func double(at column: Int32) -> Double { sqlite3_column_double(handle, column) }
    @inlinable public func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    @inlinable public func text(at column: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        let n = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// The column's value in its storage class.
    @inlinable public func value(at column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT: return text(at: column).map(SQLValue.text) ?? .null
        case SQLITE_BLOB:
            let n = Int(sqlite3_column_bytes(handle, column))
            guard n > 0, let p = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: p, count: n)))
        default: return .null
        }
    }

    // MARK: Counters

    func counters(reset: Bool) -> StatementCounters {
        let r: Int32 = reset ? 1 : 0
        var c = StatementCounters()
        c.vmSteps = Int64(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_VM_STEP, r))
        c.fullscanSteps = Int64(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_FULLSCAN_STEP, r))
        c.sorts = Int64(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_SORT, r))
        c.autoindex = Int64(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_AUTOINDEX, r))
        return c
    }
}
