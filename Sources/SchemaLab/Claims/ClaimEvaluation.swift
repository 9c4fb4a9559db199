import Foundation
import SchemaLabEngine

/// One claim judged on a finished run: at each size the run measured both cases, the ratio
/// `case / against` of the claim's metric with its 95% interval and a verdict; the headline
/// verdict at the claim's size (or the run's largest); and, over a sweep, where it changes.
public struct ClaimEvaluation: Sendable {
    /// The claim at one size.
    public struct Measurement: Sendable, Equatable {
        /// The data set size both cases were measured at.
        public let size: Int
        /// The metric of the claim's case (ms, KiB, bytes, counts: the metric's unit).
        public let subject: Double
        /// The metric of the case it is compared with, in the same unit.
        public let against: Double
        /// The ratio subject / against and its 95% interval (or tolerance band).
        public let interval: RatioInterval
        /// The verdict at this size.
        public var verdict: ClaimVerdict
        /// What was compared: the claim's metric, or instructions for a time in a counted run.
        public let basis: ClaimMetric
        /// The repetitions of each case the ratio's interval comes from (the fewer of the
        /// two); nil for a figure counted once (instructions, statements, VM steps, sorts, bytes).
        public var repetitions: Int? = nil
    }

    /// The claim judged.
    public let claim: ClaimSpec
    /// Ascending by size.
    public let measurements: [Measurement]
    /// The measurement the verdict is read from.
    public let headline: Measurement?
    /// Where the verdict changes over a sweep, in words ("" without a sweep or a change).
    public let change: String

    /// The headline verdict (not measured without a measurement).
    public var verdict: ClaimVerdict { headline?.verdict ?? .notMeasured }

    /// A time metric is judged on instructions when both cases were counted: the counts repeat
    /// exactly, so the verdict does not move with the machine's noise. The interval of an
    /// instruction ratio is the regression gate's tolerance (1%).
    public static let instructionTolerance = 0.01
    /// The interval of a ratio of one figure a case (memory growth): the gate's minimum
    /// effect (10%).
    public static let singleFigureTolerance = 0.10

    /// Every claim of `scenario` on `run`.
    public static func evaluate(_ scenario: Scenario, run: RunSnapshot) -> [ClaimEvaluation] {
        scenario.claims.map { evaluate($0, run: run) }
    }

    /// One claim on `run`, at every size that has both its cases.
    public static func evaluate(_ claim: ClaimSpec, run: RunSnapshot) -> ClaimEvaluation {
        let sizes = Set(run.order.map(\.size)).sorted()
        var measurements: [Measurement] = []
        for size in sizes {
            let a = CaseKey(variant: claim.subject.variant, workload: claim.subject.workload, size: size)
            let b = CaseKey(variant: claim.against.variant, workload: claim.against.workload, size: size)
            guard let x = run.cases[a], let y = run.cases[b], let m = measure(claim, x, y, run: run, size: size) else { continue }
            measurements.append(m)
        }
        let headline: Measurement?
        if let wanted = claim.size, !measurements.isEmpty {
            // The nearest on a log scale; on a tie, the larger size.
            headline = measurements.reversed().min {
                abs(log(Double($0.size) / Double(wanted))) < abs(log(Double($1.size) / Double(wanted)))
            }
        } else {
            headline = measurements.last
        }
        return ClaimEvaluation(claim: claim, measurements: measurements, headline: headline, change: describeChanges(claim, measurements))
    }

