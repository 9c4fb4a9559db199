import ArgumentParser
import Foundation
import SchemaLab

/// `schemalab report RUN_DIR`: report.md and report.html from a run directory.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Writes RUN_DIR/report.md and a self-contained RUN_DIR/report.html.",
        discussion: """
            The report reads top to bottom: the environment; per size, the article-style table \
            (workloads by variants, each against the reference variant, `~` within noise); the \
            charts in RUN_DIR/plots (run `schemalab plot` first); with two sizes or more, how each \
            case's time grows (log-log slope, the best of O(n), O(n log n), O(n^2)) and the sizes \
            where two variants change order; per case its counters and every statement with its \
            query plan. For a statement that scans a table or sorts in a temporary B-tree, the index \
            SQLite's `.expert` suggests (through the sqlite3 tool, on an empty store of the variant \
            built from the run's scenario file) and the plan with it; --no-advice leaves it out.
            """
    )

    @Argument(help: "A directory written by `schemalab run`.")
    var directory: String

    @Flag(name: .long, help: "Leave out the `.expert` index advice.")
    var noAdvice = false

    @Option(name: .long, help: "The scenario file of the run, for the advice (default: the one run.json names).")
    var scenario: String?

    @OptionGroup var sqliteTool: SQLiteToolOption

    func run() throws {
        var writing = ReportWriting(directory: directory)
        writing.advice = !noAdvice
        writing.scenario = scenario
        writing.sqlite3 = sqliteTool.sqlite3
        try perform { () throws(OperationError) in try writing.write(console: TerminalConsole()) }
    }
}
