/// The SQLite floor of a write workload: its statements stepped with the bare C API on a
/// fresh store of the same kind, one transaction around them, statements prepared once
/// and values bound from plain arrays.
public struct WriteFloor {
    /// Untimed statements on the floor's connection first: the scenario's pragmas.
    public var setup: [(sql: String, bindings: [SQLValue])] = []
    /// Statements before the rows (with their bindings), e.g. BEGIN and the Z_MAX block.
    public var before: [(sql: String, bindings: [SQLValue])]
    /// The statement run once per row, and the rows' bindings.
    public var rowSQL: String
    public var rows: [[SQLValue]]
    /// Statements after the rows (COMMIT).
    public var after: [(sql: String, bindings: [SQLValue])]

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
