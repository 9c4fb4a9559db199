import SchemaLabCoreData
import SchemaLabEngine

/// Why one of the lab's operations (a run, a merge, a comparison, ...) did not do what was
/// asked: what kind of problem (``status``), what and where (``message``: the file, the JSON
/// path or the directory), and what would fix it (``remedy``), which a front end words in
/// its own terms (the CLI as the flags to give). The message names no command-line flag.
public struct OperationError: Error, CustomStringConvertible, Sendable {
    /// What kind of problem it is.
    public enum Status: Sendable {
        /// The operation failed: a SQLite or I/O error, a case that failed, a tool that is missing.
        case failed
        /// Bad input: a scenario that does not validate, an option that does not fit, an
        /// existing output directory, a run that cannot be resumed.
        case badInput
        /// The regression gate found a regression, or a scenario's assertion failed.
        case regression
        /// No baseline of that name.
        case baselineNotFound
    }

    /// What the user can do about it.
    public typealias Remedy = SchemaLabEngine.Remedy

    /// What kind of problem it is (the CLI's exit status follows from it).
    public let status: Status
    /// What went wrong and where, in one sentence that names no command-line flag.
    public let message: String
    /// What would fix it; nil when nothing the user does would.
    public let remedy: Remedy?

    /// An error of `status` that says `message`, with what would fix it.
    public init(_ status: Status, _ message: String, remedy: Remedy? = nil) {
        self.status = status
        self.message = message
        self.remedy = remedy
    }

    /// The message.
    public var description: String { message }

    /// `error` as an operation error: a scenario or store mismatch is bad input, a file error is
    /// bad input when the user must change the command, anything else is a failure; `status`,
    /// when given, overrides that (the message and remedy stay the error's).
    public static func from(_ error: any Error, status: Status? = nil) -> OperationError {
        let mapped: OperationError
        switch error {
        case let error as OperationError: mapped = error
        case let error as ScenarioError: mapped = OperationError(.badInput, error.description)
        case let error as FileError:
            mapped = OperationError(error.isBadInput ? .badInput : .failed, error.message, remedy: error.remedy)
        case let error as StoreMismatch: mapped = OperationError(.badInput, error.description)
        default: mapped = OperationError(.failed, "\(error)")
        }
        return status.map { OperationError($0, mapped.message, remedy: mapped.remedy) } ?? mapped
    }
}
