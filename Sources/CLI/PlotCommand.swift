import ArgumentParser
import Foundation
import SchemaLab

struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Renders a run's charts with gnuplot to SVG and PNG.",
        discussion: """
            Writes into <dir>/plots/: <scenario>-<size> (median time per workload and variant, one \
            chart per size); with two sizes or more, <scenario>-growth (time against size, log-log, \
            crossovers marked), <scenario>-memory-rss and <scenario>-memory-heap (the resident \
            memory a repetition adds, rss_growth_kb, and SQLite's heap peak against size); for cases that kept each query's latency, \
            <scenario>-<size>-percentiles (latency by percentile) and <scenario>-<size>-<variant>-reads \
            (p50, p90, p99, max). The charts' data are in <dir>/plots/data/. Works from any directory: \
            the gnuplot scripts are the package's own.
            """
    )

    @Argument(help: "A directory written by `schemalab run`.")
    var directory: String

    @Option(name: .long, help: "A directory of gnuplot scripts to draw with instead of the built-in ones (bars.gp, latency.gp, lines.gp).")
    var scripts: String?

    @Option(name: .long, help: "The gnuplot executable.")
    var gnuplot = "gnuplot"

    func run() throws {
        var rendering = PlotRendering(directory: directory)
        if let scripts { rendering.scripts = scripts }
        rendering.gnuplot = gnuplot
        try perform { () throws(OperationError) in try rendering.render(console: TerminalConsole()) }
    }
}
