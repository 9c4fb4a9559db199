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

    @Option(name: .long, help: "Only these variants (comma-separated names).")
    var variants: String?

    @Option(name: .long, help: "Only these workloads (comma-separated names).")
    var workloads: String?

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
        for s in injectSlowdown where Self.parseSlowdown(s) == nil {
            throw fail("--inject-slowdown takes VARIANT/WORKLOAD=FACTOR with a factor of 1 or more; found '\(s)'", code: 2)
        }
        if let shard, Self.parseShard(shard) == nil {
            throw fail("--shard takes I/N with 1 <= I <= N, like 2/4; found '\(shard)'", code: 2)
        }
        if instructions, let why = InstructionCounter.unavailable() { throw fail("--instructions: \(why)", code: 1) }
        if let resume {
            if let out, out != resume { throw fail("--resume writes into the directory it names: leave out --out", code: 2) }
            if !size.isEmpty || reps != nil || warmup != nil || variants != nil || workloads != nil || replace || sequential || shard != nil
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
        let console = TerminalConsole(showsProgress: !quiet)
        defer { console.finish() }
        var job = RunJob(console: console)
        job.failFast = failFast
        job.skipFitCheck = skipFitCheck
        job.quiet = quiet
        if let resume { return try perform { () throws(OperationError) in try job.resume(resume, scenario: scenario) } }
        var request = RunRequest(scenario: scenario!, out: out!)
        request.replace = replace
        request.sizes = size
        request.repetitions = reps
        request.warmup = warmup
        request.variants = variants.map { $0.split(separator: ",").map(String.init) }
        request.workloads = workloads.map { $0.split(separator: ",").map(String.init) }
        request.store = store
        request.sequential = sequential
        request.shard = shard.flatMap(Self.parseShard)
        request.instructions = instructions
        request.slowdowns = Dictionary(injectSlowdown.compactMap(Self.parseSlowdown), uniquingKeysWith: { _, last in last })
        try perform { () throws(OperationError) in try job.start(request) }
    }
}
