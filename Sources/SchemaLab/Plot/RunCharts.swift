import Foundation
import SchemaLabEngine

/// The line charts of a run: time against size and memory against size (when the run has
/// two sizes or more), and the latency distribution of every case that recorded each
/// query's latency.
package enum RunCharts {
    /// Median time (ms) against size, per workload and variant, with the crossovers beyond noise marked.
    package static func growth(_ run: RunSnapshot, _ analysis: GrowthAnalysis) -> LineChartData {
        var d = LineChartData()
        guard analysis.sizes.count >= 2 else { return d }
        for c in analysis.curves { for p in c.points { d.add(panel: c.workload, series: c.variant, x: Double(p.size), y: p.median) } }
        for (w, c) in analysis.crossovers where c.significant {
            // The crossing's time, interpolated on log axes along the first variant's curve.
            guard let curve = analysis.curves.first(where: { $0.workload == w && $0.variant == c.first }),
                let p0 = curve.points.first(where: { $0.size == c.below }), let p1 = curve.points.first(where: { $0.size == c.above })
            else { continue }
            let f = (log(c.size) - log(Double(p0.size))) / (log(Double(p1.size)) - log(Double(p0.size)))
            let y = exp(log(p0.median) + f * (log(p1.median) - log(p0.median)))
            d.marks.append((w, c.size, y, "\(c.fasterAbove) wins above"))
        }
        return d
    }

    /// A memory figure of each case (``CaseSummary/rssGrowthKB`` or ``CaseSummary/peakRSSKB``,
    /// in KiB, or ``CaseSummary/sqliteHeapPeakBytes``, in bytes) in MB, against size.
    package static func memory(_ run: RunSnapshot, _ order: RunOrder, _ figure: KeyPath<CaseSummary, Int64>, unit: ColumnUnit)
        -> LineChartData
    {
        var d = LineChartData()
        guard order.sizes.count >= 2 else { return d }
        let scale = unit == .kibibytes ? 1.0 / 1024 : 1.0 / 1_048_576
        for w in order.workloads {
            for v in order.variants {
                for n in order.sizes {
                    guard let c = run.cases[CaseKey(variant: v, workload: w, size: n)] else { continue }
                    d.add(panel: w, series: v, x: Double(n), y: Double(c.summary[keyPath: figure]) * scale)
                }
            }
        }
        return d
    }

    /// Each query's latency by percentile, for one size: per workload that kept latencies
    /// (`latencies/<variant>-<workload>-<size>.csv`), one line per variant; at most 200
    /// points per line.
    package static func percentiles(_ run: RunSnapshot, _ order: RunOrder, size: Int) -> LineChartData {
        var d = LineChartData()
        for w in order.workloads {
            for v in order.variants {
                let values = (run.cases[CaseKey(variant: v, workload: w, size: size)]?.latencyMs ?? []).sorted()
                guard values.count >= 2 else { continue }
                let steps = min(200, values.count)
                for i in 0..<steps {
                    let q = Double(i) / Double(steps - 1)
                    let idx = Int((q * Double(values.count - 1)).rounded())
                    d.add(panel: w, series: v, x: q * 100, y: values[idx])
                }
            }
        }
        return d
    }
}
