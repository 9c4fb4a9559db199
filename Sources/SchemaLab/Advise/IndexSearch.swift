import SchemaLabEngine

/// The greedy search, in the spirit of Extend (Schlosser et al., 2019): at each step every
/// candidate is measured on top of the set chosen so far (added, widening a chosen index it
/// extends, or removing an existing index), and the step with the best measured net gain
/// per byte of store is kept; the search stops when no step gains more than the threshold,
/// or a budget is reached. A candidate's effect is measured again only when the step kept
/// changed a workload it affects (lazy greedy); the others keep their measurement.
package struct IndexSearch {
    package var measurer: AdviceMeasurer
    package let workloads: [AdvisedWorkload]
    package let options: AdviceOptions
    /// The starting variant's costs, per workload.
    package let startCosts: [String: TrialCost]
    /// The starting store's bytes.
    package let startBytes: Int64
    /// The costs of the set chosen so far.
    package private(set) var current: [String: TrialCost]
    package private(set) var currentBytes: Int64
    package private(set) var adds: [IndexCandidate] = []
    package private(set) var drops: [IndexCandidate] = []
    package private(set) var steps: [AdviceStep] = []
    /// Trials measured in all.
    package private(set) var trialsMeasured = 0
    /// Candidates measured but not kept (by identity): each described with why, for the report.
    package private(set) var declined: [String: String] = [:]
    private var effects: [String: CandidateEffect] = [:]
    /// The starting variant's reads in SQLite VM steps, for the screen.
    private var startSteps: [String: Double] = [:]
    /// Additions that passed the screen and wait: another of their table saves more steps.
    private var deferred: Set<String> = []
    /// Set when no counted step could be kept: each table counts its next addition.
    private var releasesDeferred = false
    /// Candidates left out by the VM-step screen before being counted (by identity).
    package private(set) var screenedOut: Set<String> = []
    private var trialNumber = 0

    package init(
        measurer: AdviceMeasurer, workloads: [AdvisedWorkload], options: AdviceOptions, start: [String: TrialCost], startBytes: Int64
    ) {
        self.measurer = measurer
        self.workloads = workloads
        self.options = options
        self.startCosts = start
        self.startBytes = startBytes
        self.current = start
        self.currentBytes = startBytes
    }

    /// The starting weighted read cost, and write cost.
    package var startRead: Double { total(startCosts, reads: true) }
    package var startWrite: Double { total(startCosts, reads: false) }

    /// Weighted total of `costs` over the reads or the writes.
    package func total(_ costs: [String: TrialCost], reads: Bool) -> Double {
        workloads.filter { $0.isRead == reads }.reduce(0) { sum, workload in
            sum + (costs[workload.name].map { workload.weighted($0.cost) } ?? 0)
        }
    }

    /// The workloads an index on one of `tables` can change.
    package func affected(_ tables: Set<String>) -> [AdvisedWorkload] {
        workloads.filter { workload in tables.contains { workload.touches($0) } }
    }

    /// Runs the search over `pool` to its end.
    package mutating func run(pool: [IndexCandidate], progress: (String) -> Void) throws(OperationError) {
        var remaining = pool
        let threshold = options.minGain * max(startRead, 1)
        while true {
            if let most = options.maxIndexes, adds.count >= most { remaining.removeAll { !$0.isDrop } }
            remaining.removeAll { candidate in
                !candidate.isDrop && adds.contains { $0.columnKey == candidate.columnKey || $0.extends(candidate) }
            }
            guard !remaining.isEmpty else { break }
            let stale = remaining.filter { effects[$0.identity] == nil }
            let measuredNow = try measure(stale, threshold: threshold)
            // The screen compares with the start, which no step changes: out once, out for good.
            remaining.removeAll { screenedOut.contains($0.identity) }
            progress(
                "step \(steps.count + 1): \(remaining.count) candidate(s), \(measuredNow) trial(s) measured (\(trialsMeasured) in all"
                    + (screenedOut.isEmpty ? ")" : "; \(screenedOut.count) left out by the VM-step screen)"))
            var best: CandidateEffect?
            var bestScore = -Double.infinity
            for candidate in remaining {
                guard let effect = effects[candidate.identity] else { continue }
                if let differs = effect.differs {
                    declined[candidate.identity] = "\(candidate.description): returned another result in \(differs)"
                    continue
                }
                guard let score = score(effect, threshold: threshold) else { continue }
                if score > bestScore {
                    bestScore = score
                    best = effect
                }
            }
            guard let chosen = best else {
                // Nothing counted so far can be kept: each table's next addition by VM steps is
                // counted, once (a third is not: the steps rank them, and each count is slow).
                if deferred.isEmpty || releasesDeferred { break }
                releasesDeferred = true
                continue
            }
            releasesDeferred = false
            accept(chosen, considered: remaining.count, measuredNow: measuredNow)
            remaining.removeAll { $0.identity == chosen.candidate.identity }
            if chosen.candidate.isDrop {
                remaining.removeAll { $0.isDrop && $0.dropName == chosen.candidate.dropName && $0.entity == chosen.candidate.entity }
            }
        }
        for candidate in remaining where declined[candidate.identity] == nil {
            if let effect = effects[candidate.identity] {
                declined[candidate.identity] = "\(candidate.description): " + Self.reason(effect, threshold: threshold)
            }
        }
    }

    /// nil when `effect` may not be kept; otherwise how good a step it is. Removals come
    /// first (they free store and writes), then additions by net gain per byte added.
    private func score(_ effect: CandidateEffect, threshold: Double) -> Double? {
        if let budget = options.maxWriteCost, effect.writeCost > 0,
            total(current, reads: false) + effect.writeCost - startWrite > budget * max(startWrite, 1)
        {
            return nil
        }
        if effect.candidate.isDrop {
            // Removed when the reads lose less than the threshold and the whole gains.
            guard -effect.readGain < threshold, effect.net > 0 else { return nil }
            return .greatestFiniteMagnitude / 2 + effect.net
        }
        guard effect.readGain > 0, effect.net > threshold else { return nil }
        return effect.net / Double(max(effect.storeBytes, 4096))
    }

    static func reason(_ effect: CandidateEffect, threshold: Double) -> String {
        if effect.candidate.isDrop { return "kept: the reads lose \(Format.number(-effect.readGain)) without it" }
        if effect.readGain <= 0 { return "no read gain measured" }
        if effect.net <= 0 {
            return "its write cost (\(Format.number(effect.writeCost))) exceeds its read gain (\(Format.number(effect.readGain)))"
        }
        if effect.net <= threshold { return "gains \(Format.number(effect.net)), under the threshold \(Format.number(threshold))" }
        return "over the write budget or the index budget"
    }

    private mutating func accept(_ effect: CandidateEffect, considered: Int, measuredNow: Int) {
        let widened = adds.first { effect.candidate.extends($0) && !effect.candidate.isDrop }
        steps.append(
            AdviceStep(
                number: steps.count + 1, candidate: effect.candidate, widens: widened, readGain: effect.readGain,
                writeCost: effect.writeCost, storeBytes: effect.storeBytes, trialsMeasured: measuredNow, candidatesConsidered: considered))
        // The effect may have been measured steps ago, on a smaller set: the set grows by its
        // candidate, and each workload's cost by the change measured then.
        let applied = trial(for: effect.candidate)
        adds = applied.adds
        drops = applied.drops
        for (name, new) in effect.costs {
            let then = effect.baseCosts[name] ?? new.cost
            let now = current[name]?.cost ?? then
            current[name] = TrialCost(cost: now + (new.cost - then), result: new.result)
        }
        currentBytes += effect.storeBytes
        // What this step changed: the reads an index on its table can change. A candidate whose
        // reads are others keeps its measurement; its write cost is taken as additive (the
        // proof measures the final set whole).
        let table = effect.candidate.table
        let changed = Set(affected([table]).filter(\.isRead).map(\.name))
        effects = effects.filter { _, other in
            other.candidate.table != table && Set(affected([other.candidate.table]).filter(\.isRead).map(\.name)).isDisjoint(with: changed)
        }
    }

    /// The trial for `candidate` on top of the current set.
    private mutating func trial(for candidate: IndexCandidate) -> AdviceTrial {
        trialNumber += 1
        var trial = AdviceTrial(name: "advice-trial-\(trialNumber)", adds: adds, drops: drops)
        if candidate.isDrop {
            trial.drops.append(candidate)
        } else if let widened = adds.firstIndex(where: { candidate.extends($0) }) {
            trial.adds[widened] = candidate
        } else {
            trial.adds.append(candidate)
        }
        return trial
    }

    /// Measures `candidates` on top of the current set; returns how many trials. First the
    /// reads each can change, all in one run; then the writes, in a second run, only for the
    /// removals and for the additions whose read gain passed the threshold (an addition that
    /// gains no more cannot be kept, whatever it costs).
    private mutating func measure(_ candidates: [IndexCandidate], threshold: Double) throws(OperationError) -> Int {
        guard !candidates.isEmpty else { return 0 }
        var trials: [(IndexCandidate, AdviceTrial)] = []
        for candidate in candidates { trials.append((candidate, trial(for: candidate))) }
        trials = try screened(trials)
        guard !trials.isEmpty else { return 0 }
        let readsOf = Dictionary(uniqueKeysWithValues: trials.map { ($0.1.name, affected([$0.0.table]).filter(\.isRead).map(\.name)) })
        let reads = try measurer.measure(trials.map(\.1), workloads: readsOf, size: options.size)
        trialsMeasured += trials.count
        var effects: [String: CandidateEffect] = [:]
        for (candidate, trial) in trials {
            guard let outcome = reads[trial.name] else { continue }
            let bytes = outcome.storeBytes >= 0 && currentBytes >= 0 ? outcome.storeBytes - currentBytes : 0
            var effect = CandidateEffect(
                candidate: candidate, trial: trial, readGain: 0, writeCost: 0, storeBytes: bytes, costs: [:], differs: nil)
            add(outcome.costs, to: &effect)
            effects[trial.name] = effect
        }
        let writing = trials.filter { candidate, trial in candidate.isDrop || (effects[trial.name]?.readGain ?? 0) > threshold }
        let writesOf = Dictionary(
            uniqueKeysWithValues: writing.map { ($0.1.name, affected([$0.0.table]).filter { !$0.isRead }.map(\.name)) })
        if writesOf.values.contains(where: { !$0.isEmpty }) {
            let writes = try measurer.measure(writing.map(\.1), workloads: writesOf, size: options.size)
            for (_, trial) in writing {
                if let outcome = writes[trial.name], var effect = effects[trial.name] {
                    add(outcome.costs, to: &effect)
                    effects[trial.name] = effect
                }
            }
        }
        for effect in effects.values { self.effects[effect.candidate.identity] = effect }
        return trials.count
    }

    /// On the instructions basis, the additions are screened by SQLite VM steps (counted in the
    /// process, in one run) before anything is counted under valgrind: one whose reads save no
    /// more steps than the search's threshold (the same share of the starting weighted reads,
    /// in steps) is left out, with why; of each table's others, only the one
    /// that saves the most steps is counted in this step (``deferred`` keeps the rest). The
    /// removals all go on.
    private mutating func screened(_ trials: [(IndexCandidate, AdviceTrial)]) throws(OperationError) -> [(IndexCandidate, AdviceTrial)] {
        guard options.basis == .instructions, options.screensByVMSteps else { return trials }
        let additions = trials.filter { !$0.0.isDrop }
        guard !additions.isEmpty else { return trials }
        if startSteps.isEmpty {
            let reads = workloads.filter(\.isRead).map(\.name)
            startSteps =
                try measurer.measure(
                    [AdviceTrial(name: measurer.base, adds: [], drops: [])], workloads: [measurer.base: reads], size: options.size,
                    on: .vmSteps
                )[measurer.base]?.costs.mapValues(\.cost) ?? [:]
        }
        // The search's threshold, in steps: the same share of the starting weighted reads.
        let stepThreshold =
            options.minGain * workloads.filter(\.isRead).reduce(0) { $0 + (startSteps[$1.name].map($1.weighted) ?? 0) }
        let readsOf = Dictionary(
            uniqueKeysWithValues: additions.map { ($0.1.name, affected([$0.0.table]).filter(\.isRead).map(\.name)) })
        let steps = try measurer.measure(additions.map(\.1), workloads: readsOf, size: options.size, on: .vmSteps)
        var gains: [String: Double] = [:]
        for (candidate, trial) in additions {
            var gain = 0.0
            for workload in workloads where workload.isRead {
                guard let new = steps[trial.name]?.costs[workload.name]?.cost, let old = startSteps[workload.name] else { continue }
                gain += workload.weighted(old) - workload.weighted(new)
            }
            gains[candidate.identity] = gain
            if gain <= stepThreshold {
                declined[candidate.identity] =
                    "\(candidate.description): its reads save \(Format.number(gain)) SQLite VM steps, no more than the threshold (not counted)"
                screenedOut.insert(candidate.identity)
            }
        }
        // Of each table's additions that pass, the one that saves the most steps is counted
        // now; the others wait for a step where it is no longer there.
        var best: [String: (identity: String, gain: Double)] = [:]
        // A table whose counted addition still waits for its verdict counts no other, unless no
        // counted step could be kept (then every table counts its next).
        let pending = releasesDeferred ? [] : Set(effects.values.filter { !$0.candidate.isDrop }.map(\.candidate.table))
        for (candidate, _) in additions where !screenedOut.contains(candidate.identity) && !pending.contains(candidate.table) {
            let gain = gains[candidate.identity] ?? 0
            if gain > best[candidate.table]?.gain ?? -.infinity { best[candidate.table] = (candidate.identity, gain) }
        }
        let counted = Set(best.values.map(\.identity))
        deferred = Set(additions.map(\.0.identity)).subtracting(screenedOut).subtracting(counted)
        return trials.filter { candidate, _ in candidate.isDrop || counted.contains(candidate.identity) }
    }

    /// Adds measured `costs` to `effect`: each workload's weighted change against the current
    /// set, and the first whose result differs from the start's.
    private func add(_ costs: [String: TrialCost], to effect: inout CandidateEffect) {
        for workload in workloads {
            guard let new = costs[workload.name], let old = current[workload.name] else { continue }
            let delta = workload.weighted(new.cost) - workload.weighted(old.cost)
            if workload.isRead { effect.readGain -= delta } else { effect.writeCost += delta }
            effect.baseCosts[workload.name] = old.cost
            if let start = startCosts[workload.name], !start.result.signature.agrees(with: new.result.signature) {
                effect.differs = effect.differs ?? workload.name
            }
            effect.costs[workload.name] = new
        }
    }
}
