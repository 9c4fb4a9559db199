import Foundation

/// The sizes of a sweep, `{"from": 1000, "to": 1000000, "steps": 7, "scale": "log"}`:
/// `steps` sizes from `from` to `to` inclusive, evenly spaced on a log or a linear scale,
/// rounded to whole objects (repeats after rounding are dropped).
public struct SizeSweep: Sendable, Equatable {
    public enum Scale: String, Sendable, CaseIterable { case log, linear }
    public let from: Int
    public let to: Int
    public let steps: Int
    public let scale: Scale

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
