import SchemaLabCoreData
import SchemaLabEngine

/// Why one of the lab's operations (a run, a merge, a comparison, ...) did not do what was
/// asked, with the exit status the CLI gives it. The message says what, and where: the
/// file, the JSON path or the directory.
public struct OperationError: Error, CustomStringConvertible, Sendable {
    /// The exit statuses of `schemalab`, by meaning.
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

    public let status: Status
    public let message: String

    public init(_ status: Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The process exit status: 1 failed, 2 bad input or a regression, 3 baseline not found.
    public var exitStatus: Int32 {
        switch status {
        case .failed: return 1
        case .badInput, .regression: return 2
        case .baselineNotFound: return 3
        }
    }

    public var description: String { message }

    /// `error` as an operation error: a scenario or store mismatch is bad input, a file error is
    /// bad input when the user must change the command, anything else is a failure; `status`,
    /// when given, overrides that (the message stays the error's).
    public static func from(_ error: any Error, status: Status? = nil) -> OperationError {
        let mapped: OperationError
        switch error {
        case let error as OperationError: mapped = error
        case let error as ScenarioError: mapped = OperationError(.badInput, error.description)
        case let error as FileError: mapped = OperationError(error.isBadInput ? .badInput : .failed, error.message)
        case let error as StoreMismatch: mapped = OperationError(.badInput, error.description)
        default: mapped = OperationError(.failed, "\(error)")
        }
        return status.map { OperationError($0, mapped.message) } ?? mapped
    }
}
