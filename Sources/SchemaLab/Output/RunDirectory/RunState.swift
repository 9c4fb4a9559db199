import Foundation
import SchemaLabEngine

/// run.json: what a run directory holds and how far its run got. Rewritten (atomically)
/// after every case, so that it always names exactly the cases whose rows are complete
/// in the CSV files.
package struct RunState: Codable, Sendable {
    /// Where a run stands.
    package enum Phase: String, Codable, Sendable {
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
    package struct Failure: Codable, Sendable {
        package var variant: String
        package var workload: String
        package var size: Int
        package var error: String
        package var sql: String?
        package var key: CaseKey { CaseKey(variant: variant, workload: workload, size: size) }
    }

    /// The run's settings: a resumed run uses these, not new ones.
    package struct Settings: Codable, Sendable, Equatable {
        package var sizes: [Int]?
        package var repetitions: Int?
        package var warmup: Int?
        package var variants: [String]?
        package var workloads: [String]?
        /// One case after another instead of interleaved.
        package var sequential: Bool? = nil
        /// `--shard i/n`: this run's share of the groups of cases.
        package var shardIndex: Int? = nil
        package var shardCount: Int? = nil
        /// `--instructions`: each case also counted under callgrind.
        package var instructions: Bool? = nil
        /// `--store`: the existing store the read workloads ran on (absolute path).
        package var store: String? = nil
    }

    package static let currentFormat = 2
    package var format = RunState.currentFormat
    package var state: Phase
    /// The process that runs (or ran) it.
    package var pid: Int32
    /// The scenario's name.
    package var scenarioName: String
    /// The scenario file as given, its absolute path, and its SHA-256.
    package var scenarioFile: String
    package var scenarioPath: String
    package var scenarioSHA256: String
    package var settings: Settings
    /// Every case of the run, in the order they run.
    package var cases: [CaseKey]
    /// The cases whose rows are in the CSV files.
    package var done: [CaseKey]
    package var failed: [Failure]
    /// Why the run stopped, when it stopped early.
    package var stopReason: String?
    package var startedAt: String
    package var updatedAt: String
    /// How many times `--resume` has continued the run.
    package var resumes = 0

    package init(
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
    package var settings: RunState.Settings {
        RunState.Settings(
            sizes: sizes, repetitions: repetitions, warmup: warmup, variants: variants, workloads: workloads,
            sequential: sequential ? true : nil, shardIndex: shard?.index, shardCount: shard?.count,
            instructions: countsInstructions ? true : nil, store: existingStore)
    }

    /// Options for a resumed run: the recorded settings; `instructionCounter` counts the
    /// instructions when the settings say the run counted them.
    package init(settings: RunState.Settings, instructionCounter: (any InstructionCounting)?) {
        self.init(
            sizes: settings.sizes, repetitions: settings.repetitions, warmup: settings.warmup, variants: settings.variants,
            workloads: settings.workloads)
        sequential = settings.sequential ?? false
        if let i = settings.shardIndex, let n = settings.shardCount { shard = Shard(index: i, count: n) }
        if settings.instructions ?? false { self.instructionCounter = instructionCounter }
        existingStore = settings.store
    }
}
