import ArgumentParser
import Foundation
import SchemaLab

/// `schemalab explain SCENARIO --variant V --workload W`: what one case runs and why it costs
/// what it costs, without timing; `--advise` measures the index `.expert` suggests.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Prints the statements one case runs, with plans, counters and index advice.",
        discussion: """
            Runs the case once on a small data set (--size, default the smaller of 1000 and the \
            scenario's first size) and prints each distinct statement with its query plan, SQLite's \
            counters for the run, and, under a SELECT that scans a table or sorts in a temporary \
            B-tree, the index SQLite's `.expert` suggests (through the sqlite3 tool) and the plan \
            with it. --advise adds the suggested indexes to a copy of the variant (<variant>+advice), \
            measures both on the workload (--reps repetitions, interleaved), checks that they \
            return the same result, and prints the difference.
            """
    )

    @Argument(help: "A scenario file.")
    var scenario: String

    @OptionGroup var selection: CaseSelectionOptions

    @Option(name: .long, help: "The data set size (default: the smaller of 1000 and the scenario's first size).")
    var size: Int?

    @Flag(name: .long, help: "Add the suggested indexes as a new variant and measure both.")
    var advise = false

    @Option(name: .long, help: "Repetitions of each case with --advise.")
    var reps = 5

    @OptionGroup var sqliteTool: SQLiteToolOption

    func validate() throws {
        guard !helpRequested else { return }
        if let size, size <= 0 { throw fail("--size takes a positive count", code: 2) }
        if reps < 1 { throw fail("--reps must be at least 1", code: 2) }
    }

    func run() throws {
        var explanation = CaseExplanation(scenario: scenario, variant: selection.variant, workload: selection.workload)
        explanation.size = size
        explanation.advise = advise
        explanation.repetitions = reps
        explanation.sqlite3 = sqliteTool.sqlite3
        try perform { () throws(OperationError) in try explanation.explain(console: TerminalConsole()) }
    }
}
