/// The SQLite floor of a write workload: its statements stepped with the bare C API on a
/// fresh store of the same kind, one transaction around them, statements prepared once
/// and values bound from plain arrays.
package struct WriteFloor {
    /// Untimed statements on the floor's connection first: the scenario's pragmas.
    package var setup: [(sql: String, bindings: [SQLValue])] = []
    /// Statements before the rows (with their bindings), e.g. BEGIN and the Z_MAX block.
    package var before: [(sql: String, bindings: [SQLValue])]
    /// The statement run once per row, and the rows' bindings.
    package var rowSQL: String
    package var rows: [[SQLValue]]
    /// Statements after the rows (COMMIT).
    package var after: [(sql: String, bindings: [SQLValue])]

    /// Memberwise.
    package init(
        setup: [(sql: String, bindings: [SQLValue])] = [], before: [(sql: String, bindings: [SQLValue])], rowSQL: String,
        rows: [[SQLValue]], after: [(sql: String, bindings: [SQLValue])]
    ) {
        self.setup = setup
        self.before = before
        self.rowSQL = rowSQL
        self.rows = rows
        self.after = after
    }
}
