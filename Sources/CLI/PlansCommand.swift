import ArgumentParser
import Foundation
import SchemaLab
import SchemaLabSQLite

struct PlansCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plans",
        abstract: "Prints the statements a run recorded, each with its EXPLAIN QUERY PLAN tree.",
        discussion: "Reads <dir>/plans.csv. Filter with --schema and --workload."
    )

    @Argument(help: "A directory written by `schemalab run`.")
    var directory: String

    @Option(name: .long, help: "Only this schema variant.")
    var schema: String?

    @Option(name: .long, help: "Only this workload.")
    var workload: String?

    func run() throws {
        let path = directory + "/plans.csv"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw fail("cannot read \(path)", code: 2) }
        let records = CSVWriter.parse(text)
        guard let header = records.first, header == ResultsFiles.plansHeader else {
            throw fail("\(path) does not have the plans.csv header this build writes", code: 2)
        }
        var current = ""
        var nodes: [QueryPlanNode] = []
        func flush() {
            if !current.isEmpty { print(current); if !nodes.isEmpty { print(QueryPlanNode.render(nodes)) }; print("") }
            nodes = []
        }
        var matched = 0
        for r in records.dropFirst() where r.count == header.count {
            if let schema, r[1] != schema { continue }
            if let workload, r[2] != workload { continue }
            let head = "[\(r[1]) \(r[2]) n=\(r[3]) #\(r[4])] \(r[5])"
            if head != current { flush(); current = head; matched += 1 }
            if let id = Int(r[6]), let parent = Int(r[7]) { nodes.append(QueryPlanNode(id: id, parent: parent, detail: r[8])) }
        }
        flush()
        if matched == 0 { throw fail("no statements match in \(path)", code: 2) }
    }
}
