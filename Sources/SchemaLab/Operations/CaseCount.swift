import SchemaLabEngine

/// `schemalab count-case`: one case's timed region run once, for `run --instructions` to
/// count under callgrind (``InstructionCounter``). Not meant to be run by hand.
public struct CaseCount {
    public var scenario: String
    public var variant: String
    public var workload: String
    public var size: Int
    /// The filled store of the variant and size (for workloads that read or change it).
    public var store: String?
    /// A directory for the case's own stores.
    public var workDirectory: String
    /// Warm-up runs before the counted one.
    public var warmup = 1
    /// The injected slowdown (`run --inject-slowdown`).
    public var slowdown = 1.0

    public init(scenario: String, variant: String, workload: String, size: Int, workDirectory: String) {
        self.scenario = scenario
        self.variant = variant
        self.workload = workload
        self.size = size
        self.workDirectory = workDirectory
    }

    /// Runs the case: warm-ups, then the one timed region callgrind counts.
    public func run() throws(OperationError) {
        let plan = try RunJob.loadPlan(scenario)
        do {
            var counted = CountedCase(
                plan: plan, variant: variant, workload: workload, size: size, filledStore: store,
                workDirectory: workDirectory, warmup: warmup)
            counted.slowdown = slowdown
            try counted.run()
        } catch {
            throw OperationError.from(error)
        }
    }
}
