import Foundation

/// The sizes of a sweep, `{"from": 1000, "to": 1000000, "steps": 7, "scale": "log"}`:
/// `steps` sizes from `from` to `to` inclusive, evenly spaced on a log or a linear scale,
/// rounded to whole objects (repeats after rounding are dropped).
public struct SizeSweep: Sendable, Equatable {
    /// How the sizes are spaced between `from` and `to`: `scale`.
    public enum Scale: String, Sendable, CaseIterable {
        /// `log`, the default: evenly on a logarithmic scale, each size a constant factor above
        /// the one before.
        case log
        /// `linear`: evenly on a linear scale, each size a constant step above the one before.
        case linear
    }

    /// The smallest size (`from`), the first of the sweep.
    public let from: Int
    /// The largest size (`to`), the last of the sweep.
    public let to: Int
    /// How many sizes (`steps`, 2 to 50 in a file) before repeats after rounding are dropped.
    public let steps: Int
    /// How the sizes are spaced (`scale`).
    public let scale: Scale

    /// A sweep of `steps` sizes from `from` to `to` on `scale` (``ScenarioDecoder`` checks the
    /// bounds of one it reads: `to` above `from`, both positive).
    public init(from: Int, to: Int, steps: Int, scale: Scale) {
        self.from = from
        self.to = to
        self.steps = steps
        self.scale = scale
    }

    /// The sizes, ascending.
    public var sizes: [Int] {
        guard steps > 1 else { return [from] }
        var out: [Int] = []
        for i in 0..<steps {
            let f = Double(i) / Double(steps - 1)
            let v: Double =
                switch scale {
                case .log: exp(log(Double(from)) + f * (log(Double(to)) - log(Double(from))))
                case .linear: Double(from) + f * Double(to - from)
                }
            let n = i == steps - 1 ? to : Int(v.rounded())
            if out.last != n { out.append(n) }
        }
        return out
    }
}
