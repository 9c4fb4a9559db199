import Foundation
import SchemaLabEngine

/// `schemalab plot DIR`: a run's charts rendered with gnuplot to SVG and PNG in `DIR/plots/`.
///
/// `<scenario>-<size>` (median time per workload and variant, one chart per size); with two
/// sizes or more, `<scenario>-growth` (time against size, log-log, crossovers marked),
/// `<scenario>-memory-rss` and `<scenario>-memory-heap`; for cases that kept each query's
/// latency, `<scenario>-<size>-percentiles` and `<scenario>-<size>-<variant>-reads`. The
/// charts' data are in `DIR/plots/data/`.
public struct PlotRendering {
    /// The run directory.
    public var directory: String
    /// The directory of the gnuplot scripts (bars.gp, latency.gp, lines.gp): the ones the
    /// package carries, or a directory of your own.
    public var scripts = PlotRendering.bundledScripts
    /// The gnuplot executable.
    public var gnuplot = "gnuplot"

    /// The charts of the run in `directory`, with the bundled scripts and `gnuplot` from the
    /// `PATH`.
    public init(directory: String) {
        self.directory = directory
    }

    /// Renders every chart, printing each file's path to `console` as it is written.
    public func render(console: any Console) throws(OperationError) {
        let csvPath = directory + "/results.csv"
        guard FileManager.default.fileExists(atPath: csvPath) else {
            throw OperationError(.badInput, "cannot read \(csvPath): no such file", remedy: .run(directory))
        }
        let script = scripts + "/bars.gp"
        for path in [script, scripts + "/latency.gp", scripts + "/lines.gp"] where !FileManager.default.fileExists(atPath: path) {
            throw OperationError(.badInput, "no gnuplot script at \(path)", remedy: .giveScriptDirectory)
        }
        if let state = try? RunDirectory.readState(at: directory), state.state != .complete {
            console.warn(
                "\(directory) is \(state.state.rawValue) (\(state.done.count) of \(state.cases.count) cases): plotting the cases it has",
                remedy: .resume(directory))
        }
        let run: RunSnapshot
        do { run = try RunSnapshot(path: directory) } catch { throw OperationError(.badInput, error.message) }
        guard !run.order.isEmpty else { throw OperationError(.badInput, "\(csvPath) has no results") }
        let order = RunOrder(run: run)
        let scenario = run.scenario
        let outDirectory = directory + "/plots", dataDirectory = outDirectory + "/data"
        do { try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true) } catch {
            throw OperationError(.failed, "cannot create \(dataDirectory): \(error.localizedDescription)")
        }
        let variants = order.variants.joined(separator: " ")
        for size in order.sizes {
            let outbase = "\(outDirectory)/\(scenario)-\(size)"
            let workloads = order.workloads.filter { workload in run.order.contains { $0.workload == workload && $0.size == size } }
            try runGnuplot(
                "datafile='\(csvPath)'; outbase='\(outbase)'; variants='\(variants)'; "
                    + "workloads='\(workloads.joined(separator: " "))'; size=\(size); title='\(scenario)'", script, console: console)
            console.print("\(outbase).svg\n\(outbase).png")
        }
        // Time and memory against size.
        let growth = GrowthAnalysis(run: run)
        let lines: [(String, LineChartData, String, String, Bool)] = [
            (
                "growth", RunCharts.growth(run, growth),
                "\(scenario): median time against size (log-log); x marks where two variants change order", "median ms", true
            ),
            (
                "memory-rss", RunCharts.memory(run, order, \.rssGrowthKB, unit: .kibibytes),
                "\(scenario): the resident memory a repetition adds (its peak over the resident set at its start)",
                "resident set growth, MB", false
            ),
            (
                "memory-heap", RunCharts.memory(run, order, \.sqliteHeapPeakBytes, unit: .bytes),
                "\(scenario): SQLite's heap high-water mark against size (process-wide: every open connection's page cache)",
                "SQLite heap peak, MB", false
            ),
        ]
        for (name, data, title, ylabel, logy) in lines where !data.isEmpty {
            try drawLines(
                data, name: "\(scenario)-\(name)", outDirectory: outDirectory, title: title, xlabel: "objects (log scale)",
                ylabel: ylabel, logx: true, logy: logy, xticks: order.sizes.count <= 12 ? order.sizes : [], scripts: scripts,
                console: console)
        }
        // Every query's latency, by percentile.
        for size in order.sizes {
            let data = RunCharts.percentiles(run, order, size: size)
            guard !data.isEmpty else { continue }
            try drawLines(
                data, name: "\(scenario)-\(size)-percentiles", outDirectory: outDirectory,
                title: "\(scenario), n = \(size): each query's latency by percentile", xlabel: "percentile",
                ylabel: "latency, ms (log scale)", logx: false, logy: true, xticks: [], scripts: scripts, console: console)
        }
        // Cases with reads (readers under a writer, box sets): their p50, p90, p99 and max, per variant and size.
        for size in order.sizes {
            for variant in order.variants
            where run.order.contains(where: { $0.variant == variant && $0.size == size && run.cases[$0]?.summary.reads != nil }
            ) {
                let outbase = "\(outDirectory)/\(scenario)-\(size)-\(variant)-reads"
                let readers = order.workloads.filter { workload in
                    run.cases.values.contains { $0.key.workload == workload && $0.summary.reads != nil }
                }
                try runGnuplot(
                    "datafile='\(csvPath)'; outbase='\(outbase)'; variant='\(variant)'; "
                        + "workloads='\(readers.joined(separator: " "))'; size=\(size); title='\(scenario)'", scripts + "/latency.gp",
                    console: console)
                console.print("\(outbase).svg\n\(outbase).png")
            }
        }
    }

    private func drawLines(
        _ data: LineChartData, name: String, outDirectory: String, title: String, xlabel: String, ylabel: String,
        logx: Bool, logy: Bool, xticks: [Int], scripts: String, console: any Console
    ) throws(OperationError) {
        let base = outDirectory + "/data/" + name
        do { try data.write(base: base) } catch { throw OperationError(.failed, "cannot write \(base).tsv: \(error.localizedDescription)") }
        let outbase = outDirectory + "/" + name
        // A gnuplot string in single quotes: a quote inside is doubled.
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        let ticks = xticks.isEmpty ? "" : "(" + xticks.map { "\"\(Self.shortSize($0))\" \($0)" }.joined(separator: ", ") + ")"
        try runGnuplot(
            "datafile=\(quoted(base + ".tsv")); marksfile=\(quoted(base + "-marks.tsv")); outbase=\(quoted(outbase)); "
                + "panels=\(quoted(data.panels.joined(separator: " "))); series=\(quoted(data.series.joined(separator: " "))); "
                + "title=\(quoted(title)); xlabel=\(quoted(xlabel)); ylabel=\(quoted(ylabel)); logx=\(logx ? 1 : 0); logy=\(logy ? 1 : 0); "
                + "xticks=\(quoted(ticks))", scripts + "/lines.gp", console: console)
        console.print("\(outbase).svg\n\(outbase).png")
    }

    /// The directory of the gnuplot scripts the package carries (a resource of the SchemaLab
    /// target, beside the built executable).
    public static var bundledScripts: String {
        Bundle.module.url(forResource: "bars", withExtension: "gp", subdirectory: "gnuplot")?.deletingLastPathComponent().path
            ?? Bundle.module.bundlePath + "/gnuplot"
    }

    /// A size for a tic: 300, 3.2k, 10k, 1M.
    public static func shortSize(_ count: Int) -> String {
        func scaled(_ value: Double, _ unit: String) -> String {
            (value < 10 && value.rounded() != value ? String(format: "%.1f", value) : String(format: "%.0f", value.rounded())) + unit
        }
        return count >= 1_000_000 ? scaled(Double(count) / 1e6, "M") : count >= 1000 ? scaled(Double(count) / 1e3, "k") : String(count)
    }

    private func runGnuplot(_ variables: String, _ script: String, console: any Console) throws(OperationError) {
        let result: SubprocessResult
        do {
            result = try Subprocess(gnuplot, ["-e", variables, script], standardOutput: .inherit).run()
        } catch {
            throw OperationError(.failed, "cannot run \(gnuplot): \(error) (install gnuplot, or run `make setup`)")
        }
        let text = result.standardError
        // gnuplot warns about a panel or a line without points (a variant a workload does not run); other messages are shown.
        let shown = text.split(separator: "\n").filter {
            !$0.contains("Skipping data file with no valid points") && !$0.trimmingCharacters(in: .whitespaces).isEmpty
                && !$0.hasPrefix("         ") && !$0.contains("^")
        }
        if !shown.isEmpty { console.note(shown.joined(separator: "\n")) }
        guard result.status == 0 else {
            throw OperationError(.failed, "gnuplot failed on \(script) (status \(result.status)): \(text.suffix(400))")
        }
    }
}
