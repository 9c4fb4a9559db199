import ArgumentParser
import Foundation
import SchemaLab

/// `schemalab compare BASELINE RUN_DIR`: the regression gate.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compares a run with a baseline, case by case, and fails on a regression.",
        discussion: """
            Exact: each statement's query plan (a readable diff), VM steps, full-scan steps, \
            sorts, auto-index rows, statements, rows, the result digest; instruction counts \
            within --instructions-tolerance. With statistics: wall time and heap retained, a \
            change counting only when the Mann-Whitney U test gives p < --alpha and it is larger \
            than --threshold ("~" otherwise). Runs from different environments (SQLite version \
            or compile options, CPU count, build configuration) are refused unless --across-environments. \
            Exit status: 0 no regression (improvements never fail), 1 the tool failed, 2 a \
            regression (a case that got worse, or a baseline case missing from the run unless \
            --allow-missing) or a bad option value, 3 baseline not found. Both runs must be complete (run.json), and \
            at least one case must be in both (the same variants, workloads and sizes).
            """
    )

    @Argument(help: "A baseline name (results/baselines/NAME) or a run directory.")
    var baseline: String

    @Argument(help: "The run directory to judge.")
    var runDirectory: String

    @Option(name: .long, help: "Minimum time or memory change that counts, in percent.")
    var threshold = 10.0

    @Option(name: .long, help: "Significance level of the Mann-Whitney U test.")
    var alpha = 0.05

    @Option(name: .long, help: "Instruction counts may move by this many percent.")
    var instructionsTolerance = 1.0

    @OptionGroup var baselines: BaselineDirectoryOption

    @Option(name: .long, help: "Also write the report as Markdown to this file (for a pull request comment).")
    var markdown: String?

    @Flag(name: .long, help: "Compare runs from different environments anyway.")
    var acrossEnvironments = false

    @Flag(name: .long, help: "Accept baseline cases the run does not have (a shard, or --variants) instead of failing.")
    var allowMissing = false

    func validate() throws {
        guard !helpRequested else { return }
        if threshold < 0 { throw fail("--threshold must be 0 or more (a percentage); found \(threshold)", code: 2) }
        if !(alpha > 0 && alpha < 1) { throw fail("--alpha must be between 0 and 1 (a significance level); found \(alpha)", code: 2) }
        if instructionsTolerance < 0 {
            throw fail("--instructions-tolerance must be 0 or more (a percentage); found \(instructionsTolerance)", code: 2)
        }
    }

    func run() throws {
        var gate = RegressionGate(baseline: baseline, run: runDirectory)
        gate.baselineDirectory = baselines.dir
        gate.options.minimumEffect = threshold / 100
        gate.options.alpha = alpha
        gate.options.instructionTolerance = instructionsTolerance / 100
        gate.options.allowMissing = allowMissing
        gate.acrossEnvironments = acrossEnvironments
        gate.markdown = markdown
        try perform { () throws(OperationError) in try gate.check(console: TerminalConsole()) }
    }
}
