import CSQLite
import CSQLiteConfig
import Synchronization

/// One SQLite connection, with a cache of prepared statements and a log of the
/// distinct statements it ran since ``beginStatementLog()``.
///
/// This folder (`SQLite/`) is the only one that talks to the C API: the rest of
/// the lab speaks SQL strings and ``SQLValue``s through this class.
public final class Database {
    @usableFromInline let handle: OpaquePointer
    /// False once ``detachHandle()`` handed the connection to another owner.
    @exclusivity(unchecked) private var ownsHandle = true
    /// The file path, or `:memory:`.
    public let path: String
    @exclusivity(unchecked) private var cache: [String: Statement] = [:]
    @usableFromInline @exclusivity(unchecked) var logGeneration = 0
    @usableFromInline @exclusivity(unchecked) var log: [String] = []
    /// Statements executed (first `step()` after a reset) since the counter was last reset.
    public var executions: Int { executionCount }
    @usableFromInline @exclusivity(unchecked) var executionCount = 0
    /// The longest write transaction since the counters were last reset (nanoseconds): from
    /// BEGIN to COMMIT or ROLLBACK, or one writing statement in autocommit mode. How long
    /// this connection held the write lock at most (BEGIN EXCLUSIVE takes it at BEGIN).
    @exclusivity(unchecked) public private(set) var longestWriteNanoseconds: UInt64 = 0
    /// When the open explicit transaction began (wall clock, ns).
    @exclusivity(unchecked) private var transactionStart: UInt64 = 0
    /// True between ``beginTrace()`` and ``endTrace()``: every execution is recorded with its bindings.
    @usableFromInline @exclusivity(unchecked) var tracing = false
    /// The executions recorded since ``beginTrace()``.
    @usableFromInline @exclusivity(unchecked) var trace = RawTrace()

    /// The connection's integer array, `_Z_intarray0` (see ``IntegerArray``), created when the
    /// connection opens; if the file could not take it then (it is not a database, which the
    /// first statement will say), on first use.
    public var integerArray: IntegerArray {
        get throws {
            if let a = integerArrayStorage { return a }
            let a = try IntegerArray(database: self, handle: handle, name: IntegerArray.coreDataName)
            integerArrayStorage = a
            return a
        }
    }
    @exclusivity(unchecked) private var integerArrayStorage: IntegerArray?

    /// Opens (creating if needed) the database at `path`, registers Core Data's SQL
    /// functions and collations on it (see `CoreDataFunctions`) and creates its integer
    /// array `_Z_intarray0` in the TEMP schema (outside every statement log).
    public convenience init(path: String) throws {
        try self.init(path: path, untrusted: Self.isUntrusted(path))
    }

    /// The files that came from elsewhere (the copy of a store given to `run --store` or
    /// `import`): every connection to one is opened with the defensive settings, whoever opens it.
    private static let untrustedFiles = Mutex<Set<String>>([])

    /// Marks the database file at `path` as from elsewhere (see ``init(path:untrusted:)``).
    public static func markUntrusted(_ path: String) {
        untrustedFiles.withLock { _ = $0.insert(path) }
    }

    /// True when `path` was marked as from elsewhere.
    public static func isUntrusted(_ path: String) -> Bool {
        untrustedFiles.withLock { $0.contains(path) }
    }

