import SchemaLabEngine
import Synchronization

/// Where an operation's output goes: lines for standard output (what the operation made)
/// and notes for standard error (warnings, what was skipped). The CLI writes them to the
/// terminal; a test collects them.
public protocol Console: Sendable {
    /// A line of the operation's output (standard output).
    func print(_ line: String)
    /// A note: what was left out, a summary line (standard error), as it is.
    func note(_ line: String)
    /// A warning about the operation, with what would avoid it (the CLI prefixes its own name
    /// and words the remedy as flags).
    func warn(_ line: String, remedy: OperationError.Remedy?)
}

extension Console {
    /// A warning without a remedy.
    public func warn(_ line: String) { warn(line, remedy: nil) }
}

/// A console that keeps every line, for tests and for callers that print later.
public final class CollectingConsole: Console {
    private let lines = Mutex<(printed: [String], notes: [String])>(([], []))

    /// A console with nothing collected yet.
    public init() {}

    public func print(_ line: String) { lines.withLock { $0.printed.append(line) } }
    public func note(_ line: String) { lines.withLock { $0.notes.append(line) } }
    public func warn(_ line: String, remedy: OperationError.Remedy?) { lines.withLock { $0.notes.append(line) } }

    /// The lines printed so far.
    public var printed: [String] { lines.withLock { $0.printed } }
    /// The notes so far.
    public var notes: [String] { lines.withLock { $0.notes } }
}
