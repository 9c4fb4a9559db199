import SchemaLabEngine

/// Writes a run into its run directory as it goes: each case is committed the moment it is
/// measured (or failed), each fill as it is made, so that a run stopped at any instant keeps
/// every finished case (`RunDirectory`). Every event is handed on to `next` after it is
/// written. A new run's directory is created when the run starts (``create``); a resumed
/// run's is given.
package final class RunDirectoryRecorder: RunObserver {
    /// Makes the directory once the run's cases and options are known.
    package typealias Create = (RunPlan) throws -> RunDirectory

    private let create: Create?
    private let next: any RunObserver
    private let variants: [String]
    private let workloads: [String]
    /// The directory, once created (or the one given).
    package private(set) var directory: RunDirectory?

    /// A recorder for a new run: `create` makes its directory when the run starts.
    /// `variants` and `workloads` give the scenario's order (for the plots).
    package init(variants: [String], workloads: [String], next: any RunObserver, create: @escaping Create) {
        self.variants = variants
        self.workloads = workloads
        self.next = next
        self.create = create
    }

    /// A recorder for a resumed run, into `directory`.
    package init(directory: RunDirectory, variants: [String], workloads: [String], next: any RunObserver) {
        self.directory = directory
        self.variants = variants
        self.workloads = workloads
        self.next = next
        create = nil
    }

    package func runWillStart(_ plan: RunPlan) throws {
        if directory == nil, let create { directory = try create(plan) }
        try next.runWillStart(plan)
    }

    package func runDidProgress(_ progress: RunProgress) { next.runDidProgress(progress) }

    package func runDidFill(_ fill: FillMeasurement) throws {
        try directory?.recordFill(fill)
        try next.runDidFill(fill)
    }

    package func runDidFinish(_ result: CaseResult) throws {
        try directory?.commit(RecordedCase(result, variants: variants, workloads: workloads))
        try next.runDidFinish(result)
    }

    package func runDidFail(_ key: CaseKey, _ failure: CaseFailure) throws {
        try directory?.recordFailure(key, failure)
        try next.runDidFail(key, failure)
    }

    package func runWillMeasureAgain(_ cases: [CaseKey], round: Int, reason: String) {
        next.runWillMeasureAgain(cases, round: round, reason: reason)
    }
}
