import SchemaLabSQLite

/// The result of a dictionary fetch: one row per result, its values in propertiesToFetch
/// order, kept as SQLite returned them (a ``ValueTable``) until read.
public struct DictionaryRows: Sendable {
    /// The fetched values.
    public let table: ValueTable
    /// Number of rows.
    public var count: Int { table.rowCount }

    /// The value of property `column` in row `row`.
    public func value(row: Int, column: Int) -> SQLValue { table[row, column] }

    /// The rows, each in propertiesToFetch order (for signatures and tests; not timed).
    public var rows: [[SQLValue]] {
        (0..<count).map { r in (0..<table.columnCount).map { table[r, $0] } }
    }
}
