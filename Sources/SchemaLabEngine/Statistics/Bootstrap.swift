/// The lab's one bootstrap: the 95% percentile interval of a statistic of one or more sample
/// sets, from resamples drawn with replacement by a seeded `SplitMix64` (so the same samples
/// give the same interval on every machine). A case's interval of its median (``Statistics``)
/// and a claim's interval of a ratio (``RatioInterval``) both come from here.
///
/// Each resample draws every set in turn, in the order given, as many values as the set has
/// (`generator.next() % count` picks each), sorts each drawn set and hands them to the
/// statistic; the statistic of each of the `resamples` resamples is a replicate.
///
/// The interval's ends are the replicates' 2.5th and 97.5th percentiles by nearest rank: the
/// ⌈0.025 B⌉-th and ⌈0.975 B⌉-th of the B replicates in ascending order (the 50th and the
/// 1,950th of 2,000). That is the percentile interval as Efron and Tibshirani define it (*An
/// Introduction to the Bootstrap*, 1993, chapter 13: its ends are the inverse of the
/// replicates' empirical distribution function at α and 1 − α, the B·α-th and B·(1 − α)-th
/// ordered replicates; Hyndman and Fan's quantile definition 1). Its ends are order
/// statistics, values the statistic took in a resample, which keeps two properties that
/// interpolating between neighbouring replicates (the rule ``Statistics`` used before) loses:
/// the interval follows an increasing transformation exactly (the interval of log(ratio), the
/// scale `ClaimVerdict` judges on, is the log of the ratio's interval; Efron and Tibshirani's
/// "transformation-respecting" property), and a replicate that is infinite (a ratio over a
/// resample whose statistic is 0) ends an interval at infinity rather than at "not a number".
package struct Bootstrap: Sendable {
    /// The generator's seed: each use has its own, fixed, so its intervals repeat.
    package let seed: UInt64
    /// How many resamples (replicates) the interval is read from.
    package let resamples: Int

    /// 2,000 resamples, as both the interval of a case's median and that of a claim's ratio
    /// have always used (with their seeds, they make the intervals of earlier runs repeat).
    package static let standardResamples = 2000

    /// The lower and upper tail of a 95% interval.
    package static let lowerTail = 0.025
    package static let upperTail = 0.975

    /// A bootstrap from `seed` with `resamples` resamples.
    package init(seed: UInt64, resamples: Int = Bootstrap.standardResamples) {
        precondition(resamples > 0, "a bootstrap needs at least one resample")
        self.seed = seed
        self.resamples = resamples
    }

    /// The statistic of each resample of `sets` (none empty), in ascending order. `statistic`
    /// gets one resample of every set, each sorted, in the order of `sets`.
    package func replicates(of sets: [[Double]], statistic: ([[Double]]) -> Double) -> [Double] {
        precondition(sets.allSatisfy { !$0.isEmpty }, "a bootstrap needs samples in every set")
        var generator = SplitMix64(seed: seed)
        var drawn = sets.map { [Double](repeating: 0, count: $0.count) }
        var replicates: [Double] = []
        replicates.reserveCapacity(resamples)
        for _ in 0..<resamples {
            for (set, values) in sets.enumerated() {
                let count = UInt64(values.count)
                for i in values.indices { drawn[set][i] = values[Int(generator.next() % count)] }
                drawn[set].sort()
            }
            replicates.append(statistic(drawn))
        }
        replicates.sort()
        return replicates
    }

    /// The 95% percentile interval of `statistic` over `sets` (none empty): the nearest-rank
    /// 2.5th and 97.5th percentiles of its ``replicates(of:statistic:)``.
    package func interval(of sets: [[Double]], statistic: ([[Double]]) -> Double) -> (low: Double, high: Double) {
        let sorted = replicates(of: sets, statistic: statistic)
        return (Statistics.nearestRank(Self.lowerTail, sorted: sorted), Statistics.nearestRank(Self.upperTail, sorted: sorted))
    }
}
