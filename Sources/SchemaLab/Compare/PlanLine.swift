/// What a line of EXPLAIN QUERY PLAN says about cost: the assertions, the gate, the report
/// and `explain` all read plans with these.
package enum PlanLine {
    /// A table read whole: `SCAN t0` without an index (`SCAN t0 USING INDEX ...` is an index scan).
    /// A virtual table's scan is not one: reading `_Z_intarray0`, the list of keys a statement
    /// was given, whole is the point (`SCAN _Z_intarray0 VIRTUAL TABLE INDEX 0:`).
    package static func isFullScan(_ line: String) -> Bool {
        line.hasPrefix("SCAN ") && !line.contains(" USING ") && !line.contains(" VIRTUAL TABLE")
    }

    /// A sort or grouping in a temporary B-tree.
    package static func isTempBTree(_ line: String) -> Bool { line.contains("TEMP B-TREE") }

    /// A table read whole in an index's order (`SCAN t0 USING INDEX ...`, `USING COVERING
    /// INDEX`): no row is skipped, so it costs what a scan costs (SQLite counts its steps as
    /// full-scan steps), even when it spares a sort.
    package static func scansThroughIndex(_ line: String) -> Bool {
        line.hasPrefix("SCAN ") && (line.contains(" USING INDEX ") || line.contains(" USING COVERING INDEX "))
    }

    /// Any of these: a line worth an index, or worth a look.
    package static func isCostly(_ line: String) -> Bool { isFullScan(line) || isTempBTree(line) || scansThroughIndex(line) }
}
