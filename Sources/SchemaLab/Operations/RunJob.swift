import Foundation
import SchemaLabCoreData
import SchemaLabEngine
import SchemaLabSQLite
#if canImport(Glibc)
import Glibc
#endif

/// `schemalab run`: a scenario run into a run directory, or a stopped run finished.
///
/// Each case's rows are committed as soon as it ends, so a run stopped at any moment keeps
/// every finished case; SIGINT, SIGTERM and SIGHUP stop it cleanly. A case that fails is
/// recorded in failures.csv and the others go on (unless ``failFast``). When every case ran,
/// the summary table is printed and the scenario's assertions are checked.
public struct RunJob {
    /// Stop at the first case that fails (the run can be resumed).
    public var failFast = false
    /// Run even when the data set's measured size says it will not fit.
    public var skipFitCheck = false
    /// Only errors and the final summary: no line per case, no fill lines, no progress.
    public var quiet = false
    /// Where the output goes.
    public let console: any Console

    public init(console: any Console) {
        self.console = console
    }

    /// Runs `request` into a new run directory. Throws bad input (exit 2) for a scenario or
    /// options that do not fit, a failure (exit 1) when a case or the run failed, and a
    /// regression (exit 2) when an assertion of the scenario does not hold.
    public func start(_ request: RunRequest) throws(OperationError) {
        let plan = try Self.loadPlan(request.scenario)
        func names(_ picked: [String]?, _ all: [String], _ what: String) throws(OperationError) -> [String]? {
            guard let picked else { return nil }
            guard !picked.isEmpty else {
                throw OperationError(.badInput, "--\(what)s selects no \(what) (has: \(all.joined(separator: ", ")))")
            }
            for name in picked where !all.contains(name) {
                throw OperationError(.badInput, "no \(what) '\(name)' in \(request.scenario) (has: \(all.joined(separator: ", ")))")
            }
            return picked
        }
        var options = RunOptions(
            sizes: request.sizes.isEmpty ? nil : request.sizes, repetitions: request.repetitions, warmup: request.warmup,
            variants: try names(request.variants, plan.scenario.variants.map(\.name), "variant"),
            workloads: try names(request.workloads, plan.scenario.workloads.map(\.name), "workload"),
            workDirectory: "")
        options.sequential = request.sequential
        options.shard = request.shard
        options.instructions = request.instructions
        options.executable = InstructionCounter.currentExecutable
        options.slowdowns = request.slowdowns
        if let store = request.store { try useStore(store, plan: plan, options: &options) }
        do { try RunDirectory.checkTarget(request.out, replace: request.replace) } catch { throw OperationError.from(error) }
        let session = try RunSession(console: console)
        session.handleStopSignals()
        options.workDirectory = request.instructions ? InstructionCounter.fixedLengthDirectory(in: session.work.path) : session.work.path
        try session.checkFit(plan: plan, options: options, skip: skipFitCheck)
        let runner = LabRunner(plan: plan, options: options)
        let state = RunState(
            state: .running, scenarioName: plan.scenario.name, scenarioFile: request.scenario,
            scenarioPath: URL(fileURLWithPath: request.scenario).standardizedFileURL.path,
            scenarioSHA256: plan.scenario.sha256, settings: options.settings, cases: runner.cases())
        let directory: RunDirectory
        do {
            directory = try RunDirectory.create(
                path: request.out, replace: request.replace, state: state,
                manifest: RunManifest(plan: plan, options: options), checker: ResultChecker(scenario: plan.scenario))
        } catch {
            session.work.remove()
            throw OperationError.from(error)
        }
        console.note("schemalab: \(plan.scenario.name) on SQLite \(SQLiteLibrary.version): \(state.cases.count) cases into \(request.out)")
        try execute(runner, directory: directory, session: session)
    }

