/// One row of `EXPLAIN QUERY PLAN`: a node of the plan tree.
///
/// See <https://www.sqlite.org/eqp.html>. `parent` is 0 for top-level nodes.
public struct QueryPlanNode: Equatable, Sendable {
    /// The node's id, unique within one plan.
    public let id: Int
    /// The id of the node this one is under; 0 for a top-level node.
    public let parent: Int
    /// SQLite's text for the step: `SCAN ZPHOTO`, `SEARCH ZPHOTO USING INDEX … (ZDATE>?)`,
    /// `USE TEMP B-TREE FOR ORDER BY`.
    public let detail: String

    /// A node as one row of `EXPLAIN QUERY PLAN` gives it (its `id`, `parent` and `detail`
    /// columns).
    public init(id: Int, parent: Int, detail: String) {
        self.id = id
        self.parent = parent
        self.detail = detail
    }

    /// Each node's depth in the tree (0 for a top-level node), in the order of `nodes`
    /// (SQLite lists a parent before its children).
    public static func depths(_ nodes: [QueryPlanNode]) -> [Int] {
        var depth: [Int: Int] = [0: -1]
        return nodes.map { node in
            let level = (depth[node.parent] ?? -1) + 1
            depth[node.id] = level
            return level
        }
    }

    /// Renders a plan as the `sqlite3` shell does: an indented tree.
    public static func render(_ nodes: [QueryPlanNode]) -> String {
        zip(nodes, depths(nodes)).map { node, level in String(repeating: "   ", count: level) + "|--" + node.detail }
            .joined(separator: "\n")
    }
}
