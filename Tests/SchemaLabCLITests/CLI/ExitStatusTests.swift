import Foundation
import Testing
@testable import SchemaLab
@testable import SchemaLabEngine
@testable import SchemaLabSQLite
@testable import schemalab

/// The CLI's words for a library error: its exit status and its remedy as flags.
@Suite("Library errors as the CLI reports them")
struct ExitStatusTests {
    @Test("Each kind of error has the exit status docs/cli.md gives it")
    func exitStatuses() {
        let scenario = ScenarioError(file: "s.json", path: "$.x", message: "bad")
        #expect(OperationError.from(scenario).exitStatus == 2)
        #expect(OperationError.from(FileError(path: "p", message: "taken", isBadInput: true)).exitStatus == 2)
        #expect(OperationError.from(FileError(path: "p", message: "disk full")).exitStatus == 1)
        #expect(OperationError.from(SQLiteError(code: 19, message: "constraint")).exitStatus == 1)
        #expect(OperationError(.regression, "worse").exitStatus == 2)
        #expect(OperationError(.baselineNotFound, "none").exitStatus == 3)
    }

    @Test("A remedy is worded as the flags to give; the library's message names none")
    func remedies() {
        let error = OperationError(.badInput, "out already exists", remedy: .replaceOrResume("out"))
        #expect(!error.message.contains("--"))
        #expect(error.terminalMessage.contains("--replace") && error.terminalMessage.contains("--resume out"))
        #expect(OperationError(.failed, "stopped").terminalMessage == "stopped")
    }
}
