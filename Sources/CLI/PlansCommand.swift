import ArgumentParser
import Foundation
import SchemaLab

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
        var listing = PlanListing(directory: directory)
        listing.variant = schema
        listing.workload = workload
        try perform { () throws(OperationError) in try listing.list(console: TerminalConsole()) }
    }
}
