import Foundation

/// How a cost grows with the data set's size: the slope of log(cost) against log(size)
/// (1 is linear, 2 quadratic), and which of O(1), O(log n), O(n), O(n log n) and O(n^2)
/// fits best.
///
/// Each model `cost = c * f(n)` is fitted by least squares on log axes (log c is the mean
/// of log cost - log f(n)), so that the small sizes weigh as much as the large ones; its
/// residual is the root mean square of what is left, in natural-log units (0.1 is about
/// 10% off at a typical point). The best model is the one with the smallest residual.
package struct GrowthFit: Sendable, Equatable {
    /// A growth model.
    package enum Model: String, Sendable, CaseIterable {
        case constant = "O(1)"
        case logarithmic = "O(log n)"
        case linear = "O(n)"
        case linearithmic = "O(n log n)"
        case quadratic = "O(n^2)"

        func f(_ n: Double) -> Double {
            switch self {
            case .constant: 1
            case .logarithmic: log2(max(n, 2))
            case .linear: n
            case .linearithmic: n * log2(max(n, 2))
            case .quadratic: n * n
            }
        }
    }

    /// The least-squares slope on log-log axes, and its standard error (nil with 2 sizes).
    package let slope: Double
    package let slopeError: Double?
    /// The best model, its constant and its residual.
    package let model: Model
    package let constant: Double
    package let residual: Double
    /// Every model's residual, in `Model.allCases` order.
    package let residuals: [Double]
    /// How many sizes were fitted.
    package let points: Int

    /// Fits `points` (size, cost); nil with fewer than 2 distinct positive sizes or a cost <= 0.
    package init?(_ points: [(size: Double, cost: Double)]) {
        let p = points.filter { $0.size > 0 && $0.cost > 0 && $0.cost.isFinite }
        guard p.count == points.count, Set(p.map(\.size)).count >= 2 else { return nil }
        let x = p.map { log($0.size) }, y = p.map { log($0.cost) }
        let n = Double(p.count)
        let mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
        let sxx = x.map { ($0 - mx) * ($0 - mx) }.reduce(0, +)
        let sxy = zip(x, y).map { ($0 - mx) * ($1 - my) }.reduce(0, +)
        let b = sxy / sxx
        slope = b
        if p.count > 2 {
            let sse = zip(x, y).map { xi, yi in pow(yi - (my + b * (xi - mx)), 2) }.reduce(0, +)
            slopeError = sqrt(sse / (n - 2) / sxx)
        } else {
            slopeError = nil
        }
        var fits: [(Model, Double, Double)] = []
        for m in Model.allCases {
            let d = zip(p, y).map { pt, yi in yi - log(m.f(pt.size)) }
            let logC = d.reduce(0, +) / n
            let rms = sqrt(d.map { ($0 - logC) * ($0 - logC) }.reduce(0, +) / n)
            fits.append((m, exp(logC), rms))
        }
        let best = fits.min { $0.2 < $1.2 }!
        model = best.0
        constant = best.1
        residual = best.2
        residuals = fits.map(\.2)
        self.points = p.count
    }
}
