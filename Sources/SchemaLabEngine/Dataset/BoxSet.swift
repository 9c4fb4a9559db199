import Foundation
import SchemaLabCoreData

/// The bounding boxes of a ``BoxSetSpec`` over one data set: the same boxes for every
/// variant (they depend on the seed and the data only), so every strategy answers the
/// same questions.
///
/// Each box is a square in the two fields' units, centred on a stored row drawn from the
/// seed, whose half-width is the distance (the larger of the two coordinate differences)
/// to the k-th nearest row of a sample of at most ``sampleLimit`` rows, k being the
/// target fraction of the sample; the targets are log-uniform over the spec's selectivity
/// range. The k-th row lies on the box's edge (to a rounding), so a strategy that rounds
/// the bounds (an R-tree's 32-bit floats) is tested where it can fail.
package struct BoxSet: Sendable {
    /// One box: lower and upper bound of the first key, then of the second, and the
    /// fraction of the sampled rows inside it.
    package struct Box: Sendable, Equatable {
        package var lower0, upper0, lower1, upper1: Double
        package var sampledSelectivity: Double

        /// The four bounds in the order a box's `%@` take them.
        package var arguments: [PredicateValue] { [.real(lower0), .real(upper0), .real(lower1), .real(upper1)] }
    }

    package let boxes: [Box]
    /// Rows at most in the sample the boxes are sized on.
    package static let sampleLimit = 20_000

    /// Boxes over `data`'s columns for `spec.keys`; rows where either is NULL are left out
    /// (with no such row, every box is the empty box at 0).
    package init(spec: BoxSetSpec, data: GeneratedData) {
        var points: [(Double, Double)] = []
        Self.sample(spec, data, first: 0, step: Self.sampleStep(data.count), into: &points)
        self.init(spec: spec, points: points)
    }

    /// The same boxes from a stream of the data set (the sample is taken chunk by chunk).
    package init(spec: BoxSetSpec, stream: DataStream) {
        var stream = stream
        let step = Self.sampleStep(stream.count)
        var points: [(Double, Double)] = []
        var first = 0
        stream.forEachChunk { chunk in
            Self.sample(spec, chunk, first: first, step: step, into: &points)
            first += chunk.count
        }
        self.init(spec: spec, points: points)
    }

    /// Every `step`-th row of the data set: at most ``sampleLimit`` rows.
    private static func sampleStep(_ count: Int) -> Int { max(1, (count + sampleLimit - 1) / sampleLimit) }

    /// The sampled rows of `chunk`, whose first row is row `first` of the data set.
    private static func sample(_ spec: BoxSetSpec, _ chunk: GeneratedData, first: Int, step: Int, into points: inout [(Double, Double)]) {
        let xs = chunk.column(spec.keys[0]) ?? []
        let ys = chunk.column(spec.keys[1]) ?? []
        let start = (step - first % step) % step
        for i in stride(from: start, to: min(xs.count, ys.count), by: step) {
            if let x = xs[i].doubleValue, let y = ys[i].doubleValue { points.append((x, y)) }
        }
    }

    private init(spec: BoxSetSpec, points: [(Double, Double)]) {
        var rng = SplitMix64(seed: spec.seed ^ 0xB0C5_E7B0_C5E7_0001)
        let logLo = log(spec.minSelectivity), logHi = log(spec.maxSelectivity)
        var out: [Box] = []
        out.reserveCapacity(spec.count)
        var distances = [Double](repeating: 0, count: points.count)
        for _ in 0..<spec.count {
            let target = exp(logLo + rng.unit() * (logHi - logLo))
            guard !points.isEmpty else {
                out.append(Box(lower0: 0, upper0: 0, lower1: 0, upper1: 0, sampledSelectivity: 0))
                continue
            }
            let (cx, cy) = points[Int(rng.int(in: 0, Int64(points.count - 1)))]
            for (i, p) in points.enumerated() { distances[i] = max(abs(p.0 - cx), abs(p.1 - cy)) }
            let k = min(points.count, max(1, Int((target * Double(points.count)).rounded())))
            let w = Self.kthSmallest(&distances, k)
            let inside = distances.reduce(0) { $0 + ($1 <= w ? 1 : 0) }
            out.append(
                Box(
                    lower0: cx - w, upper0: cx + w, lower1: cy - w, upper1: cy + w,
                    sampledSelectivity: Double(inside) / Double(points.count)))
        }
        boxes = out
    }

    /// The k-th smallest (1-based) of `values` (reordered).
    static func kthSmallest(_ values: inout [Double], _ k: Int) -> Double {
        values.sort()
        return values[k - 1]
    }
}
