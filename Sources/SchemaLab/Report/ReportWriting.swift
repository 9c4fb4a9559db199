import Foundation
import SchemaLabEngine

/// `schemalab report DIR`: `DIR/report.md` and a self-contained `DIR/report.html`.
///
/// The report reads top to bottom: the environment; per size, the article-style table; the
/// charts in `DIR/plots` (``PlotRendering``); growth fits and crossovers; per case its
/// counters and every statement with its plan, and, under a statement that scans a table or
/// sorts in a temporary B-tree, the index SQLite's `.expert` suggests (through the sqlite3
/// tool, on an empty store of the variant built from the run's scenario file).
public struct ReportWriting {
    /// The run directory.
    public var directory: String
    /// Include the `.expert` index advice.
    public var advice = true
    /// The run's scenario file, for the advice (nil: the one run.json names).
    public var scenario: String?
    /// The sqlite3 executable `.expert` runs in.
    public var sqlite3 = "sqlite3"

    /// The report of the run in `directory`, with the advice, the scenario file run.json
    /// names and `sqlite3` from the `PATH`.
    public init(directory: String) {
        self.directory = directory
    }

    /// Writes both files, printing each path to `console`; a missing advice or missing charts
    /// are notes, not failures.
    public func write(console: any Console) throws(OperationError) {
        var report: RunReport
        do { report = try RunReport(directory: directory) } catch { throw OperationError(.badInput, error.message) }
        if let state = report.state, state.state != .complete {
            console.warn(
                "\(directory) is \(state.state.rawValue) (\(state.done.count) of \(state.cases.count) cases): reporting the cases it has",
                remedy: .resume(directory))
        }
        if advice && !report.costlyStatements.isEmpty { addAdvice(&report, console: console) }
        let plots = Self.plots(in: directory, scenario: report.run.scenario)
        if plots.isEmpty {
            console.warn("no charts in \(directory)/plots: the report has none", remedy: .plot(directory))
        }
        let document = report.document(plots: plots)
        for (name, text) in [
            ("report.md", MarkdownRenderer.render(document)), ("report.html", HTMLRenderer.render(document, baseDirectory: directory)),
        ] {
            let path = directory + "/" + name
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                throw OperationError(.failed, "cannot write \(path): \(error.localizedDescription)")
            }
            console.print(path)
        }
    }

    /// The advice, or a note saying why there is none (the run is still reported).
    private func addAdvice(_ report: inout RunReport, console: any Console) {
        let advisor = IndexAdvisor(sqlite3: sqlite3)
        if let why = advisor.unavailable() { return console.warn("no index advice: \(why)") }
        let file = scenario ?? report.state?.scenarioPath ?? report.manifest.scenarioFile
        let plan: ScenarioPlan
        do { plan = try ScenarioPlan(ScenarioDecoder.load(path: file)) } catch {
            return console.warn(
                "no index advice: cannot load the run's scenario \(file) (\(error))", remedy: scenario == nil ? .giveScenarioFile : nil)
        }
        guard plan.scenario.sha256 == report.manifest.scenarioSHA256 else {
            return console.warn(
                "no index advice: \(file) has changed since the run (SHA-256 \(report.manifest.scenarioSHA256.prefix(12))… then, \(plan.scenario.sha256.prefix(12))… now)"
            )
        }
        do {
            let work = try WorkDirectory.create()
            defer { work.remove() }
            try report.gatherAdvice(plan: plan, advisor: advisor, workDirectory: work.path)
        } catch {
            console.warn("no index advice: \(error)")
        }
    }

    /// The run's SVG charts in reading order: per size, then growth, memory, percentiles, reads.
    public static func plots(in directory: String, scenario: String) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/plots")) ?? []).filter { $0.hasSuffix(".svg") }
        func rank(_ name: String) -> (Int, String) {
            let stem = String(name.dropLast(4).dropFirst(scenario.count + 1))
            if let size = Int(stem) { return (0, String(format: "%012d", size)) }
            if stem == "growth" { return (1, stem) }
            if stem.hasPrefix("memory") { return (2, stem) }
            if stem.hasSuffix("-percentiles") { return (3, stem) }
            return (4, stem)
        }
        return names.filter { $0.hasPrefix(scenario + "-") }.sorted { rank($0) < rank($1) }.map { "plots/" + $0 }
    }
}
