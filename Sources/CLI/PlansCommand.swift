import ArgumentParser
import Foundation
import SchemaLab

struct PlansCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plans",
        abstract: "Prints the statements a run recorded, each with its EXPLAIN QUERY PLAN tree.",
        discussion: "Reads <dir>/plans.csv. Filter with --variants and --workloads."
    )

    @Argument(help: "A directory written by `schemalab run`.")
    var directory: String

    @OptionGroup var filter: CaseFilterOptions

    func run() throws {
        var listing = PlanListing(directory: directory)
        listing.variants = filter.variantNames
        listing.workloads = filter.workloadNames
        try perform { () throws(OperationError) in try listing.list(console: TerminalConsole()) }
    }
}
