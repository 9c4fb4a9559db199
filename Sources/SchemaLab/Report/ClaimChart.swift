import Foundation

/// The picture of every claim on the landing page: one row per claim, grouped by scenario,
/// its measured ratio a dot on a log scale with its 95% interval as a bar, the source's
/// figure (or range) marked, the line at 1 (no effect), coloured by verdict; each row links to
/// the claim's section of its scenario's report. SVG written by hand (inline in `index.html`,
/// where its links work, and as `claims.svg` beside `findings.md`): gnuplot cannot make a row
/// a link.
struct ClaimChart {
    /// One row: the claim, its scenario's name, and the link to its report section.
    struct Row {
        let scenario: String
        let claim: ClaimRecord
        let link: String
    }

    let rows: [Row]

    /// The chart's rows for a page's scenarios (headline rows, surprises first in each).
    init(_ scenarios: [FindingsPage.ScenarioClaims], reportFile: String) {
        rows = scenarios.flatMap { s in
            s.claims.filter(\.headline).sorted { $0.verdict < $1.verdict }.map {
                Row(scenario: s.name, claim: $0, link: "\(s.link)/\(reportFile)#\($0.anchor)")
            }
        }
    }

    // MARK: Layout

    static let width = 980.0
    static let labelWidth = 330.0
    static let right = 150.0
    static let rowHeight = 17.0
    static let top = 46.0

    /// The colour of a verdict (dot, bar and the verdict's word).
    static func colour(_ verdict: ClaimVerdict) -> String {
        switch verdict {
        case .reversed: return "#c0392b"
        case .withinNoise: return "#7f8c8d"
        case .undecided: return "#8e44ad"
        case .weaker: return "#b7950b"
        case .holds: return "#1e8449"
        case .stronger: return "#117a65"
        case .notMeasured: return "#bbbbbb"
        }
    }

    /// The decades the axis spans: every measured and expected value, and 1.
    var decades: ClosedRange<Int> {
        var values: [Double] = [1]
        for r in rows {
            values += [r.claim.ratio, r.claim.ratioLow, r.claim.ratioHigh, r.claim.expectedLow, r.claim.expectedHigh].compactMap { $0 }
        }
        let logs = values.filter { $0 > 0 && $0.isFinite }.map { log10($0) }
        let low = max(-4, Int((logs.min() ?? 0).rounded(.down))), high = min(4, Int((logs.max() ?? 0).rounded(.up)))
        return low...max(high, low + 1)
    }

    /// The x position of a ratio.
    func x(_ ratio: Double, _ d: ClosedRange<Int>) -> Double {
        let plot = Self.width - Self.labelWidth - Self.right
        let v = min(max(log10(max(ratio, 1e-12)), Double(d.lowerBound)), Double(d.upperBound))
        return Self.labelWidth + (v - Double(d.lowerBound)) / Double(d.upperBound - d.lowerBound) * plot
    }

