import Foundation
import SchemaLab
import Synchronization
import SchemaLabEngine

/// What a run process owns while it runs: its temporary store directory (stale ones
/// of dead runs are removed when it is made) and, once created, its run directory.
/// SIGINT and SIGTERM mark the run interrupted and remove the stores before exiting.
final class RunSession: Sendable {
    let work: WorkDirectory
    private let dir = Mutex<RunDirectory?>(nil)

    init() throws {
        do { work = try WorkDirectory.create() } catch let e as FileError { throw fail(e.message, code: 1) }
    }

    /// Installs the SIGINT and SIGTERM handlers (once per process).
    func handleStopSignals() {
        StopSignals.install { [self] _, name in self.stop(by: name) }
    }

    func attach(_ run: RunDirectory) {
        dir.withLock { $0 = run }
    }

    private func stop(by name: String) {
        let run = dir.withLock { $0 }
        run?.stop(.interrupted, reason: "stopped by \(name)")
        work.remove()
        if let run {
            note("schemalab: stopped by \(name): \(run.state.done.count) of \(run.state.cases.count) cases are in \(run.path); `schemalab run --resume \(run.path)` finishes the others")
        } else {
            note("schemalab: stopped by \(name) before anything was written")
        }
    }

    /// Refuses a data set that would not fit (exit 1), before the run directory exists.
    func checkFit(plan: ScenarioPlan, options: RunOptions, skip: Bool) throws {
        guard !skip else { return }
        do {
            try FitCheck.check(plan: plan, options: options)
        } catch let e as FitCheck.TooLarge {
            work.remove()
            throw fail(e.description, code: 1)
        } catch {
            work.remove()
            throw fail("the fit check could not measure a sample of the data set: \(error) (--skip-fit-check runs without it)", code: 1)
        }
    }
}
