/// What a run overrides or selects from its scenario.
public struct RunOptions: Sendable {
    /// Data set sizes to run instead of the scenario's `counts`.
    public var sizes: [Int]?
    /// Measured repetitions instead of the scenario's.
    public var repetitions: Int?
    /// Warm-up runs instead of the scenario's.
    public var warmup: Int?
    /// Only these variants / workloads (nil: all).
    public var variants: [String]?
    public var workloads: [String]?
    /// Where temporary store files go.
    public var workDirectory: String
    /// Measure each case from start to end instead of interleaving the variants of a workload.
    public var sequential = false
    /// Seeds the interleaved order of repetitions.
    public var orderSeed: UInt64 = 1
    /// Only the groups of cases of this shard (`index` in 1...count), for CI jobs in parallel.
    public var shard: (index: Int, count: Int)?
    /// Also count each case's instructions under callgrind (`--instructions`).
    public var instructions = false
    /// The schemalab executable that counts a case (`count-case`) under callgrind.
    public var executable: String?
    /// Test aid: "variant/workload" to a slowdown factor injected into that case's timed region.
    public var slowdowns: [String: Double] = [:]
    /// Rows generated and saved per chunk when a store is filled (``DataStream``).
    public var fillChunkSize = DataStream.defaultChunkSize
    /// An existing Core Data store (`--store`): each variant's store is a copy of it with the
    /// variant's indexes (``ExistingStore``) instead of a store filled with generated data.
    public var store: String?

    public init(
        sizes: [Int]? = nil, repetitions: Int? = nil, warmup: Int? = nil, variants: [String]? = nil,
        workloads: [String]? = nil, workDirectory: String
    ) {
        self.sizes = sizes
        self.repetitions = repetitions
        self.warmup = warmup
        self.variants = variants
        self.workloads = workloads
        self.workDirectory = workDirectory
    }
}
