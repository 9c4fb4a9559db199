import Foundation
import SchemaLabSQLite

/// `schemalab plans DIR`: the query plans a run recorded (plans.csv), statement by
/// statement, as indented trees.
public struct PlanListing {
    /// The run directory.
    public var directory: String
    /// Only this schema variant, only this workload (nil: all).
    public var variant: String?
    public var workload: String?

    public init(directory: String) {
        self.directory = directory
    }

    /// Prints each statement (`[variant workload n=size #number] sql`) with its plan tree;
    /// bad input when nothing matches.
    public func list(console: any Console) throws(OperationError) {
        let path = directory + "/plans.csv"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            let what = FileManager.default.fileExists(atPath: directory) ? "it has no plans.csv" : "it does not exist"
            throw OperationError(
                .badInput,
                "cannot read \(path): \(directory) is not a run directory (\(what); `schemalab run SCENARIO --out \(directory)` makes one)")
        }
        let records = CSVWriter.parse(text)
        guard let header = records.first, header == ResultsFiles.plansHeader else {
            throw OperationError(.badInput, "\(path) does not have the plans.csv header this build writes")
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
        for row in records.dropFirst() where row.count == header.count {
            if let variant, row[1] != variant { continue }
            if let workload, row[2] != workload { continue }
            let head = "[\(row[1]) \(row[2]) n=\(row[3]) #\(row[4])] \(row[5])"
            if head != current { flush(); current = head; matched += 1 }
            if let id = Int(row[6]), let parent = Int(row[7]) { nodes.append(QueryPlanNode(id: id, parent: parent, detail: row[8])) }
        }
        flush()
        if matched == 0 { throw OperationError(.badInput, "no statements match in \(path)") }
    }
}
