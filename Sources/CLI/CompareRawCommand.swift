import ArgumentParser
import Foundation
import SchemaLab

struct CompareRawCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare-raw",
        abstract: "Compares a run with times measured outside the lab (a raw-SQLite program), case by case.",
        discussion: """
            Joins <dir>/results.csv with a CSV that has the columns schema, workload, n, min_ms \
            and median_ms (one row per case, as a C program doing the same workloads on raw \
            SQLite would write it) on schema, workload and size, and prints lab/raw ratios of \
            the minimum and median times. Goals, for the photo matrix's workloads: 3x for the \
            object paths (insert, fetch-sorted, frc-sections), 1.2x for frc-batched, whose time \
            is its ID and section-count queries.
            """
    )

    @Argument(help: "A directory written by `schemalab run`.")
    var directory: String

    @Argument(help: "The raw program's CSV (columns schema, workload, n, min_ms, median_ms).")
    var rawCSV: String

    @Option(name: .long, help: "Also write the ratios to this CSV file.")
    var csv: String?

    func run() throws {
        var comparison = RawComparison(directory: directory, rawCSV: rawCSV)
        comparison.csv = csv
        try perform { () throws(OperationError) in try comparison.compare(console: TerminalConsole()) }
    }
}
