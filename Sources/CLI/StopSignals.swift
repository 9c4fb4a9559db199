import Dispatch
import Foundation
import Synchronization
import SchemaLabSQLite
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT, SIGTERM and SIGHUP stop a run cleanly: the handler runs on its own thread while the
/// run goes on, cleans up (marks the run directory interrupted, removes the temporary
/// stores) and exits with 128 + the signal's number (130 for SIGINT, 143 for SIGTERM,
/// 129 for SIGHUP), the status a shell reports for a process killed by that signal.
public enum StopSignals {
    /// Kept alive for the life of the process; written only by ``install(_:)``.
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Installs the handlers; `cleanup` is called once, with the signal's number and name.
    public static func install(_ cleanup: @escaping @Sendable (Int32, String) -> Void) {
        let queue = DispatchQueue(label: "schemalab.stop-signals")
        let once = Mutex(false)
        for (sig, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler {
                guard
                    once.withLock({
                        let first = !$0; $0 = true; return first
                    })
                else { return }
                // A statement running now returns at its next step instead of holding the exit.
                StatementWatchdog.interruptAll()
                cleanup(sig, name)
                _exit(128 + sig)
            }
            source.resume()
            sources.append(source)
        }
    }
}
