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

    /// Either: a line worth an index.
    package static func isCostly(_ line: String) -> Bool { isFullScan(line) || isTempBTree(line) }
}
