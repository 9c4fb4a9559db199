import Foundation
import SchemaLabCoreData
import SchemaLabEngine
import SchemaLabSQLite

/// `schemalab explain SCENARIO --variant V --workload W`: what one case runs and why it costs
/// what it costs, without timing.
///
/// The case runs once on a small data set; each distinct statement is printed with its query
/// plan, with SQLite's counters for the run, and, under a SELECT that scans a table or sorts
/// in a temporary B-tree, the index SQLite's `.expert` suggests (through the sqlite3 tool) and
/// the plan with it. With ``advise``, the suggested indexes go into a copy of the variant
/// (`V+advice`, `AdviceExperiment`), measured against the variant.
package struct CaseExplanation {
    package var scenario: String
    package var variant: String
    package var workload: String
    /// The data set size (nil: the smaller of 1000 and the scenario's first size).
    package var size: Int?
    /// Add the suggested indexes as a new variant and measure both.
    package var advise = false
    /// Repetitions of each case with ``advise``.
    package var repetitions = 5
    /// The sqlite3 executable `.expert` runs in.
    package var sqlite3 = "sqlite3"

    package init(scenario: String, variant: String, workload: String) {
        self.scenario = scenario
        self.variant = variant
        self.workload = workload
    }

    /// Runs the case and prints the explanation (and the advice's measurement) to `console`.
    package func explain(console: any Console) throws(OperationError) {
        let plan = try RecordedRun.loadPlan(scenario)
        let definition = plan.scenario
        guard let model = plan.models.first(where: { $0.variant == variant }) else {
            throw OperationError(
                .badInput, "no variant '\(variant)' in \(scenario) (has: \(plan.models.map(\.variant).joined(separator: ", ")))")
        }
        guard let spec = definition.workloads.first(where: { $0.name == workload }) else {
            throw OperationError(
                .badInput, "no workload '\(workload)' in \(scenario) (has: \(definition.workloads.map(\.name).joined(separator: ", ")))")
        }
        if let only = spec.variants, !only.contains(variant) {
            throw OperationError(
                .badInput, "workload '\(workload)' does not run in variant '\(variant)' (it runs in: \(only.joined(separator: ", ")))")
        }
        let count = size ?? min(1000, definition.dataset.counts.first ?? 1000)
        let work: WorkDirectory
        do { work = try WorkDirectory.create() } catch { throw OperationError.from(error, status: .failed) }
        defer { work.remove() }

        var options = RunOptions(sizes: [count], repetitions: 1, warmup: 0, variants: [variant], workloads: [workload])
        options.sequential = true
        options.checksFit = false
        options.workDirectory = work.path
        let result: CaseResult
        do {
            let run = try Lab.run(plan, options: options, observer: SilentObserver())
            if let failed = run.failures.first { throw OperationError(.failed, "the case failed: \(failed.failure.message)") }
            guard let first = run.cases.first else { throw OperationError(.failed, "the case did not run") }
            result = first
        } catch let error as OperationError {
            throw error
        } catch {
            throw OperationError(.failed, "the case failed: \(error)")
        }
        console.print("\(definition.name): \(variant) · \(workload) · n = \(count)")
        let counters = result.counters
        console.print(
            "  \(result.statements) statement(s) executed, \(result.rows) row(s); VM steps \(counters.vmSteps), full-scan steps \(counters.fullscanSteps), "
                + "sorts \(counters.sorts), auto-index rows \(counters.autoindex); one run took \(Format.short(result.wall.median)) ms (not a measurement: measuring the advice does)"
        )
        let advisor = IndexAdvisor(sqlite3: sqlite3)
        let unavailable = advisor.unavailable()
        let empty = work.path + "/explain-empty.sqlite"
        do { _ = try Store.create(path: empty, model: model, pragmas: definition.pragmas) } catch {
            throw OperationError(.failed, "cannot create an empty store of \(variant) at \(empty) for the index advice: \(error)")
        }
        var suggested: [AdvisedIndex] = []
        for statement in result.plans {
            console.print("\nstatement \(statement.number): \(statement.sql)")
            for (node, level) in zip(statement.plan, QueryPlanNode.depths(statement.plan)) {
                console.print("    " + String(repeating: "  ", count: level) + node.detail)
            }
            let costly = statement.plan.contains { PlanLine.isCostly($0.detail) }
            guard costly, statement.sql.uppercased().hasPrefix("SELECT") else { continue }
            if let unavailable { console.print("    no index advice: \(unavailable)"); continue }
            let advice = advisor.advise(sql: statement.sql, database: empty)
            console.print("    " + advice.summary.replacingOccurrences(of: "`", with: ""))
            for index in advice.indexes { console.print("      " + index) }
            for line in advice.plan { console.print("        " + line) }
            for index in advice.indexes {
                if let advised = AdvisedIndex(createIndex: index, model: model) {
                    if !suggested.contains(advised) { suggested.append(advised) }
                } else {
                    console.print(
                        "      (not measured with the advice: this form of CREATE INDEX is not one the lab reads back as attributes of one entity)"
                    )
                }
            }
        }
        guard advise else { return }
        console.print("")
        guard !suggested.isEmpty else { console.print("advice: no index to add"); return }
        var experiment = AdviceExperiment(scenario: scenario, variant: variant, workload: workload, indexes: suggested)
        experiment.size = count
        experiment.repetitions = repetitions
        try experiment.measure(console: console)
    }
}
