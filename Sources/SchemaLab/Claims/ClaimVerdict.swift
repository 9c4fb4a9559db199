import Foundation
import SchemaLabEngine

/// What a run says of a claim, from the measured ratio `case / against` and its interval.
///
/// The rule, in order:
/// 1. the interval includes 1 (no effect cannot be ruled out): *within noise* when the whole
///    interval is smaller than an effect the claim counts (the equivalence margin: the
///    weaker bound of a figure, or 10% for a direction), else *undecided*;
/// 2. the ratio moves the other way than the source says: *reversed*;
/// 3. the source states a direction only: *holds*;
/// 4. the source states a figure: the magnitudes are compared as logarithms of the ratios
///    (`|ln r|`: 5x faster and 5x slower are the same size, 2.5x faster is a bit more than
///    half of 5x). Within the claim's tolerance factor of the source's (default 2, so a 5x
///    claim holds from 2.2x to 25x and "about 25% faster" from 13% to 44% faster): *holds*;
///    below: *holds, weaker*; above: *holds, stronger*;
/// 5. an interval whose two ends would read differently (it reaches across a boundary of
///    rules 2 to 4) is *undecided*: which side of the boundary one interval falls on is luck.
///    A run measures such a claim's two cases again before it says so (`RunJudgement`).
public enum ClaimVerdict: String, Sendable, CaseIterable, Comparable {
    /// The ratio moves the other way than the source says.
    case reversed = "reversed"
    /// The interval includes 1: no effect cannot be ruled out.
    case withinNoise = "within noise"
    /// The direction holds, with a magnitude below the source's figure's tolerance band.
    case weaker = "holds, weaker"
    /// The direction holds, and the magnitude is within the tolerance band of the source's
    /// figure (or the source states a direction only).
    case holds = "holds"
    /// The direction holds, with a magnitude above the source's figure's tolerance band.
    case stronger = "holds, stronger"
    /// The interval reaches across a verdict boundary, even after more repetitions.
    case undecided = "undecided"
    /// The run lacks one of the cases (a shard, `--variants`, a failed case).
    case notMeasured = "not measured"

    /// How well the claim fares: a lower rank against a baseline is a regression.
    public var rank: Int {
        switch self {
        case .notMeasured: return -1
        case .reversed: return 0
        case .withinNoise, .undecided: return 1
        case .weaker: return 2
        case .holds, .stronger: return 3
        }
    }

    /// The reading order of a findings page: the surprises first.
    public static func < (a: ClaimVerdict, b: ClaimVerdict) -> Bool {
        let order: [ClaimVerdict] = [.reversed, .undecided, .withinNoise, .weaker, .stronger, .holds, .notMeasured]
        return order.firstIndex(of: a)! < order.firstIndex(of: b)!
    }

    /// "1 reversed, 1 holds, weaker, 3 holds": the count of each verdict, in reading order.
    public static func summary(_ verdicts: [ClaimVerdict]) -> String {
        let counts = Dictionary(verdicts.map { ($0, 1) }, uniquingKeysWith: +)
        let parts = allCases.sorted().compactMap { v -> String? in
            guard let n = counts[v] else { return nil }
            return "\(n) \(v.rawValue)"
        }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    /// The verdict for `measured` against what the source expects.
    public static func judge(_ expectation: ClaimSpec.Expectation, _ measured: RatioInterval) -> ClaimVerdict {
        guard !measured.ratio.isNaN, !measured.low.isNaN, !measured.high.isNaN, measured.ratio >= 0 else { return .notMeasured }
        if measured.includesNoEffect {
            let margin = equivalenceMargin(expectation)
            let widest = max(abs(log(measured.low)), abs(log(measured.high)))
            return widest <= margin ? .withinNoise : .undecided
        }
        let low = point(expectation, measured.low), high = point(expectation, measured.high)
        return low == high ? low : .undecided
    }

    /// The verdict of a figure counted once (instructions, statements, memory growth): its
    /// band around the ratio includes 1, within noise; otherwise its ratio's verdict.
    public static func judgeFigure(_ expectation: ClaimSpec.Expectation, _ measured: RatioInterval) -> ClaimVerdict {
        guard !measured.ratio.isNaN, !measured.low.isNaN, !measured.high.isNaN, measured.ratio >= 0 else { return .notMeasured }
        return measured.includesNoEffect ? .withinNoise : point(expectation, measured.ratio)
    }

    /// The verdict a ratio known exactly would get (rules 2 to 4).
    static func point(_ expectation: ClaimSpec.Expectation, _ ratio: Double) -> ClaimVerdict {
        let lower = ratio < 1
        if lower != (expectation.direction == .lower) { return .reversed }
        guard let expected = expectation.ratio else { return .holds }
        let magnitude = abs(log(ratio))
        let bounds = [abs(log(expected.lowerBound)), abs(log(expected.upperBound))]
        let least = bounds.min()! / expectation.tolerance, most = bounds.max()! * expectation.tolerance
        if magnitude < least { return .weaker }
        if magnitude > most { return .stronger }
        return .holds
    }

    /// The largest effect (as `|ln r|`) that still reads as none: the weaker bound of the
    /// source's figure, or, for a claim of a direction only, 10% (the regression gate's minimum effect).
    static func equivalenceMargin(_ expectation: ClaimSpec.Expectation) -> Double {
        guard let expected = expectation.ratio else { return log(1.10) }
        return min(abs(log(expected.lowerBound)), abs(log(expected.upperBound))) / expectation.tolerance
    }
}
