import Foundation
import SchemaLabEngine
import SchemaLabSQLite

/// `schemalab plans DIR`: the query plans a run recorded (plans.csv), statement by
/// statement, as indented trees.
package struct PlanListing {
    /// The run directory.
    package var directory: String
    /// Only these variants, only these workloads (nil: all).
    package var variants: [String]?
    package var workloads: [String]?

    package init(directory: String) {
        self.directory = directory
    }

    /// Prints each statement (`[variant workload n=size #number] sql`) with its plan tree;
    /// bad input when nothing matches.
    package func list(console: any Console) throws(OperationError) {
        let path = directory + "/plans.csv"
        guard FileManager.default.fileExists(atPath: path) else {
            let what = FileManager.default.fileExists(atPath: directory) ? "it has no plans.csv" : "it does not exist"
            throw OperationError(.badInput, "cannot read \(path): \(directory) is not a run directory (\(what))", remedy: .run(directory))
        }
        let rows: [CaseRow<PlanRow>]
        do { rows = try RunFiles.plans.read(path: path, blank: RunFiles.blankPlan) } catch {
            throw OperationError(.badInput, error.message)
        }
        var current = ""
        var nodes: [QueryPlanNode] = []
        func flush() {
            if !current.isEmpty {
                console.print(current)
                if !nodes.isEmpty { console.print(QueryPlanNode.render(nodes)) }
                console.print("")
            }
            nodes = []
        }
        var matched = 0
        for row in rows {
            if let variants, !variants.contains(row.variant) { continue }
            if let workloads, !workloads.contains(row.workload) { continue }
            let head = "[\(row.variant) \(row.workload) n=\(row.size) #\(row.value.statement)] \(row.value.sql)"
            if head != current { flush(); current = head; matched += 1 }
            if let id = row.value.nodeID { nodes.append(QueryPlanNode(id: id, parent: row.value.parentID ?? 0, detail: row.value.detail)) }
        }
        flush()
        if matched == 0 { throw OperationError(.badInput, "no statements match in \(path)") }
    }
}
