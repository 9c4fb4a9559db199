import Foundation

/// splitmix64 (Steele, Lea and Flood, 2014): a small, fast generator that gives the same
/// sequence on every platform, so a seed reproduces a data set (or a bootstrap's resamples)
/// anywhere.
package struct SplitMix64 {
    package private(set) var state: UInt64

    package init(seed: UInt64) { state = seed }

    @inline(__always)
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 bits.
    @inline(__always)
    package mutating func unit() -> Double { Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0) }

    /// Standard normal (Box-Muller, second value not cached, as limit.c).
    package mutating func gaussian() -> Double {
        let u1 = 1.0 - unit()
        let u2 = unit()
        return (-2.0 * log(u1)).squareRoot() * cos(2.0 * Double.pi * u2)
    }

    /// Uniform integer in [lo, hi].
    package mutating func int(in lo: Int64, _ hi: Int64) -> Int64 {
        let span = UInt64(bitPattern: hi &- lo) &+ 1
        return span == 0 ? Int64(bitPattern: next()) : lo &+ Int64(bitPattern: next() % span)
    }

    /// An index drawn from cumulative weights.
    package mutating func pick(cumulative: [Double]) -> Int {
        let x = unit() * cumulative[cumulative.count - 1]
        for (i, c) in cumulative.enumerated() where x < c { return i }
        return cumulative.count - 1
    }
}
