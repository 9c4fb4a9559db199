/// What a line of EXPLAIN QUERY PLAN says about cost: the assertions, the gate, the report
/// and `explain` all read plans with these.
public enum PlanLine {
    /// A table read whole: `SCAN t0` without an index (`SCAN t0 USING INDEX ...` is an index scan).
    public static func isFullScan(_ line: String) -> Bool { line.hasPrefix("SCAN ") && !line.contains(" USING ") }

    /// A sort or grouping in a temporary B-tree.
    public static func isTempBTree(_ line: String) -> Bool { line.contains("TEMP B-TREE") }

    /// Either: a line worth an index.
    public static func isCostly(_ line: String) -> Bool { isFullScan(line) || isTempBTree(line) }
}
