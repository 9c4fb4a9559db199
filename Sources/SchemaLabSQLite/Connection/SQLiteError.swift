/// An error reported by SQLite, with everything needed to understand it:
/// the result code, SQLite's own message, and the SQL that failed.
///
/// Its description reads like GRDB's:
/// `SQLite error 19: UNIQUE constraint failed: ZQUAKE.ZCODE - while executing `INSERT ...``
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The (extended) SQLite result code.
    public let code: Int32
    /// SQLite's message (`sqlite3_errmsg`) or our own when SQLite gave none.
    public let message: String
    /// The SQL being prepared or executed, if any.
    public let sql: String?

    /// An error with SQLite's result `code`, its `message`, and the SQL that failed (nil when
    /// the failure was not about one statement, such as opening the database).
    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// One line: `SQLite error <code>: <message>`, then the SQL that failed when there is one.
    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}
