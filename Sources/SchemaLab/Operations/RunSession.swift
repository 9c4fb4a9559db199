import Foundation
import SchemaLabEngine
import Synchronization

/// What a run process owns while it runs: its temporary store directory (stale ones of dead
/// runs are removed when it is made) and, once created, its run directory. SIGINT, SIGTERM
/// and SIGHUP mark the run interrupted and remove the stores before the process exits.
final class RunSession: Sendable {
    let work: WorkDirectory
    private let console: any Console
    private let directory = Mutex<RunDirectory?>(nil)

    init(console: any Console) throws(OperationError) {
        self.console = console
        do { work = try WorkDirectory.create() } catch { throw OperationError.from(error) }
    }

    /// Installs the SIGINT, SIGTERM and SIGHUP handlers (once per process).
    func handleStopSignals() {
        StopSignals.install { [self] _, name in self.stop(by: name) }
    }

    /// The run directory a stop marks interrupted.
    func attach(_ run: RunDirectory) {
        directory.withLock { $0 = run }
    }

    private func stop(by name: String) {
        let run = directory.withLock { $0 }
        run?.stop(.interrupted, reason: "stopped by \(name)")
        work.remove()
        if let run {
            console.note(
                "schemalab: stopped by \(name): \(run.state.done.count) of \(run.state.cases.count) cases are in \(run.path); "
                    + "`schemalab run --resume \(run.path)` finishes the others")
        } else {
            console.note("schemalab: stopped by \(name) before anything was written")
        }
    }

    /// Refuses a data set that would not fit (a failure), before the run directory exists.
    func checkFit(plan: ScenarioPlan, options: RunOptions, skip: Bool) throws(OperationError) {
        guard !skip else { return }
        do {
            try FitCheck.check(plan: plan, options: options)
        } catch let error as FitCheck.TooLarge {
            work.remove()
            throw OperationError(.failed, error.description)
        } catch {
            work.remove()
            throw OperationError(
                .failed, "the fit check could not measure a sample of the data set: \(error) (--skip-fit-check runs without it)")
        }
    }
}
