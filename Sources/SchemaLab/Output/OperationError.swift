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

    /// `error` as an operation error: a scenario error is bad input, a file error is bad input
    /// when the user must change the command, anything else is a failure; `prefix` goes before
    /// the message of an error that is not already an operation error.
    public static func from(_ error: any Error, prefix: String = "") -> OperationError {
        switch error {
        case let error as OperationError: return error
        case let error as ScenarioError: return OperationError(.badInput, prefix + error.description)
        case let error as FileError: return OperationError(error.isBadInput ? .badInput : .failed, prefix + error.message)
        case let error as StoreMismatch: return OperationError(.badInput, prefix + error.description)
        default: return OperationError(.failed, prefix + "\(error)")
        }
    }
}
