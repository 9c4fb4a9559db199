import Foundation
import SchemaLabCoreData
import SchemaLabEngine

/// Hears how far an advice is.
public protocol AdviceObserver {
    /// One line of progress: a phase begun, a step of the search measured.
    func adviceDidProgress(_ line: String)
}

/// The whole-model index advisor: which fetch indexes to add to a variant, and which of its
/// own to remove, for all of a scenario's workloads at once, each proposal shown by
/// measurement (read gain and write cost), never estimated.
///
/// ```swift
/// var options = AdviceOptions(variant: "V1", size: 1_000, instructionCounter: CallgrindCounter())
/// let advice = try Advisor.advise(scenario, options: options)
/// for index in advice.additions { print(index.description, index.readGain, index.writeCost) }
/// ```
///
/// It measures the starting variant, gathers candidates from the requests (and SQLite's
/// `.expert`), runs a greedy search by measurement (``AdviceOptions/basis``), then proves the
/// chosen set: each index left out in turn, the set at a second size, and the set against the
/// starting variant timed with repetitions and a U test per workload.
public enum Advisor {
    /// Advises `scenario`'s variant ``AdviceOptions/variant`` over its workloads.
    public static func advise(_ scenario: Scenario, options: AdviceOptions, observer: (any AdviceObserver)? = nil) throws -> Advice {
        let started = Date()
        let progress: (String) -> Void = { observer?.adviceDidProgress($0) }
        var notes: [String] = []
        var scenario = try Lab.checked(scenario)
        let base = options.variant
        guard scenario.variants.contains(where: { $0.name == base }) else {
            throw OperationError(
                .badInput,
                "\(scenario.file) has no variant \(base) (it has \(scenario.variants.map(\.name).joined(separator: ", ")))")
        }
        if options.basis == .instructions && options.instructionCounter == nil {
            throw OperationError(.badInput, "the instructions basis needs an instruction counter (or choose the time basis)")
        }
        let advisedRuns = scenario.workloads.filter { ($0.variants?.contains(base) ?? true) && $0.kind.countsInstructions }
        guard advisedRuns.contains(where: \.readsOnly) else {
            throw OperationError(.badInput, "\(scenario.file) has no read workload that runs in \(base): nothing to advise")
        }
        if !advisedRuns.contains(where: { !$0.readsOnly }) {
            var withInsert = scenario
            withInsert.workloads.append(WorkloadSpec(name: Self.synthesizedInsert, kind: .insert))
            do {
                withInsert = try ScenarioDecoder.check(withInsert)
                _ = try ScenarioPlan(withInsert)
                scenario = withInsert
                notes.append(
                    "The scenario has no write workload in \(base): the write cost is that of an insert of the data set (\(Self.synthesizedInsert)), per object."
                )
            } catch {
                notes.append(
                    "The scenario has no write workload in \(base), and an insert of its data set cannot run (\(Self.reason(error))): no write cost is measured, so only the reads decide; give the scenario the app's saves."
                )
            }
        }
        let model = try ScenarioPlan(scenario).models.first { $0.variant == base }.unwrap(or: "variant \(base) did not resolve")
        var measurer = AdviceMeasurer(scenario: scenario, base: base, model: model, options: options)
        progress("measuring \(base) on \(advisedRuns.count) workload(s) at n = \(options.size) (\(options.basis.rawValue))")
        let names = scenario.workloads.filter { ($0.variants?.contains(base) ?? true) && $0.kind.countsInstructions }.map(\.name)
        let start = try measurer.measure([AdviceTrial(name: base, adds: [], drops: [])], workloads: [base: names], size: options.size)[base]
            .unwrap(or: "the starting variant was not measured")
        let workloads = AdvisedWorkload.classify(
            scenario, variant: base, model: model, plans: start.costs.mapValues(\.result.plans),
            rows: start.costs.mapValues(\.result.rows))
        var pool = CandidatePool(model: model, maxElements: options.maxElements)
        pool.gather(from: scenario)
        notes += gatherExpert(into: &pool, costs: start.costs, model: model, scenario: scenario, options: options)
        pool.merge()
        if options.triesRemovals { pool.addExistingForRemoval() }
        progress("\(pool.candidates.count) candidate(s): \(pool.candidates.map(\.description).joined(separator: ", "))")
        let startRead = workloads.filter(\.isRead).reduce(0) { sum, workload in
            sum + (start.costs[workload.name].map { workload.weighted($0.cost) } ?? 0)
        }
        let prefetches = try PrefetchProbe(scenario: scenario, base: base, model: model, options: options).measure(
            workloads: workloads, start: start.costs, threshold: options.minGain * max(startRead, 1), measurer: &measurer)
        if !prefetches.isEmpty {
            progress("\(prefetches.count) fetch(es) measured again with the relationships they fault through prefetched")
        }
        var search = IndexSearch(
            measurer: measurer, workloads: workloads, options: options, start: start.costs, startBytes: start.storeBytes)
        try search.run(pool: pool.candidates, progress: progress)
        measurer = search.measurer
        var proof = AdviceProof(
            scenario: scenario, base: base, model: model, workloads: workloads, options: options, search: search, measurer: measurer)
        let advice = try proof.prove(progress: progress)
        var out = advice
        out.candidates = pool.candidates.count
        out.prefetches = prefetches
        out.notes = notes + out.notes
        out.seconds = Date().timeIntervalSince(started)
        return out
    }

    /// An error's message without the file and JSON path of a workload the user's file lacks.
    static func reason(_ error: any Error) -> String {
        if let error = error as? ScenarioError { return error.message }
        return "\(error)"
    }

    /// The name of the insert workload added when a scenario has no write workload.
    public static let synthesizedInsert = "advice-insert"

    /// Adds `.expert`'s suggestions for every SELECT of the starting run that scans or sorts.
    private static func gatherExpert(
        into pool: inout CandidatePool, costs: [String: TrialCost], model: ResolvedModel, scenario: Scenario, options: AdviceOptions
    ) -> [String] {
        guard let sqlite3 = options.sqlite3 else { return [] }
        let advisor = IndexAdvisor(sqlite3: sqlite3)
        if let why = advisor.unavailable() { return ["SQLite's expert added nothing to the pool: \(why)."] }
        guard let work = try? WorkDirectory.create() else { return ["SQLite's expert added nothing: no work directory."] }
        defer { work.remove() }
        let empty = work.path + "/advice-empty.sqlite"
        guard (try? Store.create(path: empty, model: model, pragmas: scenario.pragmas)) != nil else {
            return ["SQLite's expert added nothing: an empty store of the variant could not be made."]
        }
        for (workload, cost) in costs.sorted(by: { $0.key < $1.key }) {
            for statement in cost.result.plans
            where statement.sql.uppercased().hasPrefix("SELECT") && statement.plan.contains(where: { PlanLine.isCostly($0.detail) }) {
                for index in advisor.advise(sql: statement.sql, database: empty).indexes {
                    if let advised = AdvisedIndex(createIndex: index, model: model) { pool.add(advised: advised, workload: workload) }
                }
            }
        }
        return []
    }
}

extension Optional {
    /// The value, or an `OperationError` saying `what` went wrong.
    func unwrap(or what: String) throws(OperationError) -> Wrapped {
        guard let self else { throw OperationError(.failed, what) }
        return self
    }
}
