import ArgumentParser
import Foundation
import SchemaLab
import SchemaLabEngine

/// `schemalab report RUN_DIR`: report.md and report.html from a run directory.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Writes RUN_DIR/report.md and a self-contained RUN_DIR/report.html.",
        discussion: """
            The report reads top to bottom: the environment; per size, the article-style table \
            (workloads by variants, each against the reference variant, `~` within noise); the \
            charts in RUN_DIR/plots (run `schemalab plot` first); with two sizes or more, how each \
            case's time grows (log-log slope, the best of O(n), O(n log n), O(n^2)) and the sizes \
            where two variants change order; per case its counters and every statement with its \
            query plan. For a statement that scans a table or sorts in a temporary B-tree, the index \
            SQLite's `.expert` suggests (through the sqlite3 tool, on an empty store of the variant \
            built from the run's scenario file) and the plan with it; --no-advice leaves it out.
            """
    )

    @Argument(help: "A directory written by `schemalab run`.")
    var directory: String

    @Flag(name: .long, help: "Leave out the `.expert` index advice.")
    var noAdvice = false

    @Option(name: .long, help: "The scenario file of the run, for the advice (default: the one run.json names).")
    var scenario: String?

    @Option(name: .long, help: "The sqlite3 executable.")
    var sqlite3 = "sqlite3"

    func run() throws {
        var report: RunReport
        do { report = try RunReport(directory: directory) } catch { throw fail(error.message, code: 2) }
        if let state = report.state, state.state != .complete {
            note("schemalab: \(directory) is \(state.state.rawValue) (\(state.done.count) of \(state.cases.count) cases): reporting the cases it has")
        }
        if !noAdvice && !report.costlyStatements.isEmpty { addAdvice(&report) }
        let plots = Self.plots(in: directory, scenario: report.run.scenario)
        if plots.isEmpty { note("schemalab: no charts in \(directory)/plots (run `schemalab plot \(directory)` first): the report has none") }
        let doc = report.document(plots: plots)
        for (name, text) in [("report.md", MarkdownRenderer.render(doc)), ("report.html", HTMLRenderer.render(doc, baseDirectory: directory))] {
            let path = directory + "/" + name
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                throw fail("cannot write \(path): \(error.localizedDescription)", code: 1)
            }
            print(path)
        }
    }

    /// The advice, or a note saying why there is none (the run is still reported).
    private func addAdvice(_ report: inout RunReport) {
        let advisor = IndexAdvisor(sqlite3: sqlite3)
        if let why = advisor.unavailable() { return note("schemalab: no index advice: \(why)") }
        let file = scenario ?? report.state?.scenarioPath ?? report.manifest.scenarioFile
        let plan: ScenarioPlan
        do { plan = try ScenarioPlan(ScenarioDecoder.load(path: file)) } catch {
            return note("schemalab: no index advice: cannot load the run's scenario \(file) (\(error)); give --scenario")
        }
        guard plan.scenario.sha256 == report.manifest.scenarioSHA256 else {
            return note("schemalab: no index advice: \(file) has changed since the run (SHA-256 \(report.manifest.scenarioSHA256.prefix(12))… then, \(plan.scenario.sha256.prefix(12))… now)")
        }
        do {
            let work = try WorkDirectory.create()
            defer { work.remove() }
            try report.gatherAdvice(plan: plan, advisor: advisor, workDirectory: work.path)
        } catch {
            note("schemalab: no index advice: \(error)")
        }
    }

    /// The run's SVG charts in reading order: per size, then growth, memory, percentiles, reads.
    static func plots(in directory: String, scenario: String) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/plots")) ?? []).filter { $0.hasSuffix(".svg") }
        func rank(_ n: String) -> (Int, String) {
            let stem = String(n.dropLast(4).dropFirst(scenario.count + 1))
            if Int(stem) != nil { return (0, String(format: "%012d", Int(stem)!)) }
            if stem == "growth" { return (1, stem) }
            if stem.hasPrefix("memory") { return (2, stem) }
            if stem.hasSuffix("-percentiles") { return (3, stem) }
            return (4, stem)
        }
        return names.filter { $0.hasPrefix(scenario + "-") }.sorted { rank($0) < rank($1) }.map { "plots/" + $0 }
    }
}
