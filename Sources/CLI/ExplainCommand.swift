import ArgumentParser
import Foundation
import SchemaLab
import SchemaLabSQLite
import SchemaLabCoreData
import SchemaLabEngine

/// `schemalab explain SCENARIO --variant V --workload W`: what one case runs and why it costs
/// what it costs, without timing; `--advise` measures the index `.expert` suggests.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Prints the statements one case runs, with plans, counters and index advice.",
        discussion: """
            Runs the case once on a small data set (--size, default the smaller of 1000 and the \
            scenario's first size) and prints each distinct statement with its query plan, SQLite's \
            counters for the run, and, under a SELECT that scans a table or sorts in a temporary \
            B-tree, the index SQLite's `.expert` suggests (through the sqlite3 tool) and the plan \
            with it. --advise adds the suggested indexes to a copy of the variant (<variant>+advice), \
            measures both on the workload (--reps repetitions, interleaved), checks that they \
            return the same result, and prints the difference.
            """
    )

    @Argument(help: "A scenario file.")
    var scenario: String

    @Option(name: .long, help: "The variant.")
    var variant: String

    @Option(name: .long, help: "The workload.")
    var workload: String

    @Option(name: .long, help: "The data set size (default: the smaller of 1000 and the scenario's first size).")
    var size: Int?

    @Flag(name: .long, help: "Add the suggested indexes as a new variant and measure both.")
    var advise = false

    @Option(name: .long, help: "Repetitions of each case with --advise.")
    var reps = 5

    @Option(name: .long, help: "The sqlite3 executable.")
    var sqlite3 = "sqlite3"

    func validate() throws {
        if let size, size <= 0 { throw fail("--size takes a positive count", code: 2) }
        if reps < 1 { throw fail("--reps must be at least 1", code: 2) }
    }

    func run() throws {
        let plan: ScenarioPlan
        do { plan = try ScenarioPlan(ScenarioDecoder.load(path: scenario)) } catch let e as ScenarioError { throw fail(e.description, code: 2) }
        let sc = plan.scenario
        guard let model = plan.models.first(where: { $0.variant == variant }) else {
            throw fail("no variant '\(variant)' in \(scenario) (has: \(plan.models.map(\.variant).joined(separator: ", ")))", code: 2)
        }
        guard let spec = sc.workloads.first(where: { $0.name == workload }) else {
            throw fail("no workload '\(workload)' in \(scenario) (has: \(sc.workloads.map(\.name).joined(separator: ", ")))", code: 2)
        }
        if let only = spec.variants, !only.contains(variant) {
            throw fail("workload '\(workload)' does not run in variant '\(variant)' (it runs in: \(only.joined(separator: ", ")))", code: 2)
        }
        let n = size ?? min(1000, sc.dataset.counts.first ?? 1000)
        let work: WorkDirectory
        do { work = try WorkDirectory.create() } catch let e as FileError { throw fail(e.message, code: 1) }
        defer { work.remove() }

        var options = RunOptions(sizes: [n], repetitions: 1, warmup: 0, variants: [variant], workloads: [workload], workDirectory: work.path)
        options.sequential = true
        let result: CaseResult
        do {
            guard let r = try LabRunner(plan: plan, options: options).run().first else { throw fail("the case did not run", code: 1) }
            result = r
        } catch let e as ExitCode { throw e } catch {
            throw fail("the case failed: \(error)", code: 1)
        }
        print("\(sc.name): \(variant) · \(workload) · n = \(n)")
        let c = result.counters
        print("  \(result.statements) statement(s) executed, \(result.rows) row(s); VM steps \(c.vmSteps), full-scan steps \(c.fullscanSteps), "
              + "sorts \(c.sorts), auto-index rows \(c.autoindex); one run took \(Format.short(result.wall.median)) ms (not a measurement: --advise measures)")
        let advisor = IndexAdvisor(sqlite3: sqlite3)
        let unavailable = advisor.unavailable()
        let empty = work.path + "/explain-empty.sqlite"
        do { _ = try Store.create(path: empty, model: model, pragmas: sc.pragmas) } catch {
            throw fail("cannot create an empty store of \(variant) at \(empty) for the index advice: \(error)", code: 1)
        }
        var suggested: [AdvisedIndex] = []
        for st in result.plans {
            let lines = st.plan.map { node -> String in String(repeating: "  ", count: depth(node, st.plan)) + node.detail }
            print("\nstatement \(st.number): \(st.sql)")
            for l in lines { print("    " + l) }
            let costly = st.plan.contains { PlanLine.isCostly($0.detail) }
            guard costly, st.sql.uppercased().hasPrefix("SELECT") else { continue }
            if let unavailable { print("    no index advice: \(unavailable)"); continue }
            let a = advisor.advise(sql: st.sql, database: empty)
            print("    " + a.summary.replacingOccurrences(of: "`", with: ""))
            for i in a.indexes { print("      " + i) }
            for p in a.plan { print("        " + p) }
            for i in a.indexes {
                if let idx = AdvisedIndex(createIndex: i, model: model), !suggested.contains(idx) { suggested.append(idx) }
                else if AdvisedIndex(createIndex: i, model: model) == nil { print("      (not added by --advise: this form of CREATE INDEX is not one the lab reads back as attributes of one entity)") }
            }
        }
        guard advise else { return }
        print("")
        guard !suggested.isEmpty else { print("--advise: no index to add"); return }
        try measureAdvice(plan: plan, indexes: suggested, size: n)
    }

    /// The depth of a plan node (its parents up to the root).
    private func depth(_ node: QueryPlanNode, _ all: [QueryPlanNode]) -> Int {
        var d = 0, parent = node.parent
        while parent != 0, let p = all.first(where: { $0.id == parent }), d < 32 { d += 1; parent = p.parent }
        return d
    }

    /// The variant with the suggested indexes added, measured against the variant.
    private func measureAdvice(plan: ScenarioPlan, indexes: [AdvisedIndex], size n: Int) throws {
        let advised = variant + "+advice"
        guard let data = FileManager.default.contents(atPath: scenario),
              var json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              var variants = json["variants"] as? [[String: Any]], var workloads = json["workloads"] as? [[String: Any]] else {
            throw fail("cannot read \(scenario) as a JSON object", code: 2)
        }
        guard !variants.contains(where: { $0["name"] as? String == advised }) else {
            throw fail("\(scenario) already has a variant named \(advised)", code: 2)
        }
        variants.append(["name": advised, "extends": variant,
                         "addIndexes": indexes.enumerated().map { $0.element.json(name: "advice\($0.offset + 1)") }])
        for i in workloads.indices {
            if var only = workloads[i]["variants"] as? [String], only.contains(variant) { only.append(advised); workloads[i]["variants"] = only }
        }
        json["variants"] = variants
        json["workloads"] = workloads
        let text = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
        let advisedPlan: ScenarioPlan
        do { advisedPlan = try ScenarioPlan(ScenarioDecoder.decode(text: text, file: scenario)) } catch {
            throw fail("the advised variant does not validate: \(error)", code: 1)
        }
        let work: WorkDirectory
        do { work = try WorkDirectory.create() } catch let e as FileError { throw fail(e.message, code: 1) }
        defer { work.remove() }
        let options = RunOptions(sizes: [n], repetitions: reps, warmup: 1, variants: [variant, advised], workloads: [workload], workDirectory: work.path)
        let results: [CaseResult]
        do { results = try LabRunner(plan: advisedPlan, options: options).run() } catch { throw fail("measuring the advice failed: \(error)", code: 1) }
        guard let base = results.first(where: { $0.variant == variant }), let new = results.first(where: { $0.variant == advised }) else {
            throw fail("measuring the advice did not run both cases", code: 1)
        }
        print("--advise: \(advised) adds \(indexes.map(\.description).joined(separator: ", ")); \(reps) repetitions each, interleaved, n = \(n)")
        for r in [base, new] {
            let plans = r.plans.filter { $0.sql.uppercased().hasPrefix("SELECT") }.map { $0.plan.map(\.detail).joined(separator: "; ") }
            print("  \(r.variant): median \(Format.short(r.wall.median)) ms (95% interval \(Format.short(r.wall.ciLow))-\(Format.short(r.wall.ciHigh))), "
                  + "VM steps \(r.counters.vmSteps), sorts \(r.counters.sorts); plan: \(plans.joined(separator: " | "))")
        }
        let p = MannWhitney.pValue(base.samples.map(\.wallMs), new.samples.map(\.wallMs))
        let same = base.signature.digest.split(separator: "-").first == new.signature.digest.split(separator: "-").first
        print("  change: \(Format.percent(new.wall.median / base.wall.median - 1)) (x\(Format.ratio(base.wall.median / new.wall.median)) faster), "
              + "Mann-Whitney p = \(Format.p(p)); results \(same ? "the same" : "DIFFER")")
        if !same { throw fail("the advised variant returned another result", code: 1) }
    }
}