    /// Finishes the cases of the stopped run at `path`, with the settings its run.json records;
    /// `scenario` overrides the scenario file it names (the file must be unchanged).
    public func resume(_ path: String, scenario: String? = nil) throws(OperationError) {
        let recorded: RunState
        do { recorded = try RunDirectory.readState(at: path) } catch { throw OperationError.from(error, status: .badInput) }
        let scenarioPath = scenario ?? recorded.scenarioPath
        if scenario == nil && !FileManager.default.fileExists(atPath: scenarioPath) {
            throw OperationError(
                .badInput,
                "cannot resume \(path): its run.json names the scenario \(scenarioPath), which is not there (moved?); "
                    + "give the file: schemalab run FILE --resume \(path)")
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
        // Everything that can refuse the resume before the temporary store directory exists.
        var options = RunOptions(settings: recorded.settings, workDirectory: "")
        options.executable = InstructionCounter.currentExecutable
        if options.instructions, let why = InstructionCounter.unavailable() {
            throw OperationError(.failed, "--instructions (recorded in run.json): \(why)")
        }
        guard LabRunner(plan: plan, options: options).cases() == recorded.cases else {
            throw OperationError(
                .badInput, "cannot resume \(path): this build plans other cases for the scenario than run.json lists: start a new run")
        }
        let session = try RunSession(console: console)
        session.handleStopSignals()
        options.workDirectory =
            options.instructions ? InstructionCounter.fixedLengthDirectory(in: session.work.path) : session.work.path
        let runner = LabRunner(plan: plan, options: options)
        try session.checkFit(plan: plan, options: options, skip: skipFitCheck)
        do { try directory.beginResume() } catch {
            session.work.remove()
            throw OperationError.from(error, status: .failed)
        }
        console.note("schemalab: resuming \(path): \(directory.state.done.count) of \(directory.state.cases.count) cases are done")
        try execute(runner, directory: directory, session: session)
    }

    /// The scenario at `path`, validated and resolved; bad input when it does not validate.
    static func loadPlan(_ path: String) throws(OperationError) -> ScenarioPlan {
        do { return try ScenarioPlan(ScenarioDecoder.load(path: path)) } catch { throw OperationError.from(error) }
    }

    /// `--store`: checks every variant of the run against the store, runs only the workloads
    /// that read, at the store's number of rows of the data set's entity.
    private func useStore(_ path: String, plan: ScenarioPlan, options: inout RunOptions) throws(OperationError) {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let snapshot: ExistingStore.Snapshot
        do { snapshot = try ExistingStore.open(absolute) } catch { throw OperationError.from(error) }
        let db = snapshot.db!
        let models = plan.models.filter { options.variants?.contains($0.variant) ?? true }
        var mismatches: [String] = [], matching: [String] = []
        for model in models {
            do {
                try ExistingStore.check(db, store: path, model: model)
                matching.append(model.variant)
            } catch let error as StoreMismatch {
                mismatches.append(error.description)
            } catch {
                throw OperationError(.badInput, "\(path): cannot read it as a Core Data store: \(error)")
            }
        }
        if !mismatches.isEmpty {
            let hint =
                matching.isEmpty
                ? "no variant of the scenario matches it"
                : "the store matches \(matching.joined(separator: ", ")): pick those with --variants"
            throw OperationError(
                .badInput,
                mismatches.joined(separator: "\n")
                    + "\n(with --store, every variant must have the store's tables and columns, and may differ from it in its indexes only; \(hint))"
            )
        }
        let chosen = plan.scenario.workloads.filter { options.workloads?.contains($0.name) ?? true }
        if let asked = options.workloads, let write = chosen.first(where: { asked.contains($0.name) && !$0.kind.readsOnly }) {
            throw OperationError(
                .badInput,
                "--store runs fetch workloads only (the store is never written): \(write.name) is \(write.kind.phrase)")
        }
        let runnable = chosen.filter(\.kind.readsOnly)
        guard !runnable.isEmpty else {
            throw OperationError(.badInput, "--store runs fetch workloads only, and \(plan.scenario.file) has none")
        }
        let skipped = chosen.filter { !$0.kind.readsOnly }.map(\.name)
        if !skipped.isEmpty && !quiet {
            console.note("schemalab: --store: skipping the workloads that write: \(skipped.joined(separator: ", "))")
        }
        options.workloads = runnable.map(\.name)
        let rows: Int
        do {
            rows = try ExistingStore.rowCount(db, model: models.first ?? plan.models[0], entity: plan.scenario.dataset.entity)
        } catch {
            // A page-level corruption shows only here, when a table is read: the message names the file.
            throw OperationError(.badInput, "\(path): cannot read it as a Core Data store: \(error)")
        }
        guard rows > 0 else {
            throw OperationError(.badInput, "\(path): the store holds no \(plan.scenario.dataset.entity) objects (the data set's entity)")
        }
        options.sizes = [rows]
        options.store = absolute
    }

    /// Runs the cases the directory lacks, committing each; then marks the run complete,
    /// prints the summary and checks the scenario's assertions.
    private func execute(_ runner: LabRunner, directory: RunDirectory, session: RunSession) throws(OperationError) {
        session.attach(directory)
        defer { session.work.remove() }
        var runner = runner
        let console = self.console, quiet = self.quiet, failFast = self.failFast
        if !quiet { runner.activity = { console.progress($0) } }
        runner.filled = { fill in
            try directory.recordFill(fill)
            guard !quiet else { return }
            let mb = fill.peakRSSKB >= 0 ? String(format: ", peak resident %.1f MB", Double(fill.peakRSSKB) / 1024) : ""
            let verb = runner.options.store != nil ? "copied the store for" : "filled"
            console.note(String(format: "  %@ %@ n=%d in %.2f s%@", verb, fill.variant, fill.size, fill.milliseconds / 1000, mb))
        }
        runner.progress = { text in
            guard !quiet else { return }
            console.note("  " + text)
        }
        let variantOrder = runner.plan.scenario.variants.map(\.name), workloadOrder = runner.plan.scenario.workloads.map(\.name)
        var failures: [CaseKey] = []
        do {
            try runner.run(
                skip: { directory.isDone($0) },
                finished: { result in
                    try directory.commit(RecordedCase(result, variants: variantOrder, workloads: workloadOrder))
                },
                failed: { key, error in
                    failures.append(key)
                    console.note("schemalab: case \(key) failed: \(error)")
                    try directory.recordFailure(key, CaseFailure(error))
                    return !failFast
                })
        } catch let error as ScenarioError {
            directory.stop(.failed, reason: error.description)
            throw OperationError(.badInput, error.description)
        } catch let error as FileError {
            directory.stop(.failed, reason: error.message)
            throw OperationError(
                .failed,
                "\(error.message); the \(directory.state.done.count) cases finished before it are kept in \(directory.path) (`schemalab run --resume \(directory.path)` finishes the run)"
            )
        } catch {
            directory.stop(.failed, reason: "\(error)")
            throw OperationError(.failed, "run failed: \(error)")
        }
        if failFast, let first = failures.first {
            directory.stop(.failed, reason: "--fail-fast: case \(first) failed")
            throw OperationError(
                .failed,
                "stopped at the first failed case (--fail-fast): \(first); see \(directory.path)/failures.csv. `schemalab run --resume \(directory.path)` tries the rest"
            )
        }
        do { try directory.finish() } catch { throw OperationError.from(error, status: .failed) }
        console.print(SummaryTable.render(directory.records, variants: variantOrder, workloads: workloadOrder))
        let differing = directory.records.filter { $0.summary.referenceCheck == .differs || $0.summary.agreementCheck == .differs }
        if !differing.isEmpty {
            console.note(
                "schemalab: \(differing.count) case(s) returned a different result than they must (reference_check / agreement_check in results.csv)"
            )
        }
        let claimsFile = writeClaims(runner.plan.scenario, directory: directory.path)
        console.note(
            "schemalab: wrote \(directory.path)/results.csv, samples.csv, plans.csv, failures.csv, env.json, run.json\(claimsFile)")
        if !directory.state.failed.isEmpty {
            throw OperationError(
                .failed, "\(directory.state.failed.count) case(s) failed: \(directory.path)/failures.csv has each with its error and SQL")
        }
        try checkAssertions(runner, directory: directory.path, session: session)
    }

    /// Writes claims.csv (the scenario's claims judged on the run) and prints the verdict counts;
    /// returns ", claims.csv" for the list of files written, or "" when there are no claims. A
    /// claims file that cannot be written is a note: the run's results are kept.
    private func writeClaims(_ scenario: Scenario, directory: String) -> String {
        guard !scenario.claims.isEmpty else { return "" }
        do {
            let evaluations = try ClaimsFile.write(scenario: scenario, directory: directory)
            console.note("schemalab: claims: \(ClaimVerdict.summary(evaluations.map(\.verdict)))")
            return ", claims.csv"
        } catch {
            console.note("schemalab: no claims.csv: \(error.message)")
            return ""
        }
    }

    /// The scenario's assertions against the finished run: a regression naming each that failed.
    /// A time `fasterThan` the samples cannot decide is measured again, both cases, in rounds of
    /// ``AssertionCheck/sequentialRepetitions`` more repetitions (up to
    /// ``AssertionCheck/sequentialRounds``), pooled with the run's, before it fails. The extra
    /// repetitions decide the assertion only: results.csv keeps the run's own.
    private func checkAssertions(_ runner: LabRunner, directory: String, session: RunSession) throws(OperationError) {
        let scenario = runner.plan.scenario
        guard !scenario.assertions.isEmpty else { return }
        let snapshot: RunSnapshot
        do { snapshot = try RunSnapshot(path: directory) } catch { throw OperationError(.failed, error.message) }
        let check = AssertionCheck.sequential(
            scenario: scenario, run: snapshot, note: { console.note("schemalab: " + $0) },
            measure: { keys, round in measureAgain(keys, runner: runner, session: session, round: round) })
        for failure in check.failures { console.note("assertion failed: " + failure) }
        for note in check.notes { console.note("note: " + note) }
        let skipped = check.skipped > 0 ? " (\(check.skipped) about cases this run does not have, skipped)" : ""
        guard check.failures.isEmpty else {
            throw OperationError(.regression, "\(check.failedChecks) of \(check.checked) assertion checks failed\(skipped)")
        }
        console.note("schemalab: \(check.checked) assertion checks hold\(skipped)")
    }

    /// More repetitions of `keys`, measured as the run measured them (interleaved, after a
    /// warm-up, on their own stores), without instruction counts; a case that fails adds none.
    private func measureAgain(_ keys: Set<CaseKey>, runner: LabRunner, session: RunSession, round: Int) -> [CaseKey: [Double]] {
        var out: [CaseKey: [Double]] = [:]
        let groups = Dictionary(grouping: keys) { "\($0.workload) \($0.size)" }
        for (_, group) in groups.sorted(by: { $0.key < $1.key }) {
            var options = runner.options
            options.sizes = [group[0].size]
            options.workloads = [group[0].workload]
            options.variants = Array(Set(group.map(\.variant))).sorted()
            options.repetitions = AssertionCheck.sequentialRepetitions
            options.instructions = false
            options.shard = nil
            options.orderSeed = runner.options.orderSeed &+ UInt64(round)
            options.workDirectory = session.work.path + "/sequential-\(round)"
            let again = LabRunner(plan: runner.plan, options: options)
            do {
                try again.run(
                    skip: { !keys.contains($0) },
                    finished: { result in
                        out[CaseKey(variant: result.variant, workload: result.workload, size: result.size), default: []] += result.samples
                            .map(\.wallMs)
                    },
                    failed: { key, error in
                        console.note("schemalab: measuring \(key) again failed: \(error)")
                        return true
                    })
            } catch {
                console.note("schemalab: measuring again failed: \(error)")
            }
        }
        return out
    }
}
