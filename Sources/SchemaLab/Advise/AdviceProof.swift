import SchemaLabCoreData
import SchemaLabEngine

/// Proves the set the search chose: the set as the `advised` variant measured whole, each of
/// its indexes left out in turn (leave-one-out) at the search's size and at a second size,
/// and the set against the starting variant timed over repetitions with a U test per workload.
struct AdviceProof {
    let scenario: Scenario
    let base: String
    let model: ResolvedModel
    let workloads: [AdvisedWorkload]
    let options: AdviceOptions
    let search: IndexSearch
    var measurer: AdviceMeasurer

    /// The advised variant's name: `advised`, or `advised2`, ... when the scenario has one.
    var advisedName: String {
        var name = "advised", number = 1
        while scenario.variants.contains(where: { $0.name == name }) {
            number += 1
            name = "advised\(number)"
        }
        return name
    }

    /// Additions taken out of the set by the proof, with why.
    var prunedNotes: [String] = []

    mutating func prove(progress: (String) -> Void) throws(OperationError) -> Advice {
        var set = AdviceTrial(name: advisedName, adds: search.adds, drops: search.drops)
        var proposals: [IndexProposal] = []
        var advisedScenario: Scenario?
        var confirm: [String: (before: CaseResult, after: CaseResult)] = [:]
        guard !set.adds.isEmpty || !set.drops.isEmpty else {
            return advice(proposals: [], confirm: [:], advisedScenario: nil, after: search.startCosts)
        }
        // Leave each change out in turn; an addition whose own share no longer gains more than
        // the threshold (a later index serves its fetches) leaves the set, and the rest is
        // measured again.
        var leaveOut: [(trial: AdviceTrial, changed: IndexCandidate)] = []
        var runsOf: [String: [String]] = [:]
        var atSize: [String: (costs: [String: TrialCost], storeBytes: Int64)] = [:]
        while true {
            leaveOut = leaveOneOutTrials(set)
            runsOf = [set.name: workloads.map(\.name)]
            for (trial, changed) in leaveOut { runsOf[trial.name] = affected(changed) }
            progress("proving the set: \(leaveOut.count) index change(s) left out in turn at n = \(options.size)")
            atSize = try measurer.measure([set] + leaveOut.map(\.trial), workloads: runsOf, size: options.size)
            let threshold = options.minGain * max(search.startRead, 1)
            let weakest = leaveOut.enumerated().filter { !$0.element.changed.isDrop }.map { i, entry in
                (i, self.share(without: atSize[entry.trial.name]?.costs, with: atSize[set.name]?.costs, change: entry.changed))
            }.min { $0.1.readGain - $0.1.writeCost < $1.1.readGain - $1.1.writeCost }
            guard let (index, share) = weakest, share.readGain - share.writeCost <= threshold, set.adds.count > 0 else { break }
            let removed = set.adds.remove(at: index)
            prunedNotes.append(
                "\(removed.description): left out of the set, its own share gains \(Format.number(share.readGain - share.writeCost)) net (a later index serves its fetches)"
            )
            if set.adds.isEmpty && set.drops.isEmpty {
                return advice(proposals: [], confirm: [:], advisedScenario: nil, after: search.startCosts)
            }
        }
        let named = AdviceTrial.named(set.adds, model: model)
        let changes = set.adds + set.drops
        // The same share under other conditions: a second size, the other side of ANALYZE.
        var conditions: [(label: String, size: Int, analyze: Bool)] = []
        if let second = options.secondSize, second != options.size { conditions.append(("n = \(second)", second, options.analyze)) }
        if options.checksAnalyze {
            conditions.append((options.analyze ? "without ANALYZE" : "with ANALYZE", options.size, !options.analyze))
        }
        // Under another condition only the reads are measured again: a save's cost per object
        // does not depend on the planner's statistics, and the proof's size measured it.
        let readNames = Set(workloads.filter(\.isRead).map(\.name))
        var readsOf: [String: [String]] = [:]
        for (trial, changed) in leaveOut { readsOf[trial.name] = affected(changed).filter { readNames.contains($0) } }
        readsOf[set.name] = Array(Set(readsOf.values.joined())).sorted()
        var checked: [(label: String, costs: [String: (costs: [String: TrialCost], storeBytes: Int64)])] = []
        for condition in conditions {
            progress("the reads the set changes, again \(condition.label)")
            checked.append(
                (
                    condition.label,
                    try measurer.measure(
                        [set] + leaveOut.map(\.trial), workloads: readsOf, size: condition.size, analyze: condition.analyze)
                ))
        }
        var scenarioOut = scenario
        scenarioOut.variants.append(
            VariantSpec(
                name: set.name, description: "\(base) with the indexes the advisor measured (schemalab advise).", extends: base,
                dropIndexes: set.drops.compactMap { drop in drop.dropName.map { EntityMemberRef(entity: drop.entity, name: $0) } },
                addIndexes: named.map { $0.candidate.spec(name: $0.name) }))
        scenarioOut.workloads = scenarioOut.workloads.map { workload in
            var workload = workload
            if let only = workload.variants, only.contains(base) { workload.variants = only + [set.name] }
            return workload
        }
        progress("timing \(base) against \(set.name): \(options.repetitions) repetitions of every workload, interleaved")
        confirm = try timed(scenarioOut, advised: set.name)
        scenarioOut.workloads.removeAll { $0.name == Advisor.synthesizedInsert }
        advisedScenario = scenarioOut
        let afterModel = try? ScenarioPlan(ScenarioDecoder.check(scenarioOut)).models.first { $0.variant == set.name }
        for (i, change) in changes.enumerated() {
            let trial = leaveOut[i].trial
            let name = change.isDrop ? (change.dropName ?? "") : named[i].name
            let sqlName: String? =
                change.isDrop
                ? model.entity(change.entity)?.indexes.first { $0.name == name }?.sqlName
                : afterModel?.entity(change.entity)?.indexes.first { $0.name == name }?.sqlName
            // A removal served the workloads that used it before; an addition serves those that use it after.
            let planned = { (costs: [String: TrialCost]?) -> [String] in
                guard let sqlName, let costs else { return [] }
                return costs.filter { _, cost in cost.result.plans.contains { $0.plan.contains { Self.uses($0.detail, index: sqlName) } } }
                    .keys.sorted()
            }
            let share = self.share(without: atSize[trial.name]?.costs, with: atSize[set.name]?.costs, change: change)
            let serves =
                change.isDrop ? planned(atSize[trial.name]?.costs) : planned(confirm.mapValues { TrialCost(cost: 0, result: $0.after) })
            let checks = checked.map { label, measured in
                let other = self.share(without: measured[trial.name]?.costs, with: measured[set.name]?.costs, change: change)
                return ProposalCheck(
                    label: label, readGain: other.readGain, writeCost: share.writeCost,
                    serves: planned(change.isDrop ? measured[trial.name]?.costs : measured[set.name]?.costs))
            }
            // Measured only when both stores were filled (a trial with reads); else not claimed.
            let withBytes = atSize[set.name]?.storeBytes ?? -1, withoutBytes = atSize[trial.name]?.storeBytes ?? -1
            let bytes = withBytes >= 0 && withoutBytes >= 0 ? withBytes - withoutBytes : 0
            proposals.append(
                IndexProposal(
                    entity: change.entity, name: name, elements: change.elements, isRemoval: change.isDrop, origins: change.origins,
                    serves: serves, readGain: share.readGain, writeCost: share.writeCost, checks: checks, storeBytes: bytes,
                    fetchIndexXML: FetchIndexXML.element(name: name, elements: change.elements)))
        }
        return advice(
            proposals: proposals, confirm: confirm, advisedScenario: advisedScenario, after: atSize[set.name]?.costs ?? search.current,
            afterBytes: atSize[set.name]?.storeBytes ?? -1)
    }

