import Foundation
import SchemaLabEngine
import Synchronization

/// What a run into a run directory owns while it runs: its temporary store directory (stale
/// ones of dead runs are removed when it is made) and, once created, its run directory. A
/// front end that stops the process on a signal calls ``interrupt(reason:)`` first: the run
/// directory is marked interrupted (and written no more) and the stores are removed.
package final class RunWorkspace: Sendable {
    /// What an interruption left.
    package struct Interruption: Sendable {
        /// The run directory, when it existed.
        package let directory: String?
        /// Its cases done and in all.
        package let done: Int
        package let cases: Int
    }

    let work: WorkDirectory
    private let directory = Mutex<RunDirectory?>(nil)

    /// Creates the temporary store directory (in `$TMPDIR`).
    package init() throws(OperationError) {
        do { work = try WorkDirectory.create() } catch { throw OperationError.from(error, status: .failed) }
    }

    /// The temporary store directory.
    package var path: String { work.path }

    /// The run directory an interruption marks.
    func attach(_ run: RunDirectory) {
        directory.withLock { $0 = run }
    }

    /// Marks the run directory interrupted (`reason`: "stopped by SIGINT") and removes the
    /// stores; safe to call from another thread while the run goes on.
    package func interrupt(reason: String) -> Interruption {
        let run = directory.withLock { $0 }
        run?.stop(.interrupted, reason: reason)
        work.remove()
        return Interruption(directory: run?.path, done: run?.state.done.count ?? 0, cases: run?.state.cases.count ?? 0)
    }

    /// Removes the stores (the run is over).
    package func remove() {
        work.remove()
    }
}
