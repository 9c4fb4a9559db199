import SchemaLabEngine
import Synchronization

/// Where an operation's output goes: lines for standard output (what the operation made),
/// notes for standard error (progress, warnings), and a run's progress. The CLI writes them
/// to the terminal; a test collects them.
public protocol Console: Sendable {
    /// A line of the operation's output (standard output).
    func print(_ line: String)
    /// A note: progress, a warning, a summary line (standard error).
    func note(_ line: String)
    /// How far a run is (a terminal redraws one line; elsewhere nothing is shown).
    func progress(_ status: LabProgress)
}

extension Console {
    public func progress(_ status: LabProgress) {}
}

/// A console that keeps every line, for tests and for callers that print later.
public final class CollectingConsole: Console {
    private let lines = Mutex<(printed: [String], notes: [String])>(([], []))

    public init() {}

    public func print(_ line: String) { lines.withLock { $0.printed.append(line) } }
    public func note(_ line: String) { lines.withLock { $0.notes.append(line) } }

    /// The lines printed so far.
    public var printed: [String] { lines.withLock { $0.printed } }
    /// The notes so far.
    public var notes: [String] { lines.withLock { $0.notes } }
}
