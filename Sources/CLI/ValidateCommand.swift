import Foundation
import ArgumentParser
import SchemaLab

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Checks scenario files without running them.",
        discussion:
            "Prints one line per file, starting with its path: `file: ok (...)`, or `file: $.json.path: what is wrong`; before a file's ok line, a line per warning (`file: $.json.path: warning: ...`, what Core Data accepts but that does nothing); exits 2 if any file has a problem."
    )

    @Argument(help: "Scenario files.")
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one scenario file") }
    }

    func run() throws {
        var invalid = 0
        try perform { () throws(OperationError) in invalid = try ScenarioValidation.validate(files, console: TerminalConsole()) }
        // Each error is on its own line already (one line per file).
        if invalid > 0 { throw ExitCode(2) }
    }
}
