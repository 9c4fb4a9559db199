import Foundation
import SchemaLab
import SchemaLabEngine
import Synchronization

/// The CLI's ``Console``: lines to standard output, notes and warnings (`schemalab: ...`, with
/// their remedy as flags) to standard error, and a run's progress as one line rewritten in
/// place when standard error is a terminal, or else as a line every `logInterval` seconds
/// (``ProgressLog``).
///
/// Standard output is flushed before a note: `print` buffers it in blocks when it is not a
/// terminal, so with both streams sent to one file (`2>&1`) a note would otherwise land in
/// the middle of a half-written output line. The progress line is cleared before any other
/// output.
final class TerminalConsole: Console {
    private let line: Mutex<ProgressLine>
    private let log: ProgressLog?

    /// `showsProgress`: draw the progress line when standard error is a terminal; without one,
    /// print a progress line every `logInterval` seconds (0: never).
    init(showsProgress: Bool = false, logInterval: Double = 0) {
        let terminal = isatty(STDERR_FILENO) != 0
        line = Mutex(ProgressLine(enabled: showsProgress && terminal))
        log =
            showsProgress && !terminal && logInterval > 0
            ? ProgressLog(interval: logInterval) { text in
                fflush(nil)
                FileHandle.standardError.write(Data((text + "\n").utf8))
            } : nil
    }

    func print(_ text: String) {
        line.withLock { $0.clear() }
        Swift.print(text)
    }

    func note(_ text: String) {
        line.withLock { $0.clear() }
        fflush(nil)  // every output stream: standard output is the one print buffers
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    func warn(_ text: String, remedy: OperationError.Remedy?) {
        note("schemalab: " + OperationError(.failed, text, remedy: remedy).terminalMessage)
    }

    func progress(_ status: RunProgress) {
        line.withLock { $0.update(status) }
        log?.update(status)
    }

    /// Clears the progress line and stops the progress log (at the end of a run).
    func finish() {
        line.withLock { $0.clear() }
        log?.stop()
    }
}
