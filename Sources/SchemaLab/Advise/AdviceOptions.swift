import Foundation
import SchemaLabEngine

/// What the advisor compares when it chooses an index.
public enum AdviceBasis: String, Sendable, CaseIterable {
    /// Instructions counted by callgrind in each case's timed region: the same count on every
    /// run of the same binary, so one counted run per case decides. Needs valgrind.
    case instructions
    /// SQLite's virtual-machine steps (`SQLITE_STMTSTATUS_VM_STEP`) summed over the case's
    /// statements: deterministic and counted in the process, without valgrind, but blind to
    /// work outside SQLite's virtual machine (the sorter's comparisons, the objects made).
    case vmSteps = "vm-steps"
    /// The median wall time of ``AdviceOptions/repetitions`` runs per case: what any machine
    /// can measure, noisier.
    case time
}

/// How ``Advisor/advise(_:options:observer:)`` searches.
public struct AdviceOptions: Sendable {
    /// The variant advised (`as-is` for an imported model).
    public var variant: String
    /// The data set size the search measures at (default 1000).
    public var size: Int
    /// A second size the chosen set is measured at (default a quarter of ``size``, at least
    /// 100): an index whose value changes sign between the sizes is marked as such. Nil for none.
    public var secondSize: Int?
    /// The basis the search chooses on.
    public var basis: AdviceBasis
    /// Counts instructions for ``AdviceBasis/instructions``.
    public var instructionCounter: (any InstructionCounting)?
    /// Repetitions of each case when the final set is confirmed by time (and of each trial on
    /// the time basis).
    public var repetitions: Int
    /// Measure with SQLite's table statistics: `ANALYZE` run on each filled store (Core Data's
    /// `NSSQLiteAnalyzeOption`). The chosen set is also checked the other way.
    public var analyze: Bool
    /// Check the chosen set the other side of ``analyze`` too (default true).
    public var checksAnalyze: Bool
    /// The most indexes the advised set adds (nil: no bound).
    public var maxIndexes: Int?
    /// The most the weighted write workloads may cost more than at the start, as a fraction
    /// (0.1 is 10%); nil: no budget besides the rule that an index must gain more than it costs.
    public var maxWriteCost: Double?
    /// The least a step must gain, net of its write cost, as a fraction of the starting
    /// weighted read cost (default 0.01): the search stops when no step gains more.
    public var minGain: Double
    /// The most elements a candidate index has (default 3).
    public var maxElements: Int
    /// Whether the starting variant's indexes are tried for removal (default true).
    public var triesRemovals: Bool
    /// On the instructions basis, screen each step's additions by SQLite VM steps first (in the
    /// process, fast): one whose reads take no fewer steps than at the start is not counted
    /// under valgrind (default true).
    public var screensByVMSteps: Bool
    /// How many cases are measured at once on the counted bases (default: the processor
    /// count); time is always measured one case at a time.
    public var workers: Int
    /// The `sqlite3` tool whose `.expert` adds its suggestions to the pool; nil for none.
    public var sqlite3: String?

    /// The defaults: the `as-is` variant at size 1000, instructions counted by `counter`.
    public init(
        variant: String = "as-is", size: Int = 1000, basis: AdviceBasis = .instructions,
        instructionCounter: (any InstructionCounting)? = nil
    ) {
        self.variant = variant
        self.size = size
        self.secondSize = max(100, size / 4)
        self.basis = basis
        self.instructionCounter = instructionCounter
        self.repetitions = 5
        self.analyze = false
        self.checksAnalyze = true
        self.maxIndexes = nil
        self.maxWriteCost = nil
        self.minGain = 0.01
        self.maxElements = 3
        self.triesRemovals = true
        self.screensByVMSteps = true
        self.workers = ProcessInfo.processInfo.activeProcessorCount
        self.sqlite3 = "sqlite3"
    }
}
