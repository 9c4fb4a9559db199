import SchemaLabEngine

/// Keeps what a run measured (its results, failures and fills) as it hands each event on to
/// the caller's observer.
final class RunCollector: RunObserver {
    private let next: any RunObserver
    private(set) var results: [CaseResult] = []
    private(set) var failures: [RunResult.FailedCase] = []
    private(set) var fills: [FillMeasurement] = []

    init(forwardingTo next: any RunObserver) {
        self.next = next
    }

    func runWillStart(_ plan: RunPlan) throws { try next.runWillStart(plan) }
    func runDidProgress(_ progress: RunProgress) { next.runDidProgress(progress) }

    func runDidFill(_ fill: FillMeasurement) throws {
        fills.append(fill)
        try next.runDidFill(fill)
    }

    func runDidFinish(_ result: CaseResult) throws {
        results.append(result)
        try next.runDidFinish(result)
    }

    func runDidFail(_ key: CaseKey, _ failure: CaseFailure) throws {
        failures.append(RunResult.FailedCase(key: key, failure: failure))
        try next.runDidFail(key, failure)
    }

    func runWillMeasureAgain(_ cases: [CaseKey], round: Int, reason: String) {
        next.runWillMeasureAgain(cases, round: round, reason: reason)
    }
}
