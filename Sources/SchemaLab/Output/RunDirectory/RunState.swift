import Foundation
import SchemaLabEngine

/// run.json: what a run directory holds and how far its run got. Rewritten (atomically)
/// after every case, so that it always names exactly the cases whose rows are complete
/// in the CSV files.
public struct RunState: Codable, Sendable {
    /// Where a run stands.
    public enum Phase: String, Codable, Sendable {
        /// A process is running it (or was, if it was killed: its lock is then free).
        case running
        /// Stopped by SIGINT or SIGTERM; `--resume` finishes it.
        case interrupted
        /// Stopped by an error (a full disk, `--fail-fast` after a failed case); `--resume` finishes it.
        case failed
        /// Every case ran (some may have failed: `failed` lists them).
        case complete
    }

    /// A case that failed, with SQLite's (or the system's) message and the SQL when there was one.
    public struct Failure: Codable, Sendable {
        public var variant: String
        public var workload: String
        public var size: Int
        public var error: String
        public var sql: String?
        public var key: CaseKey { CaseKey(variant: variant, workload: workload, size: size) }
    }

    /// The run's settings: a resumed run uses these, not new ones.
    public struct Settings: Codable, Sendable, Equatable {
        public var sizes: [Int]?
        public var repetitions: Int?
        public var warmup: Int?
        public var variants: [String]?
        public var workloads: [String]?
        /// One case after another instead of interleaved.
        public var sequential: Bool? = nil
        /// `--shard i/n`: this run's share of the groups of cases.
        public var shardIndex: Int? = nil
        public var shardCount: Int? = nil
        /// `--instructions`: each case also counted under callgrind.
        public var instructions: Bool? = nil
        /// `--store`: the existing store the read workloads ran on (absolute path).
        public var store: String? = nil
    }

    public static let currentFormat = 2
    public var format = RunState.currentFormat
    public var state: Phase
    /// The process that runs (or ran) it.
    public var pid: Int32
    /// The scenario's name.
    public var scenarioName: String
    /// The scenario file as given, its absolute path, and its SHA-256.
    public var scenarioFile: String
    public var scenarioPath: String
    public var scenarioSHA256: String
    public var settings: Settings
    /// Every case of the run, in the order they run.
    public var cases: [CaseKey]
    /// The cases whose rows are in the CSV files.
    public var done: [CaseKey]
    public var failed: [Failure]
    /// Why the run stopped, when it stopped early.
    public var stopReason: String?
    public var startedAt: String
    public var updatedAt: String
    /// How many times `--resume` has continued the run.
    public var resumes = 0

    public init(
        state: Phase, scenarioName: String, scenarioFile: String, scenarioPath: String, scenarioSHA256: String, settings: Settings,
        cases: [CaseKey]
    ) {
        self.state = state
        self.pid = ProcessInfo.processInfo.processIdentifier
        self.scenarioName = scenarioName
        self.scenarioFile = scenarioFile
        self.scenarioPath = scenarioPath
        self.scenarioSHA256 = scenarioSHA256
        self.settings = settings
        self.cases = cases
        self.done = []
        self.failed = []
        self.startedAt = RunState.now()
        self.updatedAt = startedAt
    }

    static func now() -> String { ISO8601DateFormatter().string(from: Date()) }
}

extension RunOptions {
    /// The settings run.json records.
    public var settings: RunState.Settings {
        RunState.Settings(
            sizes: sizes, repetitions: repetitions, warmup: warmup, variants: variants, workloads: workloads,
            sequential: sequential ? true : nil, shardIndex: shard?.index, shardCount: shard?.count,
            instructions: countsInstructions ? true : nil, store: existingStore)
    }

    /// Options for a resumed run: the recorded settings; `instructionCounter` counts the
    /// instructions when the settings say the run counted them.
    public init(settings: RunState.Settings, instructionCounter: (any InstructionCounting)?) {
        self.init(
            sizes: settings.sizes, repetitions: settings.repetitions, warmup: settings.warmup, variants: settings.variants,
            workloads: settings.workloads)
        sequential = settings.sequential ?? false
        if let i = settings.shardIndex, let n = settings.shardCount { shard = Shard(index: i, count: n) }
        if settings.instructions ?? false { self.instructionCounter = instructionCounter }
        existingStore = settings.store
    }
}
