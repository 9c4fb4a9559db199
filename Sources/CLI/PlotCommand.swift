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
        var rendering = PlotRendering(directory: directory)
        rendering.script = script
        rendering.gnuplot = gnuplot
        try perform { () throws(OperationError) in try rendering.render(console: TerminalConsole()) }
    }
}
