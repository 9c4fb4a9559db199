import ArgumentParser
import Foundation
import SchemaLab

/// `schemalab count-case`: one run of one case's timed region, for `run --instructions` to
/// count under callgrind (see ``InstructionCounter``). Not meant to be run by hand.
struct CountCaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count-case",
        abstract: "Runs one case's timed region once (run --instructions runs it under callgrind).",
        shouldDisplay: false
    )

    @Argument(help: "The scenario file.")
    var scenario: String

    @OptionGroup var selection: CaseSelectionOptions

    @Option(name: .long, help: "The data set size.")
    var size: Int

    @Option(name: .long, help: "The filled store of the variant and size (for workloads that read or change it).")
    var store: String?

    @Option(name: .long, help: "A directory for the case's own stores.")
    var work: String

    @Option(name: .long, help: "Warm-up runs before the counted one.")
    var warmup = 1

    @Option(name: .long, help: "The injected slowdown (run --inject-slowdown).")
    var slowdown = 1.0

    func run() throws {
        var count = CaseCount(scenario: scenario, variant: selection.variant, workload: selection.workload, size: size, workDirectory: work)
        count.store = store
        count.warmup = warmup
        count.slowdown = slowdown
        try perform { () throws(OperationError) in try count.run() }
    }
}
