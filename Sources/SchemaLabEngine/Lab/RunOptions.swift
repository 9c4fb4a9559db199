/// What a run overrides or selects from its scenario, and how it measures. Every value has
/// a default: `RunOptions()` runs every case of the scenario as it states them.
public struct RunOptions: Sendable {
    /// A deterministic share of a run's groups of cases, for jobs in parallel: shard
    /// `index` of `count` (1-based).
    public struct Shard: Sendable, Equatable, Codable {
        /// Which shard, from 1.
        public var index: Int
        /// How many shards the run's groups are dealt into.
        public var count: Int

        /// Shard `index` of `count`; nil unless 1 <= index <= count.
        public init?(index: Int, count: Int) {
            guard count >= 1, (1...count).contains(index) else { return nil }
            self.index = index
            self.count = count
        }
    }

    /// Data set sizes to run instead of the scenario's `counts`.
    public var sizes: [Int]?
    /// Measured repetitions instead of the scenario's.
    public var repetitions: Int?
    /// Warm-up runs instead of the scenario's.
    public var warmup: Int?
    /// Only these variants (nil: all); a name the scenario lacks is bad input.
    public var variants: [String]?
    /// Only these workloads (nil: all); a name the scenario lacks is bad input.
    public var workloads: [String]?
    /// Measure each case from start to end instead of interleaving the repetitions of a
    /// workload's variants.
    public var sequential = false
    /// Seeds the interleaved order of repetitions.
    public var orderSeed: UInt64 = 1
    /// Only the groups of cases of this shard.
    public var shard: Shard?
    /// Also count each case's instructions with this counter (``CallgrindCounter``); nil: no counts.
    public var instructionCounter: (any InstructionCounting)?
    /// An existing Core Data store: each variant's store is a copy of it with the variant's
    /// indexes instead of a store filled with generated data; only the workloads that read
    /// run, at the store's number of rows of the data set's entity.
    public var existingStore: String?
    /// Measure a sample of the data set first and refuse a run that would not fit on disk
    /// or in memory.
    public var checksFit = true
    /// Stop at the first case that fails instead of going on with the others.
    public var stopsAtFirstFailure = false
    /// Where the temporary stores go; nil: a directory of the run's own in `$TMPDIR`,
    /// removed when the run ends.
    public var workDirectory: String?
    /// Run SQLite's `ANALYZE` on each store once it is filled, so that the planner chooses
    /// with the table statistics (`sqlite_stat1`), as a store opened with Core Data's
    /// `NSSQLiteAnalyzeOption` has them. Off by default: a store Core Data creates has none.
    public var analyzesStores = false
    /// Seconds a run may spend, after its cases, measuring again the two cases of each claim
    /// whose interval reaches across a verdict boundary (more repetitions, pooled with the
    /// run's, so that its verdict rests on the evidence rather than on which side of a
    /// boundary one interval fell); 0: none. The time is an estimate made before each
    /// round from the cases' own times and fills: a claim that would not fit is left undecided.
    public var settlesClaimsWithin: Double = 0
    /// Rows generated and saved per chunk when a store is filled (`DataStream`).
    public var fillChunkSize = DataStream.defaultChunkSize
    /// Test aid for the regression gate: "variant/workload" to a slowdown factor injected
    /// into that case's timed region (2: the work done twice on the same store).
    package var slowdowns: [String: Double] = [:]

    /// Options that override what they are given and keep every other default.
    public init(
        sizes: [Int]? = nil, repetitions: Int? = nil, warmup: Int? = nil, variants: [String]? = nil, workloads: [String]? = nil
    ) {
        self.sizes = sizes
        self.repetitions = repetitions
        self.warmup = warmup
        self.variants = variants
        self.workloads = workloads
    }

    /// True when each case's instructions are counted.
    public var countsInstructions: Bool { instructionCounter != nil }
}
