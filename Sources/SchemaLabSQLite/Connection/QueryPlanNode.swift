/// One row of `EXPLAIN QUERY PLAN`: a node of the plan tree.
///
/// See <https://www.sqlite.org/eqp.html>. `parent` is 0 for top-level nodes.
public struct QueryPlanNode: Equatable, Sendable {
    public let id: Int
    public let parent: Int
    public let detail: String

    public init(id: Int, parent: Int, detail: String) {
        self.id = id
        self.parent = parent
        self.detail = detail
    }

    /// Renders a plan as the `sqlite3` shell does: an indented tree.
    public static func render(_ nodes: [QueryPlanNode]) -> String {
        var depth: [Int: Int] = [0: -1]
        var lines: [String] = []
        for n in nodes {
            let d = (depth[n.parent] ?? -1) + 1
            depth[n.id] = d
            lines.append(String(repeating: "   ", count: d) + "|--" + n.detail)
        }
        return lines.joined(separator: "\n")
    }
}
