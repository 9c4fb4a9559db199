import Foundation
import SchemaLabEngine

/// How each case's cost grows over the sizes of a run: one curve per variant and
/// workload (its median and 95% interval at each size), its `GrowthFit`, and the
/// `Crossover`s between the variants of each workload.
package struct GrowthAnalysis: Sendable {
    /// One variant's cost against size for one workload.
    package struct Curve: Sendable {
        package let variant: String
        package let workload: String
        package let points: [Crossover.Point]
        /// Nil with fewer than 2 sizes.
        package let fit: GrowthFit?
    }

    package let sizes: [Int]
    package let curves: [Curve]
    /// Every crossing, per workload, for every pair of variants.
    package let crossovers: [(workload: String, crossover: Crossover)]

    /// The curves of a run, in the scenario's variant and workload order.
    package init(run: RunSnapshot) {
        let order = RunOrder(run: run)
        sizes = order.sizes
        var curves: [Curve] = []
        var crossovers: [(workload: String, crossover: Crossover)] = []
        for w in order.workloads {
            var byVariant: [(String, [Crossover.Point])] = []
            for v in order.variants {
                let points = sizes.compactMap { n -> Crossover.Point? in
                    guard let c = run.cases[CaseKey(variant: v, workload: w, size: n)]?.summary else { return nil }
                    return Crossover.Point(size: n, median: c.medianMs, low: c.ciLowMs, high: c.ciHighMs)
                }
                guard !points.isEmpty else { continue }
                let fit = GrowthFit(points.map { (Double($0.size), $0.median) })
                curves.append(Curve(variant: v, workload: w, points: points, fit: fit))
                byVariant.append((v, points))
            }
            for i in byVariant.indices {
                for j in byVariant.indices where j > i {
                    for c in Crossover.find(byVariant[i].0, byVariant[i].1, byVariant[j].0, byVariant[j].1) {
                        crossovers.append((w, c))
                    }
                }
            }
        }
        self.curves = curves
        self.crossovers = crossovers
    }
}

/// The variants, workloads and sizes of a run in the scenario's order (the `schema_index`
/// and `workload_index` columns), and which variant is the reference.
package struct RunOrder: Sendable {
    package let variants: [String]
    package let workloads: [String]
    package let sizes: [Int]
    /// The reference variant (its cases' `reference_check` is `reference`), if the run has it.
    package let reference: String?

    package init(run: RunSnapshot) {
        func ordered(_ name: KeyPath<CaseSummary, String>, _ index: KeyPath<CaseSummary, Int>) -> [String] {
            var seen: [Int: String] = [:]
            for c in run.cases.values { seen[c.summary[keyPath: index]] = c.summary[keyPath: name] }
            return seen.keys.sorted().map { seen[$0]! }
        }
        variants = ordered(\.variant, \.variantIndex)
        workloads = ordered(\.workload, \.workloadIndex)
        sizes = Array(Set(run.order.map(\.size))).sorted()
        reference = run.cases.values.first { $0.summary.referenceCheck == .reference }?.key.variant
    }
}
