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
            or compile options, CPU count, build configuration) are refused unless --force. \
            Exit status: 0 no regression (improvements never fail), 1 the tool failed, 2 a \
            regression (a case that got worse, or a baseline case missing from the run unless \
            --allow-missing), 3 baseline not found. Both runs must be complete (run.json), and \
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

    @Option(name: .long, help: "Where baselines are kept.")
    var dir = "results/baselines"

    @Option(name: .long, help: "Also write the report as Markdown to this file (for a pull request comment).")
    var markdown: String?

    @Flag(name: .long, help: "Compare runs from different environments anyway.")
    var force = false

    @Flag(name: .long, help: "Accept baseline cases the run does not have (a shard, or --variants) instead of failing.")
    var allowMissing = false

    func validate() throws {
        guard threshold >= 0, alpha > 0, alpha < 1, instructionsTolerance >= 0 else {
            throw fail("--threshold and --instructions-tolerance are 0 or more, --alpha is in (0, 1)", code: 1)
        }
    }

    func run() throws {
        guard let base = Baselines(directory: dir).resolve(baseline) else {
            throw fail("no baseline '\(baseline)' (neither a run directory nor \(dir)/\(baseline)/results.csv)", code: 3)
        }
        let a: RunSnapshot, b: RunSnapshot
        do {
            try RunDirectory.requireComplete(at: base, purpose: "compare with the baseline")
            try RunDirectory.requireComplete(at: runDirectory, purpose: "compare")
            a = try RunSnapshot(path: base)
            b = try RunSnapshot(path: runDirectory)
        } catch {
            throw fail(error.message, code: 1)
        }
        guard a.scenario == b.scenario else {
            throw fail("\(base) is scenario '\(a.scenario)', \(runDirectory) is '\(b.scenario)': compare runs of one scenario", code: 1)
        }
        let differences = RunComparison.environmentDifferences(a.environment, b.environment)
        if !differences.isEmpty && !force {
            throw fail("refusing to compare runs from different environments (\(differences.joined(separator: "; "))); give --force to compare anyway", code: 1)
        }
        var options = RunComparison.Options()
        options.minimumEffect = threshold / 100
        options.alpha = alpha
        options.instructionTolerance = instructionsTolerance / 100
        options.allowMissing = allowMissing
        let comparison = RunComparison(baseline: a, run: b, options: options)
        guard !comparison.cases.isEmpty else {
            func sizes(_ r: RunSnapshot) -> String { Set(r.order.map(\.size)).sorted().map(String.init).joined(separator: ", ") }
            throw fail("no case of \(runDirectory) is in \(base): nothing was compared (sizes \(sizes(b)) in the run, \(sizes(a)) in the baseline; \(b.order.count) and \(a.order.count) cases)", code: 1)
        }
        let report = ComparisonReport(comparison: comparison, baseline: base, run: runDirectory)
        if !differences.isEmpty { print("note: environments differ (--force): \(differences.joined(separator: "; "))") }
        print(report.text, terminator: "")
        if let markdown {
            do { try Data(report.markdown.utf8).write(to: URL(fileURLWithPath: markdown)) } catch {
                throw fail("cannot write \(markdown): \(error.localizedDescription)", code: 1)
            }
        }
        if comparison.hasRegression {
            var why = ["\(comparison.regressedCases.count) case(s) regressed"]
            if comparison.missingFails { why.append("\(comparison.missing.count) baseline case(s) missing from the run") }
            throw fail("regression: \(why.joined(separator: ", "))", code: 2)
        }
    }
}
