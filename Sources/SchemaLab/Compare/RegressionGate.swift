import Foundation
import SchemaLabEngine

/// `schemalab compare BASELINE RUN_DIR`: the regression gate, case by case.
///
/// Exact: each statement's query plan, SQLite's counters, statements, rows, the result
/// digest; instruction counts within a tolerance. With statistics: wall time and heap
/// retained, a change counting only when the Mann-Whitney U test gives p below alpha and it
/// is larger than the threshold (`RunComparison`). Claims: a verdict that got worse on a
/// deterministic metric (`ClaimChanges`). Runs from different environments are
/// refused unless ``acrossEnvironments``.
package struct RegressionGate {
    /// A baseline name (in ``baselineDirectory``) or a run directory.
    package var baseline: String
    /// The run directory to judge.
    package var run: String
    /// Where baselines are kept.
    package var baselineDirectory = "results/baselines"
    /// Thresholds and tolerances.
    package var options = RunComparison.Options()
    /// Compare runs from different environments anyway.
    package var acrossEnvironments = false
    /// Also write the report as Markdown to this file.
    package var markdown: String?

    package init(baseline: String, run: String) {
        self.baseline = baseline
        self.run = run
    }

    /// Prints the comparison to `console`. Throws ``OperationError/Status/regression`` when a
    /// case got worse (or a baseline case is missing, unless allowed), a failure when the
    /// runs cannot be compared, and ``OperationError/Status/baselineNotFound``.
    package func check(console: any Console) throws(OperationError) {
        guard let base = Baselines(directory: baselineDirectory).resolve(baseline) else {
            throw OperationError(
                .baselineNotFound, "no baseline '\(baseline)' (neither a run directory nor \(baselineDirectory)/\(baseline)/results.csv)")
        }
        let before: RunSnapshot, after: RunSnapshot
        do {
            try RunDirectory.requireComplete(at: base, purpose: "compare with the baseline")
            try RunDirectory.requireComplete(at: run, purpose: "compare")
            before = try RunSnapshot(path: base)
            after = try RunSnapshot(path: run)
        } catch {
            throw OperationError(.failed, error.message)
        }
        guard before.scenario == after.scenario else {
            throw OperationError(
                .failed, "\(base) is scenario '\(before.scenario)', \(run) is '\(after.scenario)': compare runs of one scenario")
        }
        let differences = RunComparison.environmentDifferences(before.environment, after.environment)
        if !differences.isEmpty && !acrossEnvironments {
            throw OperationError(
                .failed,
                "refusing to compare runs from different environments (\(differences.joined(separator: "; ")))",
                remedy: .compareAcrossEnvironments
            )
        }
        let comparison = RunComparison(baseline: before, run: after, options: options)
        guard !comparison.cases.isEmpty else {
            func sizes(_ snapshot: RunSnapshot) -> String {
                Set(snapshot.order.map(\.size)).sorted().map(String.init).joined(separator: ", ")
            }
            throw OperationError(
                .failed,
                "no case of \(run) is in \(base): nothing was compared (sizes \(sizes(after)) in the run, \(sizes(before)) in the baseline; \(after.order.count) and \(before.order.count) cases)"
            )
        }
        let claims: ClaimChanges
        do { claims = ClaimChanges(baseline: try ClaimsFile.read(directory: base), run: try ClaimsFile.read(directory: run)) } catch {
            throw OperationError(.failed, error.message)
        }
        let report = ComparisonReport(comparison: comparison, baseline: base, run: run, claims: claims)
        if !differences.isEmpty { console.print("note: environments differ (compared anyway): \(differences.joined(separator: "; "))") }
        console.print(String(report.text.dropLast(report.text.hasSuffix("\n") ? 1 : 0)))
        if let markdown {
            do { try Data(report.markdown.utf8).write(to: URL(fileURLWithPath: markdown)) } catch {
                throw OperationError(.failed, "cannot write \(markdown): \(error.localizedDescription)")
            }
        }
        if comparison.hasRegression || claims.hasRegression {
            var why: [String] = []
            if !comparison.regressedCases.isEmpty || !claims.hasRegression {
                why.append("\(comparison.regressedCases.count) case(s) regressed")
            }
            if comparison.missingFails { why.append("\(comparison.missing.count) baseline case(s) missing from the run") }
            if claims.hasRegression { why.append("\(claims.changes.filter { $0.verdict == .regressed }.count) claim verdict(s) got worse") }
            throw OperationError(.regression, "regression: \(why.joined(separator: ", "))")
        }
    }
}