    /// One trial per change of the set: the set without an addition, or with a removal undone.
    private func leaveOneOutTrials(_ set: AdviceTrial) -> [(trial: AdviceTrial, changed: IndexCandidate)] {
        var out: [(AdviceTrial, IndexCandidate)] = []
        for (i, add) in set.adds.enumerated() {
            var trial = set
            trial.name = "advice-without-\(i + 1)"
            trial.adds.remove(at: i)
            out.append((trial, add))
        }
        for (i, drop) in set.drops.enumerated() {
            var trial = set
            trial.name = "advice-keeping-\(i + 1)"
            trial.drops.remove(at: i)
            out.append((trial, drop))
        }
        return out
    }

    private func affected(_ change: IndexCandidate) -> [String] {
        return workloads.filter { $0.touches(change.table) }.map(\.name)
    }

    /// What a change buys: the weighted reads it saves and the writes it adds, from the set
    /// measured with it (`with`) and without it (`without`).
    private func share(without: [String: TrialCost]?, with: [String: TrialCost]?, change: IndexCandidate) -> (
        readGain: Double, writeCost: Double
    ) {
        var read = 0.0, write = 0.0
        for workload in workloads where workload.touches(change.table) {
            guard let old = without?[workload.name], let new = with?[workload.name] else { continue }
            let delta = workload.weighted(new.cost) - workload.weighted(old.cost)
            if workload.isRead { read -= delta } else { write += delta }
        }
        return (read, write)
    }