    /// The claim's metric on two cases; nil when a case did not record it.
    static func measure(_ claim: ClaimSpec, _ x: RecordedCase, _ y: RecordedCase, run: RunSnapshot, size: Int) -> Measurement? {
        var metric = claim.metric
        if metric.isTime, let i = x.summary.instructions, let j = y.summary.instructions, i > 0, j > 0 { metric = .instructions }
        let interval: RatioInterval, subject: Double, against: Double
        // A negative value (heap retained is a difference: a repetition can free more than it
        // keeps) has no ratio to judge: the claim is not measured rather than judged on nonsense.
        func samples(_ a: [Double], _ b: [Double], _ statistic: RatioInterval.Statistic) -> (RatioInterval, Double, Double)? {
            let fa = a.filter(\.isFinite).sorted(), fb = b.filter(\.isFinite).sorted()
            guard fa.first.map({ $0 >= 0 }) == true, fb.first.map({ $0 >= 0 }) == true,
                let r = RatioInterval(subject: fa, against: fb, statistic: statistic)
            else { return nil }
            return (r, statistic.of(sorted: fa), statistic.of(sorted: fb))
        }
        func figure(_ value: (CaseSummary) -> Int64?, band: Double) -> (RatioInterval, Double, Double)? {
            guard let a = value(x.summary).map(Double.init), let b = value(y.summary).map(Double.init), a >= 0, b >= 0 else { return nil }
            return (banded(a, b, band), a, b)
        }
        let found: (RatioInterval, Double, Double)?
        switch metric {
        case .medianTime: found = samples(x.wallMs, y.wallMs, .median)
        case .p90Time: found = samples(x.wallMs, y.wallMs, .percentile(0.9))
        case .cpuTime: found = samples(x.cpuMs, y.cpuMs, .median)
        case .heapRetained: found = samples(x.heapRetainedKB, y.heapRetainedKB, .median)
        case .longestWrite: found = samples(x.longestWriteMs, y.longestWriteMs, .median)
        case .readP99: found = samples(x.latencyMs, y.latencyMs, .percentile(0.99))
        case .statements: found = figure({ Int64($0.statements) }, band: 0)
        case .rowsScanned: found = figure(\.counters.fullscanSteps, band: 0)
        case .vmSteps: found = figure(\.counters.vmSteps, band: 0)
        case .sorts: found = figure(\.counters.sorts, band: 0)
        case .instructions: found = figure(\.instructions, band: instructionTolerance)
        case .memoryGrowth: found = figure(\.rssGrowthKB, band: singleFigureTolerance)
        case .storeBytes:
            if let a = run.storeBytes[claim.subject.variant]?[size], let b = run.storeBytes[claim.against.variant]?[size] {
                found = (banded(a, b, 0), a, b)
            } else {
                found = nil
            }
        }
        guard let found else { return nil }
        (interval, subject, against) = found
        // A figure counted once is judged on its ratio (its band only says whether it is no
        // effect): more repetitions cannot move it off a boundary, so it is never undecided.
        let verdict =
            metric.isSampled ? ClaimVerdict.judge(claim.expectation, interval) : ClaimVerdict.judgeFigure(claim.expectation, interval)
        var measurement = Measurement(size: size, subject: subject, against: against, interval: interval, verdict: verdict, basis: metric)
        if metric.isSampled && metric.repeats {
            let repetitions = min(x.samples.count, y.samples.count)
            measurement.repetitions = repetitions
            // One repetition a case has no interval (the bootstrap's is that one ratio): it
            // cannot show its own noise, so it decides nothing.
            if repetitions < 2 && measurement.verdict != .notMeasured { measurement.verdict = .undecided }
        }
        return measurement
    }

    /// An exact ratio, widened by `band` each way (a tolerance, not a sampling interval).
    static func banded(_ a: Double, _ b: Double, _ band: Double) -> RatioInterval {
        let exact = RatioInterval(exact: a, b)
        guard band > 0 else { return exact }
        return RatioInterval(ratio: exact.ratio, low: exact.ratio / (1 + band), high: exact.ratio * (1 + band))
    }

    /// Over a sweep: the sizes at which the verdict changes and, when the ratio crosses 1
    /// between two sizes, the size of the crossing (`Crossover`, interpolated on log axes).
    static func describeChanges(_ claim: ClaimSpec, _ measurements: [Measurement]) -> String {
        guard measurements.count >= 2 else { return "" }
        var parts: [String] = []
        for (before, after) in zip(measurements, measurements.dropFirst()) where before.verdict != after.verdict {
            var text =
                "\(before.verdict.rawValue) at n=\(Format.number(Double(before.size))), \(after.verdict.rawValue) at n=\(Format.number(Double(after.size)))"
            let points = { (m: Measurement, subject: Bool) -> Crossover.Point in
                let value = subject ? m.subject : m.against
                return Crossover.Point(size: m.size, median: value, low: value, high: value)
            }
            let crossings = Crossover.find(
                "case", [points(before, true), points(after, true)], "against", [points(before, false), points(after, false)])
            if let c = crossings.first { text += " (the ratio crosses 1 near n=\(Format.number(c.size.rounded())))" }
            parts.append(text)
        }
        return parts.joined(separator: "; ")
    }
}
