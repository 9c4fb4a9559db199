import Foundation

/// The data of a line chart for `plots/lines.gp`: one panel per group (a workload), one
/// line per series (a variant), points (x, y) in order, and optional marks (a crossover).
/// Written as tab-separated files, so that gnuplot draws what the lab computed.
package struct LineChartData: Sendable {
    package struct Point: Sendable {
        package let panel: String
        package let series: String
        package let x: Double
        package let y: Double
    }

    package var panels: [String] = []
    package var series: [String] = []
    package var points: [Point] = []
    /// Marks drawn as crosses with a label (panel, x, y, label).
    package var marks: [(panel: String, x: Double, y: Double, label: String)] = []

    package init() {}

    package var isEmpty: Bool { points.isEmpty }

    /// Adds a point, registering its panel and series in first-seen order.
    package mutating func add(panel: String, series: String, x: Double, y: Double) {
        guard x.isFinite, y.isFinite, y > 0 else { return }
        if !panels.contains(panel) { panels.append(panel) }
        if !self.series.contains(series) { self.series.append(series) }
        points.append(Point(panel: panel, series: series, x: x, y: y))
    }

    /// Writes `<base>.tsv` (panel, series, x, y; each line's points together, by x) and
    /// `<base>-marks.tsv` (panel, x, y, label).
    package func write(base: String) throws {
        let sorted = points.enumerated().sorted { a, b in
            let (p, q) = (a.element, b.element)
            if p.panel != q.panel { return panels.firstIndex(of: p.panel)! < panels.firstIndex(of: q.panel)! }
            if p.series != q.series { return series.firstIndex(of: p.series)! < series.firstIndex(of: q.series)! }
            return p.x != q.x ? p.x < q.x : a.offset < b.offset
        }.map(\.element)
        var text = "panel\tseries\tx\ty\n"
        var previous: (String, String)?
        for p in sorted {
            if let previous, previous != (p.panel, p.series) { text += "\n" }
            text += "\(p.panel)\t\(p.series)\t\(p.x)\t\(p.y)\n"
            previous = (p.panel, p.series)
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: base + ".tsv"))
        var marksText = "panel\tx\ty\tlabel\n"
        for m in marks { marksText += "\(m.panel)\t\(m.x)\t\(m.y)\t\(m.label)\n" }
        try Data(marksText.utf8).write(to: URL(fileURLWithPath: base + "-marks.tsv"))
    }
}
