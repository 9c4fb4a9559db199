import ArgumentParser
import Foundation
import SchemaLab

struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Renders a run's charts with gnuplot (plots/*.gp) to SVG and PNG.",
        discussion: """
            Writes into <dir>/plots/: <scenario>-<size> (median time per workload and variant, one \
            chart per size); with two sizes or more, <scenario>-growth (time against size, log-log, \
            crossovers marked), <scenario>-memory-rss and <scenario>-memory-heap (the resident \
            memory a repetition adds, rss_growth_kb, and SQLite's heap peak against size); for cases that kept each query's latency, \
            <scenario>-<size>-percentiles (latency by percentile) and <scenario>-<size>-<variant>-reads \
            (p50, p90, p99, max). The charts' data are in <dir>/plots/data/.
            """
    )

    @Argument(help: "A directory written by `schemalab run`.")
    var directory: String

    @Option(name: .long, help: "The bar chart's gnuplot script (the other scripts are looked for beside it).")
    var script = "plots/bars.gp"

    @Option(name: .long, help: "The gnuplot executable.")
    var gnuplot = "gnuplot"

    func run() throws {
        let csvPath = directory + "/results.csv"
        guard FileManager.default.fileExists(atPath: csvPath) else {
            throw fail("cannot read \(csvPath): run `schemalab run ... --out \(directory)` first", code: 2)
        }
        let scripts = URL(fileURLWithPath: script).deletingLastPathComponent().path
        for s in [script, scripts + "/latency.gp", scripts + "/lines.gp"] where !FileManager.default.fileExists(atPath: s) {
            throw fail("no gnuplot script at \(s) (run from the repository root, or pass --script)", code: 2)
        }
        if let state = try? RunDirectory.readState(at: directory), state.state != .complete {
            note("schemalab: \(directory) is \(state.state.rawValue) (\(state.done.count) of \(state.cases.count) cases): plotting the cases it has; `schemalab run --resume \(directory)` finishes it")
        }
        let run: RunSnapshot
        do { run = try RunSnapshot(path: directory) } catch { throw fail(error.message, code: 2) }
        guard !run.order.isEmpty else { throw fail("\(csvPath) has no results", code: 2) }
        let order = RunOrder(run: run)
        let scenario = run.scenario
        let outDir = directory + "/plots", dataDir = outDir + "/data"
        do { try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true) } catch {
            throw fail("cannot create \(dataDir): \(error.localizedDescription)", code: 1)
        }
        let variants = order.variants.joined(separator: " ")
        for size in order.sizes {
            let outbase = "\(outDir)/\(scenario)-\(size)"
            let workloads = order.workloads.filter { w in run.order.contains { $0.workload == w && $0.size == size } }
            try runGnuplot("datafile='\(csvPath)'; outbase='\(outbase)'; variants='\(variants)'; "
                           + "workloads='\(workloads.joined(separator: " "))'; size=\(size); title='\(scenario)'", script)
            print("\(outbase).svg\n\(outbase).png")
        }
        // Time and memory against size.
        let growth = GrowthAnalysis(run: run)
        let lines: [(String, LineChartData, String, String, Bool)] = [
            ("growth", RunCharts.growth(run, growth), "\(scenario): median time against size (log-log); x marks where two variants change order", "median ms", true),
            ("memory-rss", RunCharts.memory(run, order, column: "rss_growth_kb"), "\(scenario): the resident memory a repetition adds (its peak over the resident set at its start)", "resident set growth, MB", false),
            ("memory-heap", RunCharts.memory(run, order, column: "sqlite_heap_peak_bytes"), "\(scenario): SQLite's heap high-water mark against size (process-wide: every open connection's page cache)", "SQLite heap peak, MB", false),
        ]
        for (name, data, title, ylabel, logy) in lines where !data.isEmpty {
            try drawLines(data, name: "\(scenario)-\(name)", outDir: outDir, title: title, xlabel: "objects (log scale)", ylabel: ylabel,
                          logx: true, logy: logy, xticks: order.sizes.count <= 12 ? order.sizes : [], scripts: scripts)
        }
        // Every query's latency, by percentile.
        for size in order.sizes {
            let data = RunCharts.percentiles(directory: directory, order, size: size)
            guard !data.isEmpty else { continue }
            try drawLines(data, name: "\(scenario)-\(size)-percentiles", outDir: outDir,
                          title: "\(scenario), n = \(size): each query's latency by percentile", xlabel: "percentile",
                          ylabel: "latency, ms (log scale)", logx: false, logy: true, xticks: [], scripts: scripts)
        }
        // Cases with reads (readers under a writer, box sets): their p50, p90, p99 and max, per variant and size.
        for size in order.sizes {
            for variant in order.variants where run.order.contains(where: { $0.variant == variant && $0.size == size && !(run.cases[$0]?.field("reads").isEmpty ?? true) }) {
                let outbase = "\(outDir)/\(scenario)-\(size)-\(variant)-reads"
                let readers = order.workloads.filter { w in run.cases.values.contains { $0.key.workload == w && !$0.field("reads").isEmpty } }
                try runGnuplot("datafile='\(csvPath)'; outbase='\(outbase)'; variant='\(variant)'; "
                               + "workloads='\(readers.joined(separator: " "))'; size=\(size); title='\(scenario)'", scripts + "/latency.gp")
                print("\(outbase).svg\n\(outbase).png")
            }
        }
    }

    private func drawLines(_ data: LineChartData, name: String, outDir: String, title: String, xlabel: String, ylabel: String,
                           logx: Bool, logy: Bool, xticks: [Int], scripts: String) throws {
        let base = outDir + "/data/" + name
        do { try data.write(base: base) } catch { throw fail("cannot write \(base).tsv: \(error.localizedDescription)", code: 1) }
        let outbase = outDir + "/" + name
        // A gnuplot string in single quotes: a quote inside is doubled.
        func q(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
        try runGnuplot("datafile=\(q(base + ".tsv")); marksfile=\(q(base + "-marks.tsv")); outbase=\(q(outbase)); "
                       + "panels=\(q(data.panels.joined(separator: " "))); series=\(q(data.series.joined(separator: " "))); "
                       + "title=\(q(title)); xlabel=\(q(xlabel)); ylabel=\(q(ylabel)); logx=\(logx ? 1 : 0); logy=\(logy ? 1 : 0); "
                       + "xticks=\(q(xticks.isEmpty ? "" : "(" + xticks.map { "\"\(Self.short($0))\" \($0)" }.joined(separator: ", ") + ")"))",
                       scripts + "/lines.gp")
        print("\(outbase).svg\n\(outbase).png")
    }

    /// A size for a tic: 300, 3.2k, 10k, 1M.
    static func short(_ n: Int) -> String {
        func f(_ v: Double, _ unit: String) -> String {
            (v < 10 && v.rounded() != v ? String(format: "%.1f", v) : String(format: "%.0f", v.rounded())) + unit
        }
        return n >= 1_000_000 ? f(Double(n) / 1e6, "M") : n >= 1000 ? f(Double(n) / 1e3, "k") : String(n)
    }

    private func runGnuplot(_ vars: String, _ script: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [gnuplot, "-e", vars, script]
        let err = Pipe()
        p.standardError = err
        do { try p.run() } catch { throw fail("cannot run \(gnuplot): \(error) (install gnuplot, or run `make setup`)", code: 1) }
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        // gnuplot warns about a panel or a line without points (a variant a workload does not run); other messages are shown.
        let shown = text.split(separator: "\n").filter { !$0.contains("Skipping data file with no valid points") && !$0.trimmingCharacters(in: .whitespaces).isEmpty
            && !$0.hasPrefix("         ") && !$0.contains("^") }
        if !shown.isEmpty { FileHandle.standardError.write(Data((shown.joined(separator: "\n") + "\n").utf8)) }
        guard p.terminationStatus == 0 else { throw fail("gnuplot failed on \(script) (status \(p.terminationStatus)): \(text.suffix(400))", code: 1) }
    }
}
