import Foundation
import SchemaLabEngine

/// `explain --advise`: the indexes `.expert` suggested, added to a copy of the variant
/// (`<variant>+advice`), measured against the variant on the workload (interleaved), with
/// a check that both return the same result, and on every save of the scenario (its write
/// workloads), with and without them.
package struct AdviceExperiment {
    package var scenario: String
    package var variant: String
    package var workload: String
    package var indexes: [AdvisedIndex]
    /// The data set size.
    package var size = 1000
    /// Repetitions of each case.
    package var repetitions = 5

    package init(scenario: String, variant: String, workload: String, indexes: [AdvisedIndex]) {
        self.scenario = scenario
        self.variant = variant
        self.workload = workload
        self.indexes = indexes
    }

    /// The advised variant's name.
    package var advisedVariant: String { variant + "+advice" }

    /// `scenario` with the advised variant added: it extends the variant with the indexes
    /// (`advice1`, `advice2`, ...), and every workload limited to some variants that runs in
    /// the variant runs in the advised one too.
    package static func advisedScenario(_ scenario: Scenario, variant: String, advised: String, indexes: [AdvisedIndex])
        throws(OperationError) -> Scenario
    {
        guard !scenario.variants.contains(where: { $0.name == advised }) else {
            throw OperationError(.badInput, "\(scenario.file) already has a variant named \(advised)")
        }
        var out = scenario
        out.variants.append(
            VariantSpec(
                name: advised, extends: variant,
                addIndexes: indexes.enumerated().map { $0.element.spec(name: "advice\($0.offset + 1)") }))
        out.workloads = scenario.workloads.map { workload in
            var workload = workload
            if let only = workload.variants, only.contains(variant) { workload.variants = only + [advised] }
            return workload
        }
        return out
    }

    /// Measures the variant and the advised variant and prints the change to `console`; a
    /// failure when the advised variant returns another result.
    package func measure(console: any Console) throws(OperationError) {
        let advised = advisedVariant
        let loaded: Scenario
        do { loaded = try ScenarioDecoder.load(path: scenario) } catch { throw OperationError.from(error) }
        let advisedPlan: ScenarioPlan
        do {
            advisedPlan = try ScenarioPlan(
                ScenarioDecoder.check(Self.advisedScenario(loaded, variant: variant, advised: advised, indexes: indexes)))
        } catch {
            throw OperationError(.failed, "the advised variant does not validate: \(error)")
        }
        let work: WorkDirectory
        do { work = try WorkDirectory.create() } catch { throw OperationError.from(error, status: .failed) }
        defer { work.remove() }
        // The scenario's saves run too, with and without the index: what the index costs each save.
        let saves = loaded.workloads.filter { spec in
            spec.name != workload && !spec.readsOnly && spec.kind.countsInstructions && (spec.variants?.contains(variant) ?? true)
        }.map(\.name)
        var options = RunOptions(
            sizes: [size], repetitions: repetitions, warmup: 1, variants: [variant, advised], workloads: [workload] + saves)
        options.workDirectory = work.path
        options.checksFit = false
        let results: [CaseResult]
        do {
            let run = try Lab.run(advisedPlan, options: options, observer: SilentObserver())
            if let failed = run.failures.first { throw OperationError(.failed, "\(failed.key) failed: \(failed.failure.message)") }
            results = run.cases
        } catch {
            throw OperationError(.failed, "measuring the advice failed: \(error)")
        }
        guard let base = results.first(where: { $0.variant == variant && $0.workload == workload }),
            let new = results.first(where: { $0.variant == advised && $0.workload == workload })
        else {
            throw OperationError(.failed, "measuring the advice did not run both cases")
        }
        console.print(
            "advice: \(advised) adds \(indexes.map(\.description).joined(separator: ", ")); \(repetitions) repetitions each, interleaved, n = \(size)"
        )
        for result in [base, new] {
            let plans = result.plans.filter { $0.sql.uppercased().hasPrefix("SELECT") }.map {
                $0.plan.map(\.detail).joined(separator: "; ")
            }
            console.print(
                "  \(result.variant): median \(Format.short(result.wall.median)) ms (95% interval \(Format.short(result.wall.ciLow))-\(Format.short(result.wall.ciHigh))), "
                    + "VM steps \(result.counters.vmSteps), sorts \(result.counters.sorts); plan: \(plans.joined(separator: " | "))")
        }
        let p = MannWhitney.pValue(base.samples.map(\.wallMs), new.samples.map(\.wallMs))
        // The same objects (or values); a touch step may read other keys through the new index's order.
        let same = base.signature.agrees(with: new.signature)
        console.print(
            "  change: \(Format.percent(new.wall.median / base.wall.median - 1)) (x\(Format.ratio(base.wall.median / new.wall.median)) faster), "
                + "Mann-Whitney p = \(Format.pValue(p))\(Self.pFloor(base.samples.count, new.samples.count)); results \(same ? "the same" : "DIFFER")"
        )
        for save in saves {
            guard let before = results.first(where: { $0.variant == variant && $0.workload == save }),
                let after = results.first(where: { $0.variant == advised && $0.workload == save })
            else { continue }
            let p = MannWhitney.pValue(before.samples.map(\.wallMs), after.samples.map(\.wallMs))
            console.print(
                "  save \(save): median \(Format.short(before.wall.median)) -> \(Format.short(after.wall.median)) ms "
                    + "(\(Format.percent(after.wall.median / before.wall.median - 1)), Mann-Whitney p = \(Format.pValue(p))\(Self.pFloor(before.samples.count, after.samples.count))), "
                    + "VM steps \(before.counters.vmSteps) -> \(after.counters.vmSteps), "
                    + "pages written \(before.counters.pagesWritten) -> \(after.counters.pagesWritten)")
        }
        if saves.isEmpty {
            console.print(
                "  no save of the scenario runs in \(variant): the index's write cost is not measured here (schemalab advise measures one)")
        }
        if !same { throw OperationError(.failed, "the advised variant returned another result") }
    }
}

extension AdviceExperiment {
    /// What the repetitions can show, when it is less than significance at 0.05: " (the
    /// smallest p 3 and 3 repetitions allow is 0.100: 4 a side can reach 0.05)"; empty otherwise.
    static func pFloor(_ before: Int, _ after: Int) -> String {
        let floor = MannWhitney.smallestPValue(before, after)
        guard floor >= 0.05 else { return "" }
        let needed = MannWhitney.repetitionsForSignificance(at: 0.05)
        return " (the smallest p \(before) and \(after) repetitions allow is \(Format.pValue(floor)): \(needed) a side can reach 0.05)"
    }
}
