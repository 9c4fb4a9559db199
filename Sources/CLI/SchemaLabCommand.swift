import ArgumentParser
import Foundation
import SchemaLab

@main
struct SchemaLabCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schemalab",
        abstract: "Runs Core Data-style SQLite schema experiments described in JSON scenario files.",
        discussion: """
            Exit status: 0 success, 1 a run or a case failed (SQLite or I/O error, a data set \
            that does not fit), 2 bad input (a scenario that does not validate, an existing \
            output directory, a run that cannot be resumed), 130/143/129 stopped by SIGINT, \
            SIGTERM or SIGHUP.
            """,
        subcommands: [RunCommand.self, ValidateCommand.self, GenerateCommand.self, PlansCommand.self, PlotCommand.self, ReportCommand.self, ExplainCommand.self, ImportCommand.self, CompareRawCommand.self,
                      CountCaseCommand.self, BaselineCommand.self, CompareCommand.self, MergeCommand.self]
    )
}

/// Prints an error to standard error and exits with `code`.
func fail(_ message: String, code: Int32) -> ExitCode {
    fflush(nil)  // every output stream: standard output is the one print buffers
    FileHandle.standardError.write(Data(("schemalab: " + message + "\n").utf8))
    return ExitCode(code)
}

/// Writes a line to standard error (progress, notes).
///
/// Standard output is flushed first: `print` buffers it in blocks when it is not a terminal,
/// so with both streams sent to one file (`2>&1`) a note would otherwise land in the middle
/// of a half-written output line, and the two lines would run together.
func note(_ message: String) {
    fflush(nil)  // every output stream: standard output is the one print buffers
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
