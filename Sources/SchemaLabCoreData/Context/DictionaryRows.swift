import SchemaLabSQLite

/// The result of a dictionary fetch: one row per result, its values in propertiesToFetch
/// order, kept as SQLite returned them (a `ValueTable`) until read.
package struct DictionaryRows: Sendable {
    /// The fetched values.
    package let table: ValueTable
    /// Number of rows.
    package var count: Int { table.rowCount }

    /// The value of property `column` in row `row`.
    package func value(row: Int, column: Int) -> SQLValue { table[row, column] }

    /// The rows, each in propertiesToFetch order (for signatures and tests; not timed).
    package var rows: [[SQLValue]] {
        (0..<count).map { r in (0..<table.columnCount).map { table[r, $0] } }
    }
}
