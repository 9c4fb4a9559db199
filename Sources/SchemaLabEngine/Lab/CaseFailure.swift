import SchemaLabSQLite

/// Why a case failed, as failures.csv records it: a message and, for a SQLite error, the
/// statement that failed.
public struct CaseFailure: Sendable, Equatable {
    /// `SQLite error 19: UNIQUE constraint failed: ...`, or the error's description.
    public var message: String
    /// The SQL that failed, when the error was SQLite's.
    public var sql: String?

    /// A failure recorded before (a shard's failures.csv), message and SQL as they were written.
    public init(message: String, sql: String?) {
        self.message = message
        self.sql = sql
    }

    /// The failure `error` describes: a ``/SchemaLabSQLite/SQLiteError``'s code and message (its SQL apart),
    /// else the error's description.
    public init(_ error: any Error) {
        if let sqlite = error as? SQLiteError {
            self.init(message: "SQLite error \(sqlite.code): \(sqlite.message)", sql: sqlite.sql)
        } else {
            self.init(message: "\(error)", sql: nil)
        }
    }
}
