import SchemaLabEngine
import SchemaLabSQLite

/// One line of plans.csv: a statement a case ran and one node of its query plan (a
/// statement without a plan has one line with no node).
package struct PlanRow: Sendable, Equatable {
    /// The statement's number among the case's statements (from 1).
    package var statement = 0
    package var sql = ""
    package var nodeID: Int?
    package var parentID: Int?
    package var detail = ""

    package init() {}

    /// The lines of one statement: one per plan node, or one without a node.
    package static func rows(_ statement: StatementPlan) -> [PlanRow] {
        var row = PlanRow()
        row.statement = statement.number
        row.sql = statement.sql
        guard !statement.plan.isEmpty else { return [row] }
        return statement.plan.map { node in
            var line = row
            line.nodeID = node.id
            line.parentID = node.parent
            line.detail = node.detail
            return line
        }
    }

    /// The statements of a case's lines, in order; consecutive lines with one statement
    /// number are one statement (two statements may have the same SQL).
    package static func statements(_ rows: [PlanRow]) -> [StatementPlan] {
        var out: [StatementPlan] = []
        for row in rows {
            if out.last?.number != row.statement {
                out.append(StatementPlan(number: row.statement, sql: row.sql, plan: []))
            }
            if let id = row.nodeID {
                out[out.count - 1].plan.append(QueryPlanNode(id: id, parent: row.parentID ?? 0, detail: row.detail))
            }
        }
        return out
    }
}
