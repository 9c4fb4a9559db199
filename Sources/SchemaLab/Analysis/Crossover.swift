import Foundation

/// The size at which the faster of two variants changes, from their medians at each size
/// of a sweep: where the sign of log(a / b) changes between two neighbouring sizes, the
/// crossing is interpolated on log axes. Its uncertainty comes from the medians' 95%
/// confidence intervals: the crossing is interpolated again with the intervals' ends
/// (a at its low end against b at its high end, and the other way round), which gives
/// the earliest and the latest size it can be, within the two sizes that bracket it.
package struct Crossover: Sendable, Equatable {
    package let first: String
    package let second: String
    /// The estimated size of the crossing, and its range.
    package let size: Double
    package let low: Double
    package let high: Double
    /// The measured sizes on either side.
    package let below: Int
    package let above: Int
    /// The variant that is faster below the crossing, and the one faster above it.
    package let fasterBelow: String
    package let fasterAbove: String
    /// True when, at both bracketing sizes, the confidence intervals do not overlap: the
    /// order really changes. Otherwise the crossing may be noise.
    package let significant: Bool

    /// A point of one variant's curve: the size, the median and its confidence interval.
    package struct Point: Sendable {
        package let size: Int
        package let median: Double
        package let low: Double
        package let high: Double
        package init(size: Int, median: Double, low: Double, high: Double) {
            self.size = size
            self.median = median
            self.low = low
            self.high = high
        }
    }

    /// Every crossing of `a` and `b` over the sizes both have.
    package static func find(_ first: String, _ firstPoints: [Point], _ second: String, _ secondPoints: [Point]) -> [Crossover] {
        let bySize = Dictionary(secondPoints.map { ($0.size, $0) }, uniquingKeysWith: { x, _ in x })
        let pairs = firstPoints.sorted { $0.size < $1.size }.compactMap { p -> (Point, Point)? in
            guard let q = bySize[p.size], p.median > 0, q.median > 0 else { return nil }
            return (p, q)
        }
        guard pairs.count >= 2 else { return [] }
        var out: [Crossover] = []
        func d(_ x: Double, _ y: Double) -> Double { log(max(x, 1e-12)) - log(max(y, 1e-12)) }
        for i in 0..<(pairs.count - 1) {
            let (a0, b0) = pairs[i], (a1, b1) = pairs[i + 1]
            let d0 = d(a0.median, b0.median), d1 = d(a1.median, b1.median)
            // Equal medians count with "a is faster": a tie at one size is a crossing found once.
            guard (d0 <= 0) != (d1 <= 0) else { continue }
            let x0 = log(Double(a0.size)), x1 = log(Double(a1.size))
            func cross(_ e0: Double, _ e1: Double) -> Double {
                guard (e0 <= 0) != (e1 <= 0), e0 != e1 else { return (e0 <= 0) == (d0 <= 0) ? x1 : x0 }
                return x0 + (x1 - x0) * e0 / (e0 - e1)
            }
            let mid = cross(d0, d1)
            // a as small as it can be and b as large (and the other way round).
            let early = cross(d(a0.low, b0.high), d(a1.low, b1.high))
            let late = cross(d(a0.high, b0.low), d(a1.high, b1.low))
            let lo = min(early, late, mid), hi = max(early, late, mid)
            let separated = { (p: Point, q: Point) in p.high < q.low || q.high < p.low }
            out.append(
                Crossover(
                    first: first, second: second, size: exp(mid), low: exp(lo), high: exp(hi), below: a0.size, above: a1.size,
                    fasterBelow: d1 > 0 ? first : second, fasterAbove: d1 > 0 ? second : first,
                    significant: separated(a0, b0) && separated(a1, b1)))
        }
        return out
    }
}
