/// SQLite's own counters for the statements of one measured repetition.
///
/// The statement counters come from `sqlite3_stmt_status`, summed over every
/// statement that ran; the page-cache counters from `sqlite3_db_status`.
/// All of them are deterministic for a given database and SQL, which is what
/// makes them good test assertions where timings are not.
public struct StatementCounters: Equatable, Sendable {
    /// Virtual machine steps (`SQLITE_STMTSTATUS_VM_STEP`).
    public var vmSteps: Int64 = 0
    /// Steps of full table or index scans (`SQLITE_STMTSTATUS_FULLSCAN_STEP`).
    public var fullscanSteps: Int64 = 0
    /// Sorter runs (`SQLITE_STMTSTATUS_SORT`).
    public var sorts: Int64 = 0
    /// Rows inserted into automatic indexes (`SQLITE_STMTSTATUS_AUTOINDEX`).
    public var autoindex: Int64 = 0
    /// Page-cache hits (`SQLITE_DBSTATUS_CACHE_HIT`).
    public var cacheHits: Int64 = 0
    /// Page-cache misses (`SQLITE_DBSTATUS_CACHE_MISS`).
    public var cacheMisses: Int64 = 0
    /// Pages written to the database file from the page cache (`SQLITE_DBSTATUS_CACHE_WRITE`):
    /// what a save costs the disk, which an index adds to.
    public var pagesWritten: Int64 = 0

    /// All counters at zero, the start of a sum.
    public init() {}

    /// The counters of both, added field by field (the statements of one repetition summed).
    public static func + (lhs: StatementCounters, rhs: StatementCounters) -> StatementCounters {
        var r = lhs
        r.vmSteps += rhs.vmSteps
        r.fullscanSteps += rhs.fullscanSteps
        r.sorts += rhs.sorts
        r.autoindex += rhs.autoindex
        r.cacheHits += rhs.cacheHits
        r.cacheMisses += rhs.cacheMisses
        r.pagesWritten += rhs.pagesWritten
        return r
    }
}