    /// The starting variant and the advised one, timed over repetitions, every workload.
    private mutating func timed(_ scenarioOut: Scenario, advised: String) throws(OperationError) -> [String: (
        before: CaseResult, after: CaseResult
    )] {
        var confirmer = AdviceMeasurer(scenario: scenarioOut, base: base, model: model, options: options)
        let both = try confirmer.measure(
            [AdviceTrial(name: base, adds: [], drops: []), AdviceTrial(name: advised, adds: [], drops: [])],
            workloads: [base: workloads.map(\.name), advised: workloads.map(\.name)], size: options.size, repetitions: options.repetitions,
            timed: true)
        measurer.absorb(confirmer)
        var out: [String: (before: CaseResult, after: CaseResult)] = [:]
        for workload in workloads {
            if let before = both[base]?.costs[workload.name]?.result, let after = both[advised]?.costs[workload.name]?.result {
                out[workload.name] = (before, after)
            }
        }
        return out
    }

    /// True when the plan after scans a table through an index (`SCAN t0 USING INDEX …`) and
    /// the run shows it read the whole table: at least half the full-scan steps of the plan
    /// before, or any when there was no scan before. A fetch with a limit that stops after 20
    /// rows of the index is not a scan.
    static func readsWholeTableThroughIndex(before: CaseResult?, after: CaseResult?) -> Bool {
        guard let after, after.plans.contains(where: { $0.plan.contains { PlanLine.scansThroughIndex($0.detail) } }) else { return false }
        let steps = after.counters.fullscanSteps, reference = before?.counters.fullscanSteps ?? 0
        return steps > 0 && (reference == 0 || steps * 2 >= reference)
    }

    /// True when a plan line reads through `index`.
    static func uses(_ detail: String, index: String) -> Bool {
        detail.contains("INDEX \(index) ") || detail.hasSuffix("INDEX \(index)")
    }

