import ArgumentParser
import Foundation
import SchemaLab
import SchemaLabSQLite

@main
struct SchemaLabCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schemalab",
        abstract: "Runs Core Data-style SQLite schema experiments described in JSON scenario files.",
        discussion: """
            Exit status: 0 success, 1 a run or a case failed (SQLite or I/O error, a data set \
            that does not fit), 2 bad input (a scenario that does not validate, an existing \
            output directory, a run that cannot be resumed, an option value) or a regression or \
            failed assertion, 3 no such baseline, 64 a usage error (an unknown option, a missing \
            argument), 130/143/129 stopped by SIGINT, SIGTERM or SIGHUP.
            """,
        version: "schemalab \(Lab.version) (SQLite \(SQLiteLibrary.version))",
        subcommands: [
            RunCommand.self, ValidateCommand.self, GenerateCommand.self, PlansCommand.self, PlotCommand.self, ReportCommand.self,
            ExplainCommand.self, AdviseCommand.self, ImportCommand.self, CompareRawCommand.self, CountCaseCommand.self,
            BaselineCommand.self,
            CompareCommand.self, MergeCommand.self, FindingsCommand.self,
        ]
    )
}

/// Runs one of the library's operations: an ``OperationError`` is printed to standard error
/// (`schemalab: <message>`) and becomes the exit status it names.
func perform<Value>(_ operation: () throws(OperationError) -> Value) throws -> Value {
    do {
        return try operation()
    } catch {
        throw fail(error.terminalMessage, code: error.exitStatus)
    }
}

/// True when the command line asks for help. ArgumentParser validates a command before it
/// notices the help flag, so a `validate()` that prints its failure would print it above the help.
let helpRequested = CommandLine.arguments.dropFirst().contains { ["-h", "--help", "-help"].contains($0) }

/// Prints an error to standard error and returns the exit code `code` to throw.
func fail(_ message: String, code: Int32) -> ExitCode {
    fflush(nil)  // every output stream: standard output is the one print buffers
    FileHandle.standardError.write(Data(("schemalab: " + message + "\n").utf8))
    return ExitCode(code)
}
