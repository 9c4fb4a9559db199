import Foundation

/// The Mann-Whitney U test (Wilcoxon rank-sum) of two independent samples: does one tend to
/// be larger than the other? No assumption of normal timings, robust to outliers; benchstat
/// uses it. Exact two-sided p-value without ties when both samples are small (the counts of
/// every arrangement, by dynamic programming), else the normal approximation with the ties
/// correction.
package enum MannWhitney {
    /// The two-sided p-value that `a` and `b` come from the same distribution (1 when either is empty).
    package static func pValue(_ first: [Double], _ second: [Double]) -> Double {
        let m = first.count, n = second.count
        guard m > 0, n > 0 else { return 1 }
        // Mid-ranks of the pooled values.
        let pooled = (first.map { ($0, 0) } + second.map { ($0, 1) }).sorted { $0.0 < $1.0 }
        var ranks = [Double](repeating: 0, count: pooled.count)
        var tieTerm = 0.0
        var i = 0
        while i < pooled.count {
            var j = i
            while j + 1 < pooled.count && pooled[j + 1].0 == pooled[i].0 { j += 1 }
            let r = Double(i + j) / 2 + 1
            for k in i...j { ranks[k] = r }
            let t = Double(j - i + 1)
            tieTerm += t * t * t - t
            i = j + 1
        }
        var rankSumA = 0.0
        for (k, v) in pooled.enumerated() where v.1 == 0 { rankSumA += ranks[k] }
        let u = rankSumA - Double(m * (m + 1)) / 2
        if tieTerm == 0 && m + n <= 40 { return exact(u: Int(u.rounded()), m: m, n: n) }
        let mean = Double(m * n) / 2
        let nn = Double(m + n)
        let variance = Double(m * n) / 12 * ((nn + 1) - tieTerm / (nn * (nn - 1)))
        guard variance > 0 else { return 1 }
        let z = (abs(u - mean) - 0.5) / variance.squareRoot()  // continuity correction
        return min(1, erfc(max(z, 0) / 2.squareRoot()))
    }

    /// The smallest two-sided p two samples of these sizes can give (no ties, every value of
    /// one below every value of the other): 2 / C(m+n, m), at most 1. With 3 repetitions a
    /// side it is 0.1, so no difference can reach 0.05; with 4 a side, 0.029.
    package static func smallestPValue(_ m: Int, _ n: Int) -> Double {
        guard m > 0, n > 0 else { return 1 }
        var arrangements = 1.0
        for k in 0..<min(m, n) { arrangements = arrangements * Double(m + n - k) / Double(k + 1) }
        return min(1, 2 / arrangements)
    }

    /// The fewest repetitions a side (the same on both) whose smallest p is below `level`.
    package static func repetitionsForSignificance(at level: Double = 0.05) -> Int {
        var n = 1
        while smallestPValue(n, n) >= level { n += 1 }
        return n
    }

    /// Exact two-sided p: 2 × the smaller tail of U's distribution, at most 1.
    static func exact(u: Int, m: Int, n: Int) -> Double {
        // counts[k][u]: arrangements of k values of the first sample among the others giving U = u,
        // built for the first sample's size m and the second's n.
        let maxU = m * n
        var f = [[Double]](repeating: [Double](repeating: 0, count: maxU + 1), count: m + 1)
        // f[i][u] for the current j (second sample size), starting at j = 0.
        for i in 0...m { f[i][0] = 1 }
        if n > 0 {
            for j in 1...n {
                var g = [[Double]](repeating: [Double](repeating: 0, count: maxU + 1), count: m + 1)
                g[0][0] = 1
                if m > 0 {
                    for i in 1...m {
                        for v in 0...(i * j) {
                            // The largest value is from the first sample (adds j to U) or from the second.
                            let fromFirst = v >= j ? g[i - 1][v - j] : 0
                            g[i][v] = fromFirst + f[i][v]
                        }
                    }
                }
                f = g
            }
        }
        let counts = f[m]
        let total = counts.reduce(0, +)
        let lower = counts[0...min(u, maxU)].reduce(0, +) / total
        let upper = counts[max(0, u)...maxU].reduce(0, +) / total
        return min(1, 2 * min(lower, upper))
    }
}
