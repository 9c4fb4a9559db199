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
            moment keeps every finished case; `run --resume DIR` finishes the others. SIGINT, \
            SIGTERM and SIGHUP stop the run cleanly (exit 130, 143 and 129). A case that fails is recorded in \
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

    @OptionGroup var filter: CaseFilterOptions

    @Option(
        name: .long,
        help:
            "Run the fetch workloads on copies of this existing Core Data store instead of generated data (the store is only read; each variant gets a copy with its indexes)."
    )
    var store: String?

    @Flag(name: .long, help: "Stop at the first case that fails (the run can be resumed).")
    var failFast = false

    @Flag(name: .long, help: "Run even when the data set's measured size says it will not fit on disk or in memory.")
    var skipFitCheck = false

    @Flag(name: .long, help: "Print only errors and the final summary (no line per case, no progress).")
    var quiet = false

    @Option(
        name: .long,
        help: "Without a terminal (CI, a log file), print a progress line at least every this many seconds (default 30; 0: never).")
    var progressEvery: Double = 30

    @Option(
        name: .long,
        help:
            "Seconds the run may spend measuring again the cases of claims whose interval reaches across a verdict boundary (default 3; 0: none); a claim still undecided says so."
    )
    var settleSeconds: Double = 3

    @Flag(
        name: .long,
        help: "Also render the run's charts (as `schemalab plot`) and write its report (as `schemalab report`) in the run directory.")
    var report = false

    @Flag(name: .long, help: "Measure each case from start to end instead of interleaving the repetitions of a workload's variants.")
    var sequential = false

    @Option(
        name: .long,
        help:
            "Run only shard I of N (I/N): a deterministic share of the cases, a workload's variants together; `schemalab merge` joins the shards."
    )
    var shard: String?

    @Flag(
        name: .long,
        help:
            "Also count each case's instructions under valgrind's callgrind (instructions, sqlite_instructions; about 50x slower per counted run)."
    )
    var instructions = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Test aid for the regression gate: VARIANT/WORKLOAD=FACTOR slows that case's timed region (2: the work done twice on the same store, for read workloads; 1.25: a spin for 25% more time).",
            visibility: .hidden))
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
        guard !helpRequested else { return }
        if size.contains(where: { $0 <= 0 }) { throw fail("--size takes positive counts", code: 2) }
        if let reps, reps < 1 { throw fail("--reps must be at least 1", code: 2) }
        if let warmup, warmup < 0 { throw fail("--warmup must be 0 or more", code: 2) }
        if !(progressEvery >= 0) || !progressEvery.isFinite {
            throw fail("--progress-every is 0 (never) or a number of seconds, found \(progressEvery)", code: 2)
        }
        if !(settleSeconds >= 0) || !settleSeconds.isFinite {
            throw fail("--settle-seconds is 0 (never) or a number of seconds, found \(settleSeconds)", code: 2)
        }
        for s in injectSlowdown where Self.parseSlowdown(s) == nil {
            throw fail("--inject-slowdown takes VARIANT/WORKLOAD=FACTOR with a factor of 1 or more; found '\(s)'", code: 2)
        }
        if let shard, Self.parseShard(shard) == nil {
            throw fail("--shard takes I/N with 1 <= I <= N, like 2/4; found '\(shard)'", code: 2)
        }
        if instructions, let why = CallgrindCounter.unavailable() {
            throw fail("--instructions: \(why) (make setup-instructions installs it)", code: 1)
        }
        if let resume {
            if let out, out != resume { throw fail("--resume writes into the directory it names: leave out --out", code: 2) }
            if !size.isEmpty || reps != nil || warmup != nil || filter.variants != nil || filter.workloads != nil || replace || sequential
                || shard != nil
                || instructions || store != nil
            {
                throw fail(
                    "--resume continues a run with the settings in its run.json: leave out --size, --reps, --warmup, --variants, --workloads, --sequential, --shard, --instructions, --store and --replace",
                    code: 2)
            }
        } else {
            if scenario == nil { throw fail("give a scenario file (or --resume DIR)", code: 2) }
            if out == nil { throw fail("give an output directory with --out", code: 2) }
            if store != nil && !size.isEmpty { throw fail("--store runs on the store's own rows: leave out --size", code: 2) }
        }
    }

    func run() throws {
        let console = TerminalConsole(showsProgress: !quiet, logInterval: progressEvery)
        defer { console.finish() }
        let workspace = try perform { () throws(OperationError) in try RunWorkspace() }
        defer { workspace.remove() }
        StopSignals.install { _, name in
            let stop = workspace.interrupt(reason: "stopped by \(name)")
            if let directory = stop.directory {
                console.note(
                    "schemalab: stopped by \(name): \(stop.done) of \(stop.cases) cases are in \(directory); "
                        + "`schemalab run --resume \(directory)` finishes the others")
            } else {
                console.note("schemalab: stopped by \(name) before anything was written")
            }
        }
        let recorded = RecordedRun(workspace: workspace)
        let observer = TerminalRunObserver(console: console, quiet: quiet)
        let outcome: RecordedRun.Outcome
        if let resume {
            let done = (try? RunDirectory.readState(at: resume))?.done.count ?? 0
            observer.startLine = { plan in "schemalab: resuming \(resume): \(done) of \(done + plan.cases.count) cases are done" }
            outcome = try perform { () throws(OperationError) in
                try recorded.resume(
                    resume, scenario: scenario, instructionCounter: CallgrindCounter(), checksFit: !skipFitCheck, observer: observer)
            }
        } else {
            let out = self.out!
            observer.startLine = { plan in
                "schemalab: \(plan.scenarioName) on SQLite \(SQLiteLibrary.version): \(plan.cases.count) cases into \(out)"
            }
            outcome = try perform { () throws(OperationError) in
                try recorded.start(scenario: scenario!, out: out, replace: replace, options: options(), observer: observer)
            }
        }
        if report { try Self.render(outcome.directory.path, console: console) }
        try Self.report(outcome, console: console)
    }

    /// `--report`: the charts and the report of the run just written. Charts that cannot be
    /// drawn (no gnuplot) are a warning: the report is written without them. The charts are
    /// counted, not listed; the report's two paths are printed.
    static func render(_ directory: String, console: TerminalConsole) throws {
        let charts = CollectingConsole()
        do {
            try PlotRendering(directory: directory).render(console: charts)
            for note in charts.notes { console.note(note) }
            let images = charts.printed.flatMap { $0.split(separator: "\n") }.filter { $0.hasSuffix(".svg") }
            console.note("schemalab: \(images.count) chart(s) in \(directory)/plots")
        } catch {
            console.warn("no charts: \(error.message)", remedy: error.remedy)
        }
        try perform { () throws(OperationError) in try ReportWriting(directory: directory).write(console: console) }
    }

    /// The run's options from the command line.
    func options() -> RunOptions {
        var options = RunOptions(
            sizes: size.isEmpty ? nil : size, repetitions: reps, warmup: warmup,
            variants: filter.variantNames, workloads: filter.workloadNames)
        options.existingStore = store
        options.sequential = sequential
        options.shard = shard.flatMap(Self.parseShard).flatMap { RunOptions.Shard(index: $0.index, count: $0.count) }
        options.instructionCounter = instructions ? CallgrindCounter() : nil
        options.slowdowns = Dictionary(injectSlowdown.compactMap(Self.parseSlowdown), uniquingKeysWith: { _, last in last })
        options.checksFit = !skipFitCheck
        options.stopsAtFirstFailure = failFast
        options.settlesClaimsWithin = settleSeconds
        return options
    }

    /// What the run left, printed: the summary table, the files, the claims' verdicts and the
    /// assertions; exit 1 when a case failed or the run stopped at one, 2 when an assertion failed.
    static func report(_ outcome: RecordedRun.Outcome, console: TerminalConsole) throws {
        let directory = outcome.directory, result = outcome.result
        if result.stoppedAtFailure, let first = result.failures.first {
            throw fail(
                "stopped at the first failed case (--fail-fast): \(first.key); see \(directory.path)/failures.csv. `schemalab run --resume \(directory.path)` tries the rest",
                code: 1)
        }
        let variants = result.scenario.variants.map(\.name), workloads = result.scenario.workloads.map(\.name)
        console.print(SummaryTable.render(directory.records, variants: variants, workloads: workloads))
        let differing = directory.records.filter { $0.summary.referenceCheck == .differs || $0.summary.agreementCheck == .differs }
        if !differing.isEmpty {
            console.note(
                "schemalab: \(differing.count) case(s) returned a different result than they must (reference_check / agreement_check in results.csv)"
            )
        }
        var files = "results.csv, samples.csv, plans.csv, failures.csv, env.json, run.json"
        if let error = outcome.claimsError {
            console.note("schemalab: no claims.csv: \(error)")
        } else if !result.scenario.claims.isEmpty {
            console.note("schemalab: claims: \(ClaimVerdict.summary(result.claims.map(\.verdict)))")
            for claim in result.claims where claim.verdict == .undecided {
                guard let headline = claim.headline else { continue }
                let interval = headline.interval
                console.note(
                    "schemalab: undecided: \(claim.claim.id) \(ClaimRecord.ratioText(interval.ratio)), interval "
                        + "\(ClaimRecord.ratioText(interval.low))-\(ClaimRecord.ratioText(interval.high))"
                        + (headline.repetitions.map { " after \($0) repetitions a case" } ?? ""))
            }
            files += ", claims.csv"
        }
        console.note("schemalab: wrote \(directory.path)/\(files)")
        if !directory.state.failed.isEmpty {
            throw fail(
                "\(directory.state.failed.count) case(s) failed: \(directory.path)/failures.csv has each with its error and SQL", code: 1)
        }
        for note in result.notes { console.note("schemalab: " + note) }
        guard let check = result.assertions else { return }
        for failure in check.failures { console.note("assertion failed: " + failure) }
        for note in check.notes { console.note("note: " + note) }
        let skipped = check.skipped > 0 ? " (\(check.skipped) about cases this run does not have, skipped)" : ""
        guard check.failures.isEmpty else {
            throw fail("\(check.failedChecks) of \(check.checked) assertion checks failed\(skipped)", code: 2)
        }
        console.note("schemalab: \(check.checked) assertion checks hold\(skipped)")
    }
}