    /// Opens the database at `path`; with `untrusted` (a store from elsewhere: `import`,
    /// `run --store`), with SQLite's defensive settings first: `SQLITE_DBCONFIG_DEFENSIVE` (no
    /// writes to the schema or pages by hand), the schema not trusted
    /// (`SQLITE_DBCONFIG_TRUSTED_SCHEMA` off: a view or trigger in the file cannot call the
    /// lab's registered functions, none of which is marked innocuous) and no extension loading.
    public init(path: String, untrusted: Bool) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: "\(message) (path \(path))")
        }
        if untrusted {
            for (op, value) in [
                (SQLITE_DBCONFIG_DEFENSIVE, 1), (SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0), (SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0),
            ] {
                var now: Int32 = -1
                let rc = schemalab_db_config_int(db, op, Int32(value), &now)
                guard rc == SQLITE_OK, now == Int32(value) else {
                    sqlite3_close_v2(db)
                    throw SQLiteError(code: rc, message: "cannot set the defensive setting \(op) (path \(path))")
                }
            }
        }
        // Core Data's SQL functions and collations, on every connection.
        do {
            try CoreDataFunctions.register(on: db)
        } catch {
            sqlite3_close_v2(db)
            throw error
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        _ = StatementWatchdog.live.withLock { $0.insert(UInt(bitPattern: db)) }
        integerArrayStorage = try? IntegerArray(database: self, handle: db, name: IntegerArray.coreDataName)
    }

    deinit {
        cache.removeAll()
        // Out of the watchdog's list before it closes: an interrupt never reaches a closed handle.
        StatementWatchdog.live.withLock { _ = $0.remove(UInt(bitPattern: handle)) }
        if ownsHandle { sqlite3_close_v2(handle) }
    }

    /// Hands the open connection (with its registered functions) to a caller that closes it.
    func detachHandle() -> OpaquePointer {
        cache.removeAll()
        ownsHandle = false
        return handle
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE (`sqlite3_changes`).
    public var changes: Int { Int(sqlite3_changes(handle)) }

    @usableFromInline var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// A prepared statement for `sql`, from the cache or newly prepared.
    public func statement(_ sql: String) throws -> Statement {
        if let s = cache[sql] { return s }
        let s = try Statement(database: self, sql: sql)
        cache[sql] = s
        return s
    }

    /// Runs one statement to completion through the cache (so it is counted and logged).
    public func execute(_ sql: String, _ values: [SQLValue] = []) throws {
        try statement(sql).run(values)
    }

    /// Runs a script of one or more statements with `sqlite3_exec`, outside the
    /// statement cache: for DDL and set-up, never inside a measured region.
    public func executeScript(_ sql: String) throws {
        var err: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &err)
        if rc != SQLITE_OK {
            let message = err.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(err)
            throw SQLiteError(code: rc, message: message, sql: sql)
        }
    }

    /// All rows of a query, as values (set-up and inspection only; not for hot paths).
    public func rows(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        let s = try Statement(database: self, sql: sql)
        try s.bind(values)
        var out: [[SQLValue]] = []
        while try s.step() {
            out.append((0..<s.columnCount).map { s.value(at: $0) })
        }
        s.reset()
        return out
    }

    /// The first column of the first row, or `.null`.
    public func scalar(_ sql: String, _ values: [SQLValue] = []) throws -> SQLValue {
        try rows(sql, values).first?.first ?? .null
    }

    // MARK: Statement log and counters

    /// Whether the connection is outside an explicit transaction.
    @inlinable var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Called when a statement that began in autocommit mode (`wasAutocommit`) at `start`
    /// (ns; 0 when not timed) finished: tracks transactions for ``longestWriteNanoseconds``.
    @usableFromInline func noteFinished(_ statement: Statement, wasAutocommit: Bool, start: UInt64) {
        let now = isAutocommit
        if wasAutocommit && !now {
            transactionStart = Clock.wallNanoseconds()
        } else if !wasAutocommit && now {
            longestWriteNanoseconds = max(longestWriteNanoseconds, Clock.wallNanoseconds() &- transactionStart)
        } else if wasAutocommit && start != 0 {
            longestWriteNanoseconds = max(longestWriteNanoseconds, Clock.wallNanoseconds() &- start)
        }
    }

    /// Makes a statement that finds the database locked retry for up to `milliseconds`
    /// (`sqlite3_busy_timeout`) instead of failing at once with SQLITE_BUSY.
    public func setBusyTimeout(milliseconds: Int) {
        sqlite3_busy_timeout(handle, Int32(milliseconds))
    }

    @inlinable func noteExecution(of statement: Statement) {
        executionCount += 1
        if statement.loggedGeneration != logGeneration {
            statement.loggedGeneration = logGeneration
            log.append(statement.sql)
        }
    }

    /// Starts recording every statement this connection executes, with the values bound to
    /// it, for the raw baseline (outside any timed region: recording costs time).
    public func beginTrace() {
        tracing = true
        trace = RawTrace()
    }

    /// Stops recording and returns the executions, in order, each with its bindings.
    public func endTrace() -> RawTrace {
        tracing = false
        defer { trace = RawTrace() }
        return trace
    }

    /// Starts a new statement log and resets all counters (statement, page cache, executions).
    public func beginStatementLog() {
        logGeneration += 1
        log.removeAll(keepingCapacity: true)
        resetCounters()
    }

    /// The distinct statements run since ``beginStatementLog()``, in order of first execution.
    public var statementLog: [String] { log }

    /// Resets SQLite's statement and page-cache counters and the execution count.
    public func resetCounters() {
        for s in cache.values { _ = s.counters(reset: true) }
        var cur: Int32 = 0, hi: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_HIT, &cur, &hi, 1)
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_MISS, &cur, &hi, 1)
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_WRITE, &cur, &hi, 1)
        executionCount = 0
        longestWriteNanoseconds = 0
    }

    /// The counters accumulated since the last reset, summed over cached statements.
    public func counters() -> StatementCounters {
        var total = StatementCounters()
        for s in cache.values { total = total + s.counters(reset: false) }
        var cur: Int32 = 0, hi: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_HIT, &cur, &hi, 0)
        total.cacheHits = Int64(cur)
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_MISS, &cur, &hi, 0)
        total.cacheMisses = Int64(cur)
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_WRITE, &cur, &hi, 0)
        total.pagesWritten = Int64(cur)
        return total
    }

    // MARK: Plans

    /// The EXPLAIN QUERY PLAN tree of `sql` (parameters are left unbound).
    public func queryPlan(_ sql: String) throws -> [QueryPlanNode] {
        let s = try Statement(database: self, sql: "EXPLAIN QUERY PLAN " + sql)
        var nodes: [QueryPlanNode] = []
        while try s.step() {
            nodes.append(QueryPlanNode(id: Int(s.int64(at: 0)), parent: Int(s.int64(at: 1)), detail: s.text(at: 3) ?? ""))
        }
        s.reset()
        return nodes
    }
}
