import Foundation
import SchemaLabEngine

/// A run compared with a baseline, case by case: exactly on what is deterministic (query
/// plans, SQLite's counters, statements, rows, the result, instruction counts within a small
/// tolerance), with statistics on what is not (wall time, heap retained). A time change counts
/// only when it is both significant (Mann-Whitney U, p < alpha) and larger than the minimum
/// effect; otherwise it prints `~`, as benchstat does. Every finding says what changed.
///
/// Times are compared after taking out the machine's speed: the run's times are divided by
/// the machine factor, the median over all cases of new median / baseline median (with at
/// least 3 cases). A machine that is slower today slows every case; a regression slows some.
/// A change that slows every case alike is then not seen in time, but in instruction counts.
package struct RunComparison: Sendable {
    /// What a finding means for the gate.
    package enum Verdict: String, Sendable, Comparable {
        case same = "~"
        case improved = "improved"
        case changed = "changed"
        case regressed = "REGRESSED"

        var rank: Int { [.same: 0, .improved: 1, .changed: 2, .regressed: 3][self]! }
        package static func < (a: Verdict, b: Verdict) -> Bool { a.rank < b.rank }
    }

    /// One thing that differs in one case.
    package struct Finding: Sendable {
        package let verdict: Verdict
        package let message: String
    }

    /// One case's comparison.
    package struct CaseComparison: Sendable {
        package let key: CaseKey
        /// Median wall time (ms) in the baseline and the run, their ratio - 1, and the p-value.
        package let baseMs: Double, newMs: Double, change: Double, p: Double
        package let time: Verdict
        package let findings: [Finding]
        /// The worst verdict of the time and the findings.
        package var verdict: Verdict { ([time] + findings.map(\.verdict)).max()! }
    }

    /// The thresholds of the gate.
    package struct Options: Sendable {
        /// A time (or memory) change smaller than this fraction is `~` whatever its p-value.
        package var minimumEffect = 0.10
        /// The significance level of the Mann-Whitney U test.
        package var alpha = 0.05
        /// Instruction counts may move by this fraction before they count.
        package var instructionTolerance = 0.01
        /// A baseline case the run does not have fails the gate unless this is set (a shard,
        /// or a run of some variants only, compared with a whole baseline).
        package var allowMissing = false
        package init() {}
    }

    package let cases: [CaseComparison]
    /// The run's times were divided by this before comparing (1 with fewer than 3 cases).
    package let machineFactor: Double
    /// Cases of the baseline the run does not have, and the other way round.
    package let missing: [CaseKey]
    package let added: [CaseKey]
    package let options: Options

    /// True when any case regressed, or a baseline case is missing from the run (unless
    /// `Options/allowMissing`): a workload that stopped running is not a pass.
    package var hasRegression: Bool { !regressedCases.isEmpty || missingFails }

    /// The cases whose verdict is a regression.
    package var regressedCases: [CaseComparison] { cases.filter { $0.verdict == .regressed } }

    /// True when the baseline has cases the run does not, and that fails the gate.
    package var missingFails: Bool { !missing.isEmpty && !options.allowMissing }

    /// What differs between two environments that makes timings incomparable.
    package static func environmentDifferences(_ baseline: EnvironmentFingerprint, _ run: EnvironmentFingerprint) -> [String] {
        var out: [String] = []
        func cmp<T: Equatable>(_ name: String, _ x: T, _ y: T) {
            if x != y { out.append("\(name): \(x) in the baseline, \(y) in the run") }
        }
        cmp("SQLite version", baseline.sqliteVersion, run.sqliteVersion)
        cmp("SQLite compile options", baseline.sqliteCompileOptions.joined(separator: " "), run.sqliteCompileOptions.joined(separator: " "))
        cmp("CPU cores", baseline.cores, run.cores)
        cmp("build configuration", baseline.buildConfiguration, run.buildConfiguration)
        return out
    }

    package init(baseline: RunSnapshot, run: RunSnapshot, options: Options = Options()) {
        self.options = options
        let pairs = run.order.compactMap { key -> (RecordedCase, RecordedCase)? in
            guard let b = baseline.cases[key], let n = run.cases[key] else { return nil }
            return (b, n)
        }
        let ratios = pairs.compactMap { b, n -> Double? in
            let x = Self.median(b.wallMs), y = Self.median(n.wallMs)
            return x > 0 && y > 0 ? y / x : nil
        }
        machineFactor = ratios.count >= 3 ? Statistics.median(sorted: ratios.sorted()) : 1
        let factor = machineFactor
        // Runs with instruction counts: a case left uncounted (a reader under a writer) has only its time.
        let counted =
            baseline.cases.values.contains { $0.summary.instructions != nil }
            && run.cases.values.contains { $0.summary.instructions != nil }
        cases = pairs.map { Self.compare($0.0, $0.1, options, machineFactor: factor, countedRuns: counted) }
        missing = baseline.order.filter { run.cases[$0] == nil }
        added = run.order.filter { baseline.cases[$0] == nil }
    }

    static func median(_ v: [Double]) -> Double {
        v.isEmpty ? .nan : Statistics.median(sorted: v.sorted())
    }

    /// A change of medians judged with the U test and the minimum effect.
    static func judge(_ base: [Double], _ new: [Double], _ options: Options) -> (change: Double, p: Double, verdict: Verdict) {
        let mb = median(base), mn = median(new)
        let change = mb > 0 ? mn / mb - 1 : 0
        let p = MannWhitney.pValue(base, new)
        guard p < options.alpha, abs(change) >= options.minimumEffect else { return (change, p, .same) }
        return (change, p, change > 0 ? .regressed : .improved)
    }

    static func compare(
        _ b: RecordedCase, _ n: RecordedCase, _ options: Options, machineFactor: Double = 1,
        countedRuns: Bool = false
    ) -> CaseComparison {
        var (change, p, time) = judge(b.wallMs, n.wallMs.map { $0 / machineFactor }, options)
        var findings: [Finding] = []
        // A case whose rows or statements vary between its own repetitions (a reader under a
        // writer) is not deterministic: its counters are not gated.
        let deterministic =
            Set(b.samples.map(\.rows)).count <= 1 && Set(b.samples.map(\.statements)).count <= 1
            && Set(n.samples.map(\.rows)).count <= 1 && Set(n.samples.map(\.statements)).count <= 1
        let (_, heapP, heap) = judge(b.heapRetainedKB, n.heapRetainedKB, options)
        if heap != .same, abs(median(n.heapRetainedKB) - median(b.heapRetainedKB)) >= 64 {
            findings.append(
                Finding(
                    verdict: heap,
                    message:
                        "heap retained \(Format.number(median(b.heapRetainedKB))) -> \(Format.number(median(n.heapRetainedKB))) KB (p = \(Format.pValue(heapP)))"
                ))
        }
        if b.summary.resultDigest != n.summary.resultDigest {
            findings.append(
                Finding(
                    verdict: .regressed, message: "the result changed (digest \(b.summary.resultDigest) -> \(n.summary.resultDigest))"))
        }
        findings += planFindings(b, n)
        if deterministic {
            let counts: [(@Sendable (CaseSummary) -> Int64, String)] = [
                ({ Int64($0.statements) }, "statements"), ({ Int64($0.rows) }, "rows"), ({ $0.counters.sorts }, "sorts"),
                ({ $0.counters.fullscanSteps }, "full-scan steps"), ({ $0.counters.autoindex }, "auto-index rows"),
                ({ $0.counters.vmSteps }, "VM steps"),
            ]
            for (figure, label) in counts {
                let x = figure(b.summary), y = figure(n.summary)
                guard x != y else { continue }
                let verdict: Verdict = label == "rows" ? .regressed : (y > x ? .regressed : .improved)
                findings.append(Finding(verdict: verdict, message: "\(label) \(x) -> \(y)"))
            }
        }
        let instructionCounts: [(KeyPath<CaseSummary, Int64?>, String)] = [
            (\.instructions, "instructions"), (\.sqliteInstructions, "SQLite instructions"),
        ]
        for (figure, label) in instructionCounts where deterministic {
            guard let x = b.summary[keyPath: figure].map(Double.init), let y = n.summary[keyPath: figure].map(Double.init), x > 0 else {
                continue
            }
            let r = y / x - 1
            guard abs(r) > options.instructionTolerance else { continue }
            findings.append(
                Finding(
                    verdict: r > 0 ? .regressed : .improved,
                    message: "\(label) \(Format.number(x)) -> \(Format.number(y)) (\(Format.percent(r)))"))
        }
        // With instruction counts on both sides and equal within the tolerance, the CPU work is the
        // same: a slower time alone is reported, not gated (machine noise, or I/O the counts miss).
        if time == .regressed, deterministic, let x = b.summary.instructions.map(Double.init),
            let y = n.summary.instructions.map(Double.init),
            x > 0,
            abs(y / x - 1) <= options.instructionTolerance
        {
            time = .changed
            findings.append(
                Finding(
                    verdict: .changed,
                    message:
                        "time \(Format.percent(change)) (p = \(Format.pValue(p))) with the same instructions (\(Format.percent(y / x - 1))): reported, not gated"
                ))
        } else if time == .regressed, countedRuns, b.summary.instructions == nil, n.summary.instructions == nil {
            // Not counted although the runs were (a reader under a writer): its time follows how two
            // threads interleave and the busy handler's back-off; make ci saw +12.6% at p = 0.008 A/A.
            time = .changed
            findings.append(
                Finding(
                    verdict: .changed,
                    message:
                        "time \(Format.percent(change)) (p = \(Format.pValue(p))) in a case the runs did not count (a reader under a writer: its time follows thread interleaving and lock waits): reported, not gated"
                ))
        }
        return CaseComparison(
            key: n.key, baseMs: median(b.wallMs), newMs: median(n.wallMs), change: change, p: p, time: time, findings: findings)
    }

    /// Query plans statement by statement: a readable diff of each plan that changed, and
    /// statements that appeared or went away. A plan that gained a full scan or a temporary
    /// B-tree is a regression; one that lost them an improvement; another change is reported.
    static func planFindings(_ b: RecordedCase, _ n: RecordedCase) -> [Finding] {
        var out: [Finding] = []
        let base = Dictionary(b.plans.map { ($0.sql, $0.planLines) }, uniquingKeysWith: { a, _ in a })
        let new = Dictionary(n.plans.map { ($0.sql, $0.planLines) }, uniquingKeysWith: { a, _ in a })
        func cost(_ plan: [String]) -> Int {
            plan.filter(PlanLine.isCostly).count
        }
        let (sortsBefore, sortsAfter) = (b.summary.counters.sorts, n.summary.counters.sorts)
        let sorts = sortsBefore != sortsAfter ? " (sorts \(sortsBefore) -> \(sortsAfter))" : ""
        for (sql, plan) in n.plans.map({ ($0.sql, $0.planLines) }) where base[sql] != nil && base[sql]! != plan {
            let old = base[sql]!
            let verdict: Verdict = cost(plan) > cost(old) ? .regressed : cost(plan) < cost(old) ? .improved : .changed
            out.append(
                Finding(
                    verdict: verdict,
                    message: "plan of `\(Self.short(sql))`: \(old.joined(separator: "; ")) became \(plan.joined(separator: "; "))\(sorts)"))
        }
        for (sql, plan) in n.plans.map({ ($0.sql, $0.planLines) }) where base[sql] == nil {
            out.append(Finding(verdict: .changed, message: "new statement `\(Self.short(sql))`: \(plan.joined(separator: "; "))"))
        }
        for sql in b.plans.map(\.sql) where new[sql] == nil {
            out.append(Finding(verdict: .changed, message: "statement no longer run: `\(Self.short(sql))`"))
        }
        return out
    }

    /// A long SQL statement cut for a message.
    static func short(_ sql: String) -> String {
        sql.count <= 90 ? sql : String(sql.prefix(87)) + "..."
    }
}
