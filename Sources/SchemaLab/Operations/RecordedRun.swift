import Foundation
import SchemaLabCoreData
import SchemaLabEngine
import SchemaLabSQLite

/// A run recorded in a run directory (what `schemalab run` does), or a stopped run finished:
/// ``Lab`` runs it, a `RunDirectoryRecorder` commits each case as soon as it ends, so a run
/// stopped at any moment keeps every finished case; when every case ran, the directory is
/// marked complete and claims.csv written.
package struct RecordedRun {
    /// What a recorded run left.
    package struct Outcome {
        /// The run directory, complete unless the run stopped at a failed case.
        package let directory: RunDirectory
        /// What this process measured (a resumed run: the cases it finished), with the claims
        /// and assertions judged on every case of the directory.
        package let result: RunResult
        /// Why claims.csv could not be written (the run's results are kept); nil when it was,
        /// or when the scenario states no claims.
        package let claimsError: String?
    }

    /// The temporary stores and the directory an interruption marks.
    package let workspace: RunWorkspace

    package init(workspace: RunWorkspace) {
        self.workspace = workspace
    }

    /// Runs the scenario at `scenario` into a new run directory at `out` (which must not
    /// exist, unless `replace`: the old one is kept as `<out>.previous`), with `options`
    /// (their work directory is the workspace's). Bad input for a scenario or options that do
    /// not fit; a failure when the run itself failed (a full disk); cases that failed are in
    /// the outcome.
    package func start(scenario: String, out: String, replace: Bool, options: RunOptions, observer: any RunObserver)
        throws(OperationError) -> Outcome
    {
        let plan = try Self.loadPlan(scenario)
        do { try RunDirectory.checkTarget(out, replace: replace) } catch { throw OperationError.from(error) }
        var options = options
        options.workDirectory = workspace.path
        let scenarioPath = URL(fileURLWithPath: scenario).standardizedFileURL.path
        let workspace = self.workspace
        let recorder = RunDirectoryRecorder(
            variants: plan.scenario.variants.map(\.name), workloads: plan.scenario.workloads.map(\.name), next: observer
        ) { runPlan in
            let state = RunState(
                state: .running, scenarioName: plan.scenario.name, scenarioFile: scenario, scenarioPath: scenarioPath,
                scenarioSHA256: plan.scenario.sha256, settings: runPlan.options.settings, cases: runPlan.cases)
            let directory = try RunDirectory.create(
                path: out, replace: replace, state: state, manifest: RunManifest(plan: plan, options: runPlan.options),
                checker: ResultChecker(scenario: plan.scenario))
            workspace.attach(directory)
            return directory
        }
        return try record(plan, options: options, recorder: recorder)
    }

    /// Finishes the cases of the stopped run at `path` with the settings its run.json records;
    /// `scenario` overrides the scenario file it names (the file must be unchanged). The
    /// instructions are counted with `instructionCounter` when the run counted them.
    package func resume(
        _ path: String, scenario: String? = nil, instructionCounter: (any InstructionCounting)?, checksFit: Bool,
        observer: any RunObserver
    ) throws(OperationError) -> Outcome {
        let recorded: RunState
        do { recorded = try RunDirectory.readState(at: path) } catch { throw OperationError.from(error, status: .badInput) }
        let scenarioPath = scenario ?? recorded.scenarioPath
        if scenario == nil && !FileManager.default.fileExists(atPath: scenarioPath) {
            throw OperationError(
                .badInput, "cannot resume \(path): its run.json names the scenario \(scenarioPath), which is not there (moved?)",
                remedy: .resumeWithScenario(path))
        }
        let plan = try Self.loadPlan(scenarioPath)
        guard plan.scenario.sha256 == recorded.scenarioSHA256 else {
            throw OperationError(
                .badInput,
                "cannot resume \(path): \(scenarioPath) has changed since the run started (SHA-256 \(recorded.scenarioSHA256.prefix(12))… then, \(plan.scenario.sha256.prefix(12))… now): start a new run"
            )
        }
        let directory: RunDirectory, manifest: RunManifest
        do {
            (directory, manifest) = try RunDirectory.open(path: path, checker: ResultChecker(scenario: plan.scenario))
        } catch {
            throw OperationError.from(error)
        }
        let differences = manifest.environment.differences(from: EnvironmentFingerprint())
        guard differences.isEmpty else {
            throw OperationError(
                .badInput,
                "cannot resume \(path): the environment is not the one the run started in (\(differences.joined(separator: "; "))): start a new run"
            )
        }
        var options = RunOptions(settings: recorded.settings, instructionCounter: instructionCounter)
        options.checksFit = checksFit
        options.workDirectory = workspace.path
        if recorded.settings.instructions ?? false, instructionCounter == nil {
            throw OperationError(.failed, "cannot resume \(path): its run counted instructions, and no counter is given")
        }
        guard CaseScheduler(plan: plan, options: options, workDirectory: "").cases() == recorded.cases else {
            throw OperationError(
                .badInput, "cannot resume \(path): this build plans other cases for the scenario than run.json lists: start a new run")
        }
        do { try directory.beginResume() } catch { throw OperationError.from(error, status: .failed) }
        workspace.attach(directory)
        let recorder = RunDirectoryRecorder(
            directory: directory, variants: plan.scenario.variants.map(\.name), workloads: plan.scenario.workloads.map(\.name),
            next: observer)
        return try record(plan, options: options, recorder: recorder, earlier: directory.records, earlierFills: directory.fills)
    }

    /// The scenario at `path`, validated and resolved; bad input when it does not validate.
    static func loadPlan(_ path: String) throws(OperationError) -> ScenarioPlan {
        do { return try ScenarioPlan(ScenarioDecoder.load(path: path)) } catch { throw OperationError.from(error) }
    }

    /// Runs the cases the directory lacks, each committed by `recorder`; then marks the run
    /// complete (unless it stopped at a failed case) and writes claims.csv.
    private func record(
        _ plan: ScenarioPlan, options: RunOptions, recorder: RunDirectoryRecorder, earlier: [RecordedCase] = [],
        earlierFills: [FillMeasurement] = []
    ) throws(OperationError) -> Outcome {
        let result: RunResult
        do {
            result = try Lab.run(plan, options: options, observer: recorder, earlier: earlier, earlierFills: earlierFills)
        } catch {
            throw stopped(recorder.directory, by: error)
        }
        guard let directory = recorder.directory else {
            throw OperationError(.failed, "the run ended before its directory was made")
        }
        if result.stoppedAtFailure, let first = result.failures.first {
            directory.stop(.failed, reason: "stopped at the first failed case: \(first.key)")
            return Outcome(directory: directory, result: result, claimsError: nil)
        }
        // The stores go before the run is marked complete: a run killed between the two would
        // otherwise leave its stores behind with nothing left to resume (RunDurabilityTests saw it).
        workspace.remove()
        do { try directory.finish() } catch { throw OperationError.from(error, status: .failed) }
        var claimsError: String?
        do {
            if plan.scenario.claims.isEmpty {
                try? FileManager.default.removeItem(atPath: directory.path + "/" + ClaimRecord.fileName)
            } else {
                try ClaimsFile.write(result.claims, scenario: plan.scenario.name, directory: directory.path)
            }
        } catch {
            claimsError = error.message
        }
        return Outcome(directory: directory, result: result, claimsError: claimsError)
    }

    /// The error that stopped a run, with the directory marked failed (its finished cases kept).
    private func stopped(_ directory: RunDirectory?, by error: any Error) -> OperationError {
        switch error {
        case let error as ScenarioError:
            directory?.stop(.failed, reason: error.description)
            return OperationError(.badInput, error.description)
        case let error as OperationError:
            directory?.stop(.failed, reason: error.message)
            return error
        case let error as FileError:
            directory?.stop(.failed, reason: error.message)
            guard let directory else { return OperationError.from(error) }
            return OperationError(
                .failed, "\(error.message); the \(directory.state.done.count) cases finished before it are kept in \(directory.path)",
                remedy: .resume(directory.path))
        default:
            directory?.stop(.failed, reason: "\(error)")
            return OperationError(.failed, "run failed: \(error)")
        }
    }
}