    /// The SVG document.
    var svg: String {
        let d = decades
        let scenarioCount = Set(rows.map(\.scenario)).count
        let height = Self.top + Double(rows.count + scenarioCount) * Self.rowHeight + 30
        var out = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"claim-chart\" width=\"\(Int(Self.width))\" height=\"\(Int(height))\" "
                + "viewBox=\"0 0 \(Int(Self.width)) \(Int(height))\" font-family=\"sans-serif\" font-size=\"11\">",
            "<title>Every claim: the measured ratio (case / against, log scale) and its 95% interval; the source's figure as an open diamond</title>",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
        ]
        // The legend, then the axis: a line per decade, the line at 1 darker.
        var lx = Self.labelWidth
        for v in [ClaimVerdict.holds, .stronger, .weaker, .withinNoise, .reversed] {
            out.append("<circle cx=\"\(f(lx))\" cy=\"12\" r=\"4\" fill=\"\(Self.colour(v))\"/>")
            out.append("<text x=\"\(f(lx + 7))\" y=\"16\">\(Self.escape(v.rawValue))</text>")
            lx += 14 + Double(v.rawValue.count) * 6.2
        }
        out.append("<path d=\"M\(f(lx + 6)) 12 l5 -5 l5 5 l-5 5 z\" fill=\"none\" stroke=\"#333\"/>")
        out.append("<text x=\"\(f(lx + 20))\" y=\"16\">the source's figure</text>")
        let bottom = height - 26
        for k in d {
            let xk = x(pow(10, Double(k)), d)
            out.append(
                "<line x1=\"\(f(xk))\" y1=\"\(f(Self.top - 8))\" x2=\"\(f(xk))\" y2=\"\(f(bottom))\" stroke=\"\(k == 0 ? "#555" : "#ddd")\"/>"
            )
            let label = k >= 0 ? (k <= 3 ? String(Int(pow(10, Double(k)))) : "1e\(k)") : (k >= -3 ? "\(pow(10, Double(k)))" : "1e\(k)")
            out.append("<text x=\"\(f(xk))\" y=\"\(f(bottom + 14))\" text-anchor=\"middle\">\(label)</text>")
        }
        out.append(
            "<text x=\"\(f(Self.labelWidth))\" y=\"\(f(Self.top - 14))\">ratio = case / against (log scale): below 1 the case is lower, above 1 higher</text>"
        )
        var y = Self.top
        var current = ""
        for r in rows {
            if r.scenario != current {
                current = r.scenario
                y += Self.rowHeight
                out.append("<text x=\"4\" y=\"\(f(y))\" font-weight=\"bold\">\(Self.escape(r.scenario))</text>")
            }
            y += Self.rowHeight
            out.append(row(r, y: y - 4, d))
        }
        out.append("</svg>")
        return out.joined(separator: "\n")
    }

    /// One claim's row, a link to its section.
    private func row(_ r: Row, y: Double, _ d: ClosedRange<Int>) -> String {
        let c = r.claim
        let colour = Self.colour(c.verdict)
        var parts = ["<text x=\"14\" y=\"\(f(y + 4))\">\(Self.escape(c.id))</text>"]
        if let lo = c.expectedLow, let hi = c.expectedHigh {
            let (x0, x1) = (x(lo, d), x(hi, d))
            if x1 - x0 > 2 {
                parts.append(
                    "<rect x=\"\(f(x0))\" y=\"\(f(y - 5))\" width=\"\(f(x1 - x0))\" height=\"10\" fill=\"#eeeeee\" stroke=\"#999\"/>")
            }
            let xm = x((lo * hi).squareRoot(), d)
            parts.append("<path d=\"M\(f(xm - 5)) \(f(y)) l5 -5 l5 5 l-5 5 z\" fill=\"none\" stroke=\"#333\"/>")
        }
        if let ratio = c.ratio, let lo = c.ratioLow, let hi = c.ratioHigh, ratio > 0 {
            parts.append(
                "<line x1=\"\(f(x(lo, d)))\" y1=\"\(f(y))\" x2=\"\(f(x(hi, d)))\" y2=\"\(f(y))\" stroke=\"\(colour)\" stroke-width=\"3\"/>")
            parts.append("<circle cx=\"\(f(x(ratio, d)))\" cy=\"\(f(y))\" r=\"4\" fill=\"\(colour)\"/>")
        }
        parts.append(
            "<text x=\"\(f(Self.width - Self.right + 8))\" y=\"\(f(y + 4))\" fill=\"\(colour)\">\(Self.escape(c.verdict.rawValue))</text>")
        let measured = c.ratio == nil ? "not measured" : "measured \(c.measuredText)"
        let tip = "\(r.scenario) \(c.id): \(measured); expected \(c.expectedText); \(c.verdict.rawValue)"
        return "<a href=\"\(Self.escape(r.link))\"><g class=\"claim\"><title>\(Self.escape(tip))</title>"
            + "<rect x=\"0\" y=\"\(f(y - 8))\" width=\"\(Int(Self.width))\" height=\"\(Int(Self.rowHeight))\" fill=\"transparent\"/>"
            + parts.joined() + "</g></a>"
    }

    private func f(_ v: Double) -> String { String(format: "%.1f", v) }

    /// Text for XML: the HTML renderer's escaping (`&`, `<`, `>` and quotes).
    static func escape(_ s: String) -> String { HTMLRenderer.escape(s) }
}