    /// The advice, with `after` the set's costs as measured whole.
    private func advice(
        proposals: [IndexProposal], confirm: [String: (before: CaseResult, after: CaseResult)], advisedScenario: Scenario?,
        after setCosts: [String: TrialCost], afterBytes: Int64 = -1
    ) -> Advice {
        var changes: [WorkloadChange] = []
        for workload in workloads {
            let before = search.startCosts[workload.name], after = setCosts[workload.name]
            let timed = confirm[workload.name]
            let beforeResult = timed?.before ?? before?.result, afterResult = timed?.after ?? after?.result
            let selects: (CaseResult?) -> [String] = { result in
                (result?.plans ?? []).filter { $0.sql.uppercased().hasPrefix("SELECT") }.map {
                    $0.plan.map(\.detail).joined(separator: "; ")
                }
            }
            changes.append(
                WorkloadChange(
                    workload: workload.name, isRead: workload.isRead, weight: workload.weight, perRunDivisor: workload.perRunDivisor,
                    before: before?.cost ?? 0, after: after?.cost ?? before?.cost ?? 0,
                    msBefore: beforeResult?.wall.median ?? 0, msAfter: afterResult?.wall.median ?? 0,
                    intervalBefore: (beforeResult?.wall.ciLow ?? 0)...(beforeResult?.wall.ciHigh ?? 0),
                    intervalAfter: (afterResult?.wall.ciLow ?? 0)...(afterResult?.wall.ciHigh ?? 0),
                    pValue: timed.map { MannWhitney.pValue($0.before.samples.map(\.wallMs), $0.after.samples.map(\.wallMs)) } ?? 1,
                    vmStepsBefore: beforeResult?.counters.vmSteps ?? 0, vmStepsAfter: afterResult?.counters.vmSteps ?? 0,
                    pagesWrittenBefore: beforeResult?.counters.pagesWritten ?? 0,
                    pagesWrittenAfter: afterResult?.counters.pagesWritten ?? 0, savesPerRun: workload.savesPerRun,
                    plansBefore: selects(beforeResult), plansAfter: selects(afterResult),
                    scansThroughIndex: Self.readsWholeTableThroughIndex(before: beforeResult, after: afterResult),
                    sameResult: beforeResult.flatMap { b in afterResult.map { b.signature.agrees(with: $0.signature) } } ?? true))
        }
        let weightedMs: (Bool, Bool) -> Double = { reads, after in
            self.workloads.filter { $0.isRead == reads }.reduce(0) { sum, workload in
                guard let pair = confirm[workload.name] else { return sum }
                return sum + workload.weighted((after ? pair.after : pair.before).wall.median)
            }
        }
        let used = Set(
            (search.startCosts.values.map(\.result) + confirm.values.map(\.after)).flatMap(\.plans).flatMap(\.plan).map(\.detail))
        var unused: [String] = []
        for entity in model.entities {
            for index in entity.indexes where index.kind == .binary && !index.unique && !unused.contains("\(entity.name).\(index.name)") {
                if !used.contains(where: { Self.uses($0, index: index.sqlName) }) { unused.append("\(entity.name).\(index.name)") }
            }
        }
        var steps: [String] = []
        for step in search.steps {
            let verb = step.candidate.isDrop ? "remove" : step.widens.map { "widen \($0.description) to" } ?? "add"
            steps.append(
                "step \(step.number): \(verb) \(step.candidate.isDrop ? step.candidate.description.replacingOccurrences(of: "drop ", with: "") : step.candidate.description): "
                    + "read gain \(Format.number(step.readGain)), write cost \(Format.number(step.writeCost)), store \(Format.number(Double(step.storeBytes))) bytes "
                    + "(\(step.trialsMeasured) trial(s) measured of \(step.candidatesConsidered) candidate(s))")
        }
        return Advice(
            scenario: scenario.name, variant: base, advisedVariant: advisedName, basis: options.basis, size: options.size,
            secondSize: options.secondSize == options.size ? nil : options.secondSize, analyze: options.analyze,
            additions: proposals.filter { !$0.isRemoval }, removals: proposals.filter(\.isRemoval), prefetches: [], unusedIndexes: unused,
            workloads: changes, steps: steps,
            declined: prunedNotes + search.declined.values.sorted(),
            readBefore: search.total(search.startCosts, reads: true), readAfter: search.total(setCosts, reads: true),
            writeBefore: search.total(search.startCosts, reads: false), writeAfter: search.total(setCosts, reads: false),
            readMsBefore: weightedMs(true, false), readMsAfter: weightedMs(true, true), writeMsBefore: weightedMs(false, false),
            writeMsAfter: weightedMs(false, true), storeBytesBefore: search.startBytes,
            storeBytesAfter: afterBytes >= 0 ? afterBytes : search.currentBytes,
            candidates: 0, trials: search.trialsMeasured + (proposals.isEmpty ? 0 : proposals.count + 1),
            cases: measurer.casesMeasured, labRuns: measurer.runs, seconds: 0, advisedScenario: advisedScenario, notes: [])
    }
}
