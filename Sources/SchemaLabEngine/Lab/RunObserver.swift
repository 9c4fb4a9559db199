/// What a run tells as it goes: the cases it is about to measure, how far it is, each store
/// it filled, and each case as soon as it is measured or failed. Every method has a default
/// that does nothing. A method that throws stops the run with that error (a run directory
/// that cannot be written, say); the cases finished before it are the observer's to keep.
///
/// A run calls its observer from the thread that runs it, one call at a time.
public protocol RunObserver {
    /// The run is about to fill stores and measure `plan.cases`.
    func runWillStart(_ plan: RunPlan) throws
    /// How far the run is: called as each warm-up and repetition begins.
    func runDidProgress(_ progress: RunProgress)
    /// A variant's store for one size was filled (or copied from an existing store).
    func runDidFill(_ fill: FillMeasurement) throws
    /// A case was measured.
    func runDidFinish(_ result: CaseResult) throws
    /// A case failed; the run goes on with the others unless ``RunOptions/stopsAtFirstFailure``.
    func runDidFail(_ key: CaseKey, _ failure: CaseFailure) throws
    /// The run measures more repetitions of these cases, to decide the time assertions the
    /// run's own could not (round `round` of the sequential rule).
    func runWillMeasureAgain(_ cases: [CaseKey], round: Int, reason: String)
}

extension RunObserver {
    public func runWillStart(_ plan: RunPlan) throws {}
    public func runDidProgress(_ progress: RunProgress) {}
    public func runDidFill(_ fill: FillMeasurement) throws {}
    public func runDidFinish(_ result: CaseResult) throws {}
    public func runDidFail(_ key: CaseKey, _ failure: CaseFailure) throws {}
    public func runWillMeasureAgain(_ cases: [CaseKey], round: Int, reason: String) {}
}

/// What a run is about to do, once its scenario and options are checked.
public struct RunPlan: Sendable {
    /// The scenario's name.
    public var scenarioName: String
    /// Every case the run measures, in the order it measures them (grouped by size and workload).
    public var cases: [CaseKey]
    /// The sizes it runs, in the order it runs them.
    public var sizes: [Int]
    /// The variants it runs, in the scenario's order.
    public var variants: [String]
    /// The workloads it runs, in the scenario's order.
    public var workloads: [String]
    /// Workloads left out because they write and the run reads an existing store.
    public var skippedWorkloads: [String]
    /// The options as the run uses them: the names checked, and on an existing store its
    /// size and the workloads that read.
    public var options: RunOptions
    /// What the scenario asks for that does nothing (unused predicate arguments, `batchSize`
    /// on a dictionary fetch), one line each with its file and JSON path.
    public var warnings: [String] = []

    package init(
        scenarioName: String, cases: [CaseKey], sizes: [Int], variants: [String], workloads: [String], skippedWorkloads: [String],
        options: RunOptions, warnings: [String] = []
    ) {
        self.warnings = warnings
        self.scenarioName = scenarioName
        self.cases = cases
        self.sizes = sizes
        self.variants = variants
        self.workloads = workloads
        self.skippedWorkloads = skippedWorkloads
        self.options = options
    }
}

/// How far a run is: cases finished, repetitions measured against those planned (a case's
/// time budget can end it sooner), and what runs now.
public struct RunProgress: Sendable {
    /// The cases the run measures.
    public var cases: Int
    /// The cases measured or failed so far.
    public var casesDone = 0
    /// The measured repetitions planned, over all the cases (warm-ups not counted).
    public var plannedRepetitions: Int
    /// The measured repetitions done so far.
    public var repetitionsDone = 0
    /// What runs now, in words: "V1 fetch-sorted n=1000: repetition 3".
    public var now = ""

    /// The progress of a run that has begun nothing yet.
    public init(cases: Int, plannedRepetitions: Int) {
        self.cases = cases
        self.plannedRepetitions = plannedRepetitions
    }

    /// The share of the planned repetitions measured, 0...1.
    public var fraction: Double { plannedRepetitions > 0 ? min(1, Double(repetitionsDone) / Double(plannedRepetitions)) : 0 }
}
