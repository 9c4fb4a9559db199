/// A SELECT statement Core Data logged, parsed far enough to rebuild the request behind it.
///
/// The grammar is the part of SQLite's that Core Data's statements use (docs/statement-shapes.md):
/// a select list, one table with an alias, joins `[LEFT OUTER] JOIN T tN ON a.X = b.Y`, WHERE,
/// GROUP BY, HAVING, ORDER BY with DESC and COLLATE, LIMIT and OFFSET with integer literals.
package struct LoggedSelect: Equatable, Sendable {
    /// A join of the FROM clause.
    package struct Join: Equatable, Sendable {
        /// `LEFT OUTER JOIN` rather than `JOIN`.
        package var outer: Bool
        /// The joined table and its alias.
        package var table: String
        package var alias: String
        /// The ON clause's two columns: `t0.ZAUTHOR = t1.Z_PK`.
        package var left: LoggedExpression
        package var right: LoggedExpression
    }

    /// An ORDER BY term.
    package struct Order: Equatable, Sendable {
        package var expression: LoggedExpression
        package var descending: Bool
        /// `COLLATE NAME`, if any.
        package var collation: String?
    }

    package var distinct = false
    /// The select list.
    package var columns: [LoggedExpression] = []
    /// Each column's `AS` name (`__var0`), or nil.
    package var columnNames: [String?] = []
    /// The first table of FROM and its alias.
    package var table = ""
    package var alias = ""
    package var joins: [Join] = []
    package var whereClause: LoggedExpression?
    package var groupBy: [LoggedExpression] = []
    package var having: LoggedExpression?
    package var orderBy: [Order] = []
    package var limit: Int?
    package var offset: Int?
}

/// An expression of a logged statement.
package indirect enum LoggedExpression: Equatable, Sendable {
    /// `t0.ZNAME`, or a bare name.
    case column(alias: String?, name: String)
    /// `?`, with its position among the statement's markers (0-based).
    case parameter(Int)
    case integer(Int64)
    case real(Double)
    case string(String)
    case null
    /// `*`.
    case star
    /// `l OP r` with OP one of `= == != <> < <= > >= AND OR || + - * /`, or `LIKE`, `GLOB`.
    case binary(String, LoggedExpression, LoggedExpression)
    case not(LoggedExpression)
    /// `e IS [NOT] NULL`.
    case isNull(LoggedExpression, negated: Bool)
    /// `e [NOT] IN (a, b, …)`.
    case inList(LoggedExpression, [LoggedExpression], negated: Bool)
    /// `e [NOT] IN (SELECT …)`.
    case inSelect(LoggedExpression, LoggedSelect, negated: Bool)
    /// `e BETWEEN lo AND hi`.
    case between(LoggedExpression, LoggedExpression, LoggedExpression)
    /// `F(args)`, `COUNT(DISTINCT x)`, `COUNT(*)`.
    case function(String, [LoggedExpression], distinct: Bool)
    /// `(SELECT …)`.
    case subquery(LoggedSelect)
    /// `(e)`, kept: Core Data's parentheses are part of its text.
    case parenthesized(LoggedExpression)
}
