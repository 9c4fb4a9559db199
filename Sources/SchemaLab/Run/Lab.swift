import Foundation
import SchemaLabEngine
import Synchronization

/// The lab's entry point: runs a scenario and returns what it measured.
///
/// ```swift
/// let scenario = try ScenarioDecoder.load(path: "scenarios/photos-matrix.json")
/// let result = try Lab.run(scenario, options: RunOptions(sizes: [1_000], repetitions: 3))
/// for evaluation in result.claims { print(evaluation.claim.id, evaluation.verdict) }
/// ```
///
/// A run fills each variant's store, measures every case (variant × workload × size) with
/// its warm-up, repetitions, memory, SQLite's counters, plans and raw baseline, checks every
/// result against the reference variant's, and judges the scenario's claims and assertions.
/// Nothing is written but the temporary stores, which are removed; to keep a run on disk,
/// give an observer that writes it (the CLI's run directory is one).
public enum Lab {
    /// The lab's version (`schemalab --version`).
    public static let version = "1.0.0"

    /// Runs `scenario` with `options`, telling `observer` as it goes.
    ///
    /// Throws a ``/SchemaLabEngine/ScenarioError`` when the scenario does not check (a scenario built in Swift
    /// gets the decoder's checks) or resolve, an ``OperationError``
    /// when the options do not fit it (a variant it lacks, a store it does not match, a data
    /// set that would not fit), and an observer's error. A case that fails does not throw: it
    /// is in ``RunResult/failures``, and the run goes on unless ``/SchemaLabEngine/RunOptions/stopsAtFirstFailure``.
    public static func run(_ scenario: Scenario, options: RunOptions = RunOptions(), observer: (any RunObserver)? = nil) throws
        -> RunResult
    {
        try run(ScenarioPlan(checked(scenario)), options: options, observer: observer ?? SilentObserver())
    }

    /// ``run(_:options:observer:)`` on a thread of its own, for callers in Swift concurrency:
    /// cancelling the task stops the run between two repetitions with a `CancellationError`.
    public static func run(
        _ scenario: Scenario, options: RunOptions = RunOptions(), observer: (any RunObserver & Sendable)? = nil
    ) async throws -> RunResult {
        let cancelled = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<RunResult, any Error>) in
                let thread = Thread {
                    continuation.resume(
                        with: Result {
                            try run(
                                ScenarioPlan(checked(scenario)), options: options, observer: observer ?? SilentObserver(),
                                isCancelled: { cancelled.isSet })
                        })
                }
                // The stack a main thread has: deep predicates and scenarios recurse.
                thread.stackSize = 8 << 20
                thread.start()
            }
        } onCancel: {
            cancelled.set()
        }
    }

    /// A run of a resolved scenario. `earlier`: the cases and fills of an earlier process of
    /// the same run (a resumed run directory); they are not measured again (``/SchemaLabEngine/RunOptions``'
    /// selection is the same), and the checks, claims and assertions are judged on them with
    /// the new cases. `workDirectory`: where the stores go when the caller owns the directory.
    package static func run(
        _ plan: ScenarioPlan, options: RunOptions, observer: any RunObserver, earlier: [RecordedCase] = [],
        earlierFills: [FillMeasurement] = [], isCancelled: @escaping () -> Bool = { false }
    ) throws -> RunResult {
        let selection = try RunSelection(plan: plan, options: options)
        let work = try LabWorkspace(options: selection.options)
        defer { work.remove() }
        let scheduler = CaseScheduler(plan: plan, options: selection.options, workDirectory: work.path)
        if selection.options.checksFit { try checkFit(plan, selection.options, work.path) }
        let skipping = Set(earlier.map(\.key))
        let runPlan = RunPlan(
            scenarioName: plan.scenario.name, cases: scheduler.cases().filter { !skipping.contains($0) },
            sizes: selection.options.sizes ?? plan.scenario.dataset.counts,
            variants: plan.scenario.variants.map(\.name).filter { selection.options.variants?.contains($0) ?? true },
            workloads: plan.scenario.workloads.map(\.name).filter { selection.options.workloads?.contains($0) ?? true },
            skippedWorkloads: selection.skippedWorkloads, options: selection.options, warnings: plan.warnings)
        try observer.runWillStart(runPlan)
        let collector = RunCollector(forwardingTo: observer)
        try scheduler.run(skipping: skipping, observer: collector, isCancelled: isCancelled)
        var cases = collector.results
        let checks = ResultChecker(scenario: plan.scenario).checks(
            earlier.compactMap { record in record.signature.map { (record.key, $0) } }
                + cases.map { (CaseKey(variant: $0.variant, workload: $0.workload, size: $0.size), $0.signature) })
        for (i, check) in checks.suffix(cases.count).enumerated() {
            cases[i].referenceCheck = check.reference
            cases[i].agreementCheck = check.agreement
        }
        let stopped = selection.options.stopsAtFirstFailure && !collector.failures.isEmpty
        let environment = EnvironmentFingerprint()
        var judge = RunJudgement(plan: plan, scheduler: scheduler, observer: observer, workDirectory: work.path)
        if !stopped {
            let variants = plan.scenario.variants.map(\.name), workloads = plan.scenario.workloads.map(\.name)
            let snapshot = RunSnapshot(
                scenario: plan.scenario.name,
                cases: earlier + cases.map { RecordedCase($0, variants: variants, workloads: workloads) },
                fills: earlierFills + collector.fills, environment: environment)
            judge.judge(snapshot, fills: earlierFills + collector.fills, checkAssertions: collector.failures.isEmpty)
        }
        return RunResult(
            scenario: plan.scenario, plan: runPlan, cases: cases, failures: collector.failures, fills: collector.fills,
            claims: judge.claims, assertions: judge.assertions, environment: environment, stoppedAtFailure: stopped,
            notes: judge.notes)
    }

    /// `scenario` with the decoder's checks: a scenario read from a file had them; one built in
    /// Swift (no SHA-256) gets them now (``ScenarioDecoder/check(_:)``).
    static func checked(_ scenario: Scenario) throws -> Scenario {
        scenario.sha256.isEmpty ? try ScenarioDecoder.check(scenario) : scenario
    }

    /// Refuses a data set that would not fit (a failure), before anything is measured.
    private static func checkFit(_ plan: ScenarioPlan, _ options: RunOptions, _ workDirectory: String) throws(OperationError) {
        do {
            try FitCheck.check(plan: plan, options: options, workDirectory: workDirectory)
        } catch let error as FitCheck.TooLarge {
            throw OperationError(.failed, error.description, remedy: .reduceSizeOrSkipFitCheck)
        } catch {
            throw OperationError(.failed, "the fit check could not measure a sample of the data set: \(error)", remedy: .skipFitCheck)
        }
    }
}

/// An observer that hears nothing.
struct SilentObserver: RunObserver {}

/// Set once when the task that awaits a run is cancelled.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
