import ArgumentParser
import Foundation
import SchemaLab
import SchemaLabSQLite
import SchemaLabCoreData
import SchemaLabEngine

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Runs a scenario and writes results.csv, samples.csv, plans.csv, failures.csv, env.json and run.json.",
        discussion: """
            Each case's rows are written as soon as it ends, atomically, so a run stopped at any \
            moment keeps every finished case; `run --resume DIR` finishes the others. SIGINT and \
            SIGTERM stop the run cleanly (exit 130 and 143). A case that fails is recorded in \
            failures.csv and the others go on (unless --fail-fast); the exit status is then 1.
            """
    )

    @Argument(help: "The scenario file (JSON). With --resume it may be left out: run.json names it.")
    var scenario: String?

    @Option(name: .long, help: "The output directory. It must not exist, unless --replace is given.")
    var out: String?

    @Option(name: .long, help: "Finish the cases a stopped run did not finish, in its directory, with its settings.")
    var resume: String?

    @Flag(name: .long, help: "Replace an existing output directory (the old one is kept as <out>.previous; an older .previous is deleted).")
    var replace = false

    @Option(name: .long, parsing: .upToNextOption, help: "Data set sizes to run instead of the scenario's counts.")
    var size: [Int] = []

    @Option(name: .long, help: "Measured repetitions per case (overrides the scenario).")
    var reps: Int?

    @Option(name: .long, help: "Warm-up runs per case (overrides the scenario).")
    var warmup: Int?

    @Option(name: .long, help: "Only these variants (comma-separated names).")
    var variants: String?

    @Option(name: .long, help: "Only these workloads (comma-separated names).")
    var workloads: String?

    @Option(name: .long, help: "Run the fetch workloads on copies of this existing Core Data store instead of generated data (the store is only read; each variant gets a copy with its indexes).")
    var store: String?

    @Flag(name: .long, help: "Stop at the first case that fails (the run can be resumed).")
    var failFast = false

    @Flag(name: .long, help: "Run even when the data set's measured size says it will not fit on disk or in memory.")
    var skipFitCheck = false

    @Flag(name: .long, help: "Print only errors and the final summary (no line per case, no progress).")
    var quiet = false

    @Flag(name: .long, help: "Measure each case from start to end instead of interleaving the repetitions of a workload's variants.")
    var sequential = false

    @Option(name: .long, help: "Run only shard I of N (I/N): a deterministic share of the cases, a workload's variants together; `schemalab merge` joins the shards.")
    var shard: String?

    @Flag(name: .long, help: "Also count each case's instructions under valgrind's callgrind (instructions, sqlite_instructions; about 50x slower per counted run).")
    var instructions = false

    @Option(name: .long, help: ArgumentHelp("Test aid for the regression gate: VARIANT/WORKLOAD=FACTOR slows that case's timed region (2: the work done twice on the same store, for read workloads; 1.25: a spin for 25% more time).", visibility: .hidden))
    var injectSlowdown: [String] = []

    /// `VARIANT/WORKLOAD=FACTOR` as ("VARIANT/WORKLOAD", FACTOR).
    static func parseSlowdown(_ text: String) -> (String, Double)? {
        let parts = text.split(separator: "=")
        guard parts.count == 2, parts[0].contains("/"), let f = Double(parts[1]), f >= 1 else { return nil }
        return (String(parts[0]), f)
    }

    /// `I/N` as (I, N), or nil when malformed.
    static func parseShard(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(i) else { return nil }
        return (i, n)
    }

    /// Bad options are bad input: exit 2 like a bad scenario (ArgumentParser's own errors exit 64).
    func validate() throws {
        if size.contains(where: { $0 <= 0 }) { throw fail("--size takes positive counts", code: 2) }
        if let reps, reps < 1 { throw fail("--reps must be at least 1", code: 2) }
        if let warmup, warmup < 0 { throw fail("--warmup must be 0 or more", code: 2) }
        for s in injectSlowdown where Self.parseSlowdown(s) == nil {
            throw fail("--inject-slowdown takes VARIANT/WORKLOAD=FACTOR with a factor of 1 or more; found '\(s)'", code: 2)
        }
        if let shard, Self.parseShard(shard) == nil { throw fail("--shard takes I/N with 1 <= I <= N, like 2/4; found '\(shard)'", code: 2) }
        if instructions, let why = InstructionCounter.unavailable() { throw fail("--instructions: \(why)", code: 1) }
        if let resume {
            if let out, out != resume { throw fail("--resume writes into the directory it names: leave out --out", code: 2) }
            if !size.isEmpty || reps != nil || warmup != nil || variants != nil || workloads != nil || replace || sequential || shard != nil || instructions || store != nil {
                throw fail("--resume continues a run with the settings in its run.json: leave out --size, --reps, --warmup, --variants, --workloads, --sequential, --shard, --instructions, --store and --replace", code: 2)
            }
        } else {
            if scenario == nil { throw fail("give a scenario file (or --resume DIR)", code: 2) }
            if out == nil { throw fail("give an output directory with --out", code: 2) }
            if store != nil && !size.isEmpty { throw fail("--store runs on the store's own rows: leave out --size", code: 2) }
        }
    }

    func run() throws {
        if let resume { try resumeRun(resume) } else { try newRun(scenario!, out: out!) }
    }

    private func loadPlan(_ path: String) throws -> ScenarioPlan {
        do { return try ScenarioPlan(ScenarioDecoder.load(path: path)) } catch let e as ScenarioError { throw fail(e.description, code: 2) }
    }

    private func newRun(_ scenario: String, out: String) throws {
        let plan = try loadPlan(scenario)
        let names = { (list: String?, all: [String], what: String) throws -> [String]? in
            guard let list else { return nil }
            let picked = list.split(separator: ",").map { String($0) }
            for p in picked where !all.contains(p) {
                throw fail("no \(what) '\(p)' in \(scenario) (has: \(all.joined(separator: ", ")))", code: 2)
            }
            return picked
        }
        var options = RunOptions(
            sizes: size.isEmpty ? nil : size, repetitions: reps, warmup: warmup,
            variants: try names(variants, plan.scenario.variants.map(\.name), "variant"),
            workloads: try names(workloads, plan.scenario.workloads.map(\.name), "workload"),
            workDirectory: "")
        options.sequential = sequential
        options.shard = shard.flatMap(Self.parseShard)
        options.instructions = instructions
        options.executable = InstructionCounter.currentExecutable
        options.slowdowns = Dictionary(injectSlowdown.compactMap(Self.parseSlowdown), uniquingKeysWith: { _, b in b })
        if let store { try useStore(store, plan: plan, options: &options) }
        do { try RunDirectory.checkTarget(out, replace: replace) } catch let e as FileError { throw fail(e.message, code: e.isBadInput ? 2 : 1) }
        let session = try RunSession()
        session.handleStopSignals()
        options.workDirectory = instructions ? InstructionCounter.fixedLengthDirectory(in: session.work.path) : session.work.path
        try session.checkFit(plan: plan, options: options, skip: skipFitCheck)
        let runner = LabRunner(plan: plan, options: options)
        let state = RunState(state: .running, scenarioName: plan.scenario.name, scenarioFile: scenario,
                             scenarioPath: URL(fileURLWithPath: scenario).standardizedFileURL.path,
                             scenarioSHA256: plan.scenario.sha256, settings: options.settings, cases: runner.cases())
        let dir: RunDirectory
        do {
            dir = try RunDirectory.create(path: out, replace: replace, state: state, manifest: RunManifest(plan: plan, options: options),
                                          reference: plan.scenario.reference, agreesWith: ResultChecks.agreements(plan.scenario.workloads))
        } catch let e as FileError {
            session.work.remove()
            throw fail(e.message, code: e.isBadInput ? 2 : 1)
        }
        note("schemalab: \(plan.scenario.name) on SQLite \(SQLiteLibrary.version): \(state.cases.count) cases into \(out)")
        try execute(runner, dir: dir, session: session)
    }

    /// `--store`: checks every variant of the run against the store, runs only the read
    /// workloads, at the store's number of rows of the data set's entity.
    private func useStore(_ path: String, plan: ScenarioPlan, options: inout RunOptions) throws {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let snapshot: ExistingStore.Snapshot
        do { snapshot = try ExistingStore.open(absolute) } catch let e as StoreMismatch { throw fail(e.description, code: 2) }
        let db = snapshot.db!
        let models = plan.models.filter { options.variants?.contains($0.variant) ?? true }
        var mismatches: [String] = [], matching: [String] = []
        for m in models {
            do {
                try ExistingStore.check(db, store: path, model: m)
                matching.append(m.variant)
            } catch let e as StoreMismatch {
                mismatches.append(e.description)
            }
        }
        if !mismatches.isEmpty {
            let hint = matching.isEmpty ? "no variant of the scenario matches it" : "the store matches \(matching.joined(separator: ", ")): pick those with --variants"
            throw fail(mismatches.joined(separator: "\n") + "\n(with --store, every variant must have the store's tables and columns, and may differ from it in its indexes only; \(hint))", code: 2)
        }
        let reads: Set<WorkloadKind> = [.fetch, .fetchedResults]
        let chosen = plan.scenario.workloads.filter { options.workloads?.contains($0.name) ?? true }
        if let asked = options.workloads, let write = chosen.first(where: { asked.contains($0.name) && !reads.contains($0.kind) }) {
            throw fail("--store runs fetch workloads only (the store is never written): \(write.name) is a \(write.kind.rawValue) workload", code: 2)
        }
        let runnable = chosen.filter { reads.contains($0.kind) }
        guard !runnable.isEmpty else { throw fail("--store runs fetch workloads only, and \(plan.scenario.file) has none", code: 2) }
        let skipped = chosen.filter { !reads.contains($0.kind) }.map(\.name)
        if !skipped.isEmpty && !quiet { note("schemalab: --store: skipping the workloads that write: \(skipped.joined(separator: ", "))") }
        options.workloads = runnable.map(\.name)
        let rows = try ExistingStore.rowCount(db, model: models.first ?? plan.models[0], entity: plan.scenario.dataset.entity)
        guard rows > 0 else { throw fail("\(path): the store holds no \(plan.scenario.dataset.entity) objects (the data set's entity)", code: 2) }
        options.sizes = [rows]
        options.store = absolute
    }

    private func resumeRun(_ path: String) throws {
        let recorded: RunState
        do { recorded = try RunDirectory.readState(at: path) } catch let e as FileError { throw fail(e.message, code: 2) }
        let scenarioPath = scenario ?? recorded.scenarioPath
        let plan = try loadPlan(scenarioPath)
        guard plan.scenario.sha256 == recorded.scenarioSHA256 else {
            throw fail("cannot resume \(path): \(scenarioPath) has changed since the run started (SHA-256 \(recorded.scenarioSHA256.prefix(12))… then, \(plan.scenario.sha256.prefix(12))… now): start a new run", code: 2)
        }
        let dir: RunDirectory, manifest: RunManifest
        do {
            (dir, manifest) = try RunDirectory.open(path: path, reference: plan.scenario.reference,
                                                    agreesWith: ResultChecks.agreements(plan.scenario.workloads))
        } catch let e as FileError {
            throw fail(e.message, code: e.isBadInput ? 2 : 1)
        }
        let differences = manifest.environment.differences(from: EnvironmentFingerprint())
        guard differences.isEmpty else {
            throw fail("cannot resume \(path): the environment is not the one the run started in (\(differences.joined(separator: "; "))): start a new run", code: 2)
        }
        let session = try RunSession()
        session.handleStopSignals()
        var options = RunOptions(settings: recorded.settings, workDirectory: session.work.path)
        options.executable = InstructionCounter.currentExecutable
        if options.instructions, let why = InstructionCounter.unavailable() { throw fail("--instructions (recorded in run.json): \(why)", code: 1) }
        if options.instructions { options.workDirectory = InstructionCounter.fixedLengthDirectory(in: session.work.path) }
        let runner = LabRunner(plan: plan, options: options)
        guard runner.cases() == recorded.cases else {
            session.work.remove()
            throw fail("cannot resume \(path): this build plans other cases for the scenario than run.json lists: start a new run", code: 2)
        }
        try session.checkFit(plan: plan, options: options, skip: skipFitCheck)
        do { try dir.beginResume() } catch let e as FileError {
            session.work.remove()
            throw fail(e.message, code: 1)
        }
        note("schemalab: resuming \(path): \(dir.state.done.count) of \(dir.state.cases.count) cases are done")
        try execute(runner, dir: dir, session: session)
    }

    /// Runs the cases the directory lacks, committing each; then marks the run complete,
    /// prints the summary and sets the exit status.
    private func execute(_ runner: LabRunner, dir: RunDirectory, session: RunSession) throws {
        session.attach(dir)
        defer { session.work.remove() }
        var runner = runner
        // On a terminal a progress line; a line per finished case (the only progress without a terminal).
        let line = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) != 0)
        runner.activity = { line.update($0) }
        runner.filled = { fill in
            try dir.recordFill(fill)
            guard !quiet else { return }
            line.clear()
            let mb = fill.peakRSSKB >= 0 ? String(format: ", peak resident %.1f MB", Double(fill.peakRSSKB) / 1024) : ""
            let verb = runner.options.store != nil ? "copied the store for" : "filled"
            note(String(format: "  %@ %@ n=%d in %.2f s%@", verb, fill.variant, fill.size, fill.milliseconds / 1000, mb))
        }
        runner.progress = { text in
            guard !quiet else { return }
            line.clear()
            note("  " + text)
        }
        defer { line.clear() }
        let variantOrder = runner.plan.scenario.variants.map(\.name), workloadOrder = runner.plan.scenario.workloads.map(\.name)
        var failures: [CaseKey] = []
        do {
            try runner.run(skip: { dir.isDone($0) }, finished: { result in
                try dir.commit(CaseRecord(result, variants: variantOrder, workloads: workloadOrder))
            }, failed: { key, error in
                failures.append(key)
                line.clear()
                note("schemalab: case \(key) failed: \(error)")
                try dir.recordFailure(key, error: error)
                return !failFast
            })
        } catch let e as ScenarioError {
            dir.stop(.failed, reason: e.description)
            throw fail(e.description, code: 2)
        } catch let e as FileError {
            dir.stop(.failed, reason: e.message)
            throw fail("\(e.message); the \(dir.state.done.count) cases finished before it are kept in \(dir.path) (`schemalab run --resume \(dir.path)` finishes the run)", code: 1)
        } catch {
            dir.stop(.failed, reason: "\(error)")
            throw fail("run failed: \(error)", code: 1)
        }
        if failFast, let first = failures.first {
            dir.stop(.failed, reason: "--fail-fast: case \(first) failed")
            throw fail("stopped at the first failed case (--fail-fast): \(first); see \(dir.path)/failures.csv. `schemalab run --resume \(dir.path)` tries the rest", code: 1)
        }
        do { try dir.finish() } catch let e as FileError { throw fail(e.message, code: 1) }
        line.clear()
        print(SummaryTable.render(dir.records, variants: variantOrder, workloads: workloadOrder))
        let differing = dir.records.filter { $0.referenceCheck == .differs || $0.agreementCheck == .differs }
        if !differing.isEmpty {
            note("schemalab: \(differing.count) case(s) returned a different result than they must (reference_check / agreement_check in results.csv)")
        }
        note("schemalab: wrote \(dir.path)/results.csv, samples.csv, plans.csv, failures.csv, env.json, run.json")
        if !dir.state.failed.isEmpty {
            throw fail("\(dir.state.failed.count) case(s) failed: \(dir.path)/failures.csv has each with its error and SQL", code: 1)
        }
        try checkAssertions(runner.plan.scenario, dir: dir.path)
    }

    /// The scenario's assertions against the finished run: exit 2 naming each that failed.
    private func checkAssertions(_ scenario: Scenario, dir: String) throws {
        guard !scenario.assertions.isEmpty else { return }
        let snapshot: RunSnapshot
        do { snapshot = try RunSnapshot(path: dir) } catch { throw fail(error.message, code: 1) }
        let check = AssertionCheck(scenario: scenario, run: snapshot)
        for f in check.failures { note("assertion failed: " + f) }
        for n in check.notes { note("note: " + n) }
        let skipped = check.skipped > 0 ? " (\(check.skipped) about cases this run does not have, skipped)" : ""
        guard check.failures.isEmpty else {
            throw fail("\(check.failedChecks) of \(check.checked) assertion checks failed\(skipped)", code: 2)
        }
        note("schemalab: \(check.checked) assertion checks hold\(skipped)")
    }
}
