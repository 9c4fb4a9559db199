/// The result of a dictionary fetch, held column by column.
public struct DictionaryRows: Sendable {
    /// One array of values per fetched property.
    public let columns: [[SQLValue]]
    /// Number of rows.
    public let count: Int

    /// The rows, each in propertiesToFetch order (for signatures and tests; not timed).
    public var rows: [[SQLValue]] {
        (0..<count).map { r in columns.map { $0[r] } }
    }
}
