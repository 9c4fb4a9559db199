/// A new run as `schemalab run SCENARIO --out DIR ...` asks for it: the scenario, where its
/// results go, and what it overrides or selects.
public struct RunRequest: Sendable {
    /// The scenario file.
    public var scenario: String
    /// The run directory to write; it must not exist unless ``replace``.
    public var out: String
    /// Replace an existing run directory (the old one is kept as `<out>.previous`).
    public var replace = false
    /// Data set sizes instead of the scenario's counts (empty: the scenario's).
    public var sizes: [Int] = []
    /// Measured repetitions and warm-up runs instead of the scenario's.
    public var repetitions: Int?
    public var warmup: Int?
    /// Only these variants and workloads (nil: all); names the scenario lacks are bad input.
    public var variants: [String]?
    public var workloads: [String]?
    /// Run the fetch workloads on copies of this existing Core Data store.
    public var store: String?
    /// Measure each case from start to end instead of interleaving a workload's variants.
    public var sequential = false
    /// Only this shard of the cases (`index` in 1...count).
    public var shard: (index: Int, count: Int)?
    /// Also count each case's instructions under callgrind.
    public var instructions = false
    /// Test aid for the regression gate: "VARIANT/WORKLOAD" to a slowdown factor.
    public var slowdowns: [String: Double] = [:]

    public init(scenario: String, out: String) {
        self.scenario = scenario
        self.out = out
    }
}
