import ArgumentParser
import Foundation
import SchemaLab

/// `schemalab advise SCENARIO`: the fetch indexes to add and remove for all of a scenario's
/// workloads at once, each measured (read gain and write cost), written as a scenario variant,
/// a report and the model's `<fetchIndex>` XML.
struct AdviseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advise",
        abstract: "Finds the fetch indexes to add and remove for all of a scenario's workloads, by measuring them.",
        discussion: """
            Measures the variant (--variant, default as-is) on every workload that runs in it, \
            weighted by each workload's weight. Candidates come from the requests (equality terms, \
            one range term, sort keys with their directions, section keys, prefetch lookups) and \
            from SQLite's .expert, merged across fetches; the variant's own indexes are candidates \
            for removal. A greedy search adds, widens or removes one index per step, keeping the \
            step with the best measured net gain (read gain minus write cost) per byte of store, \
            and stops when no step gains more than --min-gain. It chooses on instructions counted \
            by callgrind (the same on every run; without valgrind, SQLite's VM steps), then proves \
            the set: each index left out in turn, at --size, at --second-size and with ANALYZE \
            statistics (without, given --analyze), and the advised variant \
            against the start timed over --reps repetitions with a U test per workload. An insert \
            of the whole data set is counted per object; a scenario without writes gets one. \
            Prints what to add and its <fetchIndex> XML; --out writes the scenario with the \
            `advised` variant, --report the Markdown report, --model a copy of the model with the \
            fetch indexes changed (--model-out; the model itself is never written).
            """
    )

    @Argument(help: "A scenario file.")
    var scenario: String

    @Option(name: [.customLong("variant"), .customLong("variants")], help: "The variant advised.")
    var variant = "as-is"

    @Option(name: .long, help: "The data set size the search measures at.")
    var size = 1000

    @Option(name: .long, help: "A second size the chosen set is checked at (0: none; default a quarter of --size, at least 100).")
    var secondSize: Int?

    @Option(
        name: .long,
        help:
            "instructions (callgrind), vm-steps (SQLite's VM steps, in the process) or time (median of --reps runs). Default: instructions when valgrind is installed, else vm-steps."
    )
    var basis: String?

    @Flag(name: .long, help: "Measure with SQLite's table statistics (ANALYZE on each filled store, as NSSQLiteAnalyzeOption).")
    var analyze = false

    @Flag(name: .long, help: "Do not check the chosen set the other side of ANALYZE.")
    var noAnalyzeCheck = false

    @Option(name: .long, help: "Repetitions of each case for the timed confirmation (and of each trial on the time basis).")
    var reps = 5

    @Option(name: .long, help: "The most indexes to add.")
    var maxIndexes: Int?

    @Option(name: .long, help: "The most the weighted writes may cost more, in percent (10 or 10%).")
    var maxWriteCost: String?

    @Option(name: .long, help: "The least a step must gain net of writes, in percent of the weighted reads (default 1).")
    var minGain = "1"

    @Option(name: .long, help: "The most elements of a candidate index.")
    var maxElements = 3

    @Option(name: .long, help: "Cases measured at once on the instructions and vm-steps bases (default: the processor count).")
    var jobs: Int?

    @Flag(name: .long, help: "Do not try removing the variant's own indexes.")
    var keepIndexes = false

    @Option(name: .long, help: "Write the scenario with the advised variant here.")
    var out: String?

    @Option(name: .long, help: "Write the Markdown report here.")
    var report: String?

    @Option(name: .long, help: "The model (.xcdatamodeld, .xcdatamodel or contents) to copy with the fetch indexes changed.")
    var model: String?

    @Option(name: .long, help: "Where the model's copy goes (a .xcdatamodel folder; default NAME-advised.xcdatamodel).")
    var modelOut: String?

    @Flag(name: .long, help: "Replace output files that exist.")
    var replace = false

    @OptionGroup var sqliteTool: SQLiteToolOption

    func validate() throws {
        guard !helpRequested else { return }
        if size <= 0 { throw fail("--size takes a positive count", code: 2) }
        if reps < 1 { throw fail("--reps takes a positive count", code: 2) }
        if let secondSize, secondSize < 0 { throw fail("--second-size takes a count (0 for none)", code: 2) }
        if let maxIndexes, maxIndexes < 1 { throw fail("--max-indexes takes a positive count", code: 2) }
        if maxElements < 1 { throw fail("--max-elements takes a positive count", code: 2) }
        if let jobs, jobs < 1 { throw fail("--jobs takes a positive count", code: 2) }
        if let basis, AdviceBasis(rawValue: basis) == nil {
            throw fail("--basis takes instructions, vm-steps or time; found \(basis)", code: 2)
        }
        if let maxWriteCost, Self.percent(maxWriteCost) == nil {
            throw fail("--max-write-cost takes a percentage (10 or 10%); found \(maxWriteCost)", code: 2)
        }
        if Self.percent(minGain) == nil { throw fail("--min-gain takes a percentage (1 or 1%); found \(minGain)", code: 2) }
        if modelOut != nil && model == nil { throw fail("--model-out needs --model", code: 2) }
    }

    /// `10`, `10%` or `2.5` as a fraction; nil when not a percentage of 0 or more.
    static func percent(_ text: String) -> Double? {
        let digits = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let value = Double(digits), value >= 0, value.isFinite else { return nil }
        return value / 100
    }

    func run() throws {
        let console = TerminalConsole()
        var options = AdviceOptions(variant: variant, size: size)
        if let basis, let chosen = AdviceBasis(rawValue: basis) {
            options.basis = chosen
            if chosen == .instructions, let why = CallgrindCounter.unavailable() {
                throw fail("--basis instructions: \(why)", code: 1)
            }
        } else if let why = CallgrindCounter.unavailable() {
            options.basis = .vmSteps
            console.note("note: choosing on SQLite's VM steps, not instructions: \(why)")
        }
        if options.basis == .instructions { options.instructionCounter = CallgrindCounter() }
        if let secondSize { options.secondSize = secondSize == 0 ? nil : secondSize }
        options.repetitions = reps
        options.analyze = analyze
        options.checksAnalyze = !noAnalyzeCheck
        options.maxIndexes = maxIndexes
        options.maxWriteCost = maxWriteCost.flatMap(Self.percent)
        options.minGain = Self.percent(minGain) ?? 0.01
        options.maxElements = maxElements
        if let jobs { options.workers = jobs }
        options.triesRemovals = !keepIndexes
        options.sqlite3 = sqliteTool.sqlite3
        var writing = AdviceWriting(scenario: scenario, options: options)
        writing.out = out
        writing.report = report
        writing.model = model
        writing.modelOut = modelOut
        writing.replace = replace
        _ = try perform { () throws(OperationError) in try writing.perform(console: console) }
    }
}
