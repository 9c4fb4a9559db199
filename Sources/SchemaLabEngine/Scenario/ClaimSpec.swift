/// A claim a source document makes, stated in a scenario (`"claims"`) with the way to check
/// it: two cases, a metric, and the effect the source expects of `case` against `against`.
///
/// The lab measures the ratio `metric(case) / metric(against)` and gives the claim a verdict
/// (`ClaimVerdict` in the SchemaLab library).
public struct ClaimSpec: Sendable, Equatable {
    /// Where the claim is made.
    public struct Source: Sendable, Equatable {
        /// The document ("WWDC 2018 Core Data Best Practices").
        public var document: String
        /// The year it was published or given.
        public var year: Int
        /// `where`: where in it (a section, a slide, a table row).
        public var location: String

        /// A source: the document, its year, and where in it.
        public init(document: String, year: Int, location: String) {
            self.document = document
            self.year = year
            self.location = location
        }
    }

    /// One side of the comparison: a workload in a variant.
    public struct Side: Sendable, Equatable, CustomStringConvertible {
        /// `variant`: the case's variant (the format's default: the scenario's reference
        /// variant for `case`, the case's for `against`).
        public var variant: String
        /// `workload`: the case's workload (the format's default for `against`: the case's).
        public var workload: String
        /// `<variant> <workload>`, as messages name the side.
        public var description: String { "\(variant) \(workload)" }

        /// The case of `workload` in `variant`.
        public init(variant: String, workload: String) {
            self.variant = variant
            self.workload = workload
        }
    }

    /// Which way the source says the metric moves, from `against` to `case`.
    public enum Direction: String, Sendable, Equatable, CaseIterable {
        /// The case's metric is below the other's (faster, smaller, fewer).
        case lower
        /// The case's metric is above the other's.
        case higher
    }

    /// The effect the source states.
    public struct Expectation: Sendable, Equatable {
        /// Which way the metric moves.
        public var direction: Direction
        /// The ratio `case / against` the source's figure gives (low and high are equal for one
        /// figure), or nil when it states a direction only.
        public var ratio: ClosedRange<Double>?
        /// The source's figure in its own words ("about 25% faster", "0.500 s -> 0.168 s").
        public var figure: String?
        /// How far the measured magnitude may be from the source's and still "hold": a factor
        /// on the logarithm of the ratio (2, the default: a 5x claim holds from about 2.2x to 25x).
        public var tolerance: Double

        /// An expectation; with a `ratio`, `direction` must be the one it implies (below 1: lower).
        public init(direction: Direction, ratio: ClosedRange<Double>? = nil, figure: String? = nil, tolerance: Double = 2) {
            self.direction = direction
            self.ratio = ratio
            self.figure = figure
            self.tolerance = tolerance
        }
    }

    /// A short name, unique in the scenario (an anchor in the report).
    public var id: String
    /// Where the claim is made.
    public var source: Source
    /// The claim in one sentence.
    public var statement: String
    /// The case the claim is about (`"case"` in the file).
    public var subject: Side
    /// The case it is compared with (`"against"`).
    public var against: Side
    /// What is compared.
    public var metric: ClaimMetric
    /// The effect the source states.
    public var expectation: Expectation
    /// The size the source states the claim at ("at 50,000 posts"): the headline verdict is
    /// taken at the run's size nearest it (on a log scale); nil: at the run's largest size.
    public var size: Int?
    /// `description`: free text.
    public var description: String?
    /// The JSON path, for messages.
    public var path: String

    /// A claim: `statement` (`"claim"` in the file) about `subject` (`"case"`) against
    /// `against`, measured by `metric`.
    public init(
        id: String, source: Source, statement: String, subject: Side, against: Side, metric: ClaimMetric, expectation: Expectation,
        size: Int? = nil, description: String? = nil, path: String = ""
    ) {
        self.id = id
        self.source = source
        self.statement = statement
        self.subject = subject
        self.against = against
        self.metric = metric
        self.expectation = expectation
        self.size = size
        self.description = description
        self.path = path
    }
}

/// What a claim measures, and where the lab records it.
public enum ClaimMetric: String, Sendable, Equatable, CaseIterable {
    /// The median wall time of the repetitions (samples.csv).
    case medianTime
    /// The 90th percentile of the repetitions' wall times.
    case p90Time
    /// The median CPU time of the repetitions.
    case cpuTime
    /// The 99th percentile of every read's latency (a reader under a writer, a box set).
    case readP99
    /// Statements executed (deterministic).
    case statements
    /// Rows visited by full table scans (`fullscan_steps`, deterministic).
    case rowsScanned
    /// SQLite's virtual machine steps (deterministic).
    case vmSteps
    /// Sorts SQLite ran (deterministic).
    case sorts
    /// The heap the result still holds when the workload returns (median of repetitions).
    case heapRetained
    /// The resident memory a repetition adds (`rss_growth_kb`: one figure per case).
    case memoryGrowth
    /// The store file's size after the data set was filled (fills.csv; the variant's).
    case storeBytes
    /// The longest write transaction (median over repetitions).
    case longestWrite
    /// Instructions of one run of the timed region (a run with `--instructions`).
    case instructions

    /// The words a table uses for it.
    public var label: String {
        switch self {
        case .medianTime: return "median time"
        case .p90Time: return "p90 time"
        case .cpuTime: return "CPU time"
        case .readP99: return "p99 read latency"
        case .statements: return "statements"
        case .rowsScanned: return "rows scanned"
        case .vmSteps: return "VM steps"
        case .sorts: return "sorts"
        case .heapRetained: return "heap retained"
        case .memoryGrowth: return "memory growth"
        case .storeBytes: return "store size"
        case .longestWrite: return "longest write"
        case .instructions: return "instructions"
        }
    }

    /// True for a count that repeats exactly from run to run: its ratio has no interval.
    public var isDeterministic: Bool {
        switch self {
        case .statements, .rowsScanned, .vmSteps, .sorts, .storeBytes, .instructions: return true
        default: return false
        }
    }

    /// True for a time: in a run with instruction counts it is judged on instructions.
    public var isTime: Bool { self == .medianTime || self == .p90Time || self == .cpuTime }
    /// A statistic of every repetition's value (its interval is a bootstrap's), rather than a
    /// figure counted once: more repetitions narrow it.
    public var isSampled: Bool { isTime || self == .heapRetained || self == .longestWrite || self == .readP99 }
    /// A statistic of one value per repetition, which more repetitions of the case narrow (a
    /// read percentile comes from every read's latency instead).
    public var repeats: Bool { isSampled && self != .readP99 }
}
