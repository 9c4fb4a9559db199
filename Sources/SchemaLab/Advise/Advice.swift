import SchemaLabEngine

/// What ``Advisor/advise(_:options:observer:)`` found: the indexes to add and to remove, each
/// with its measured read gain and write cost, the whole set measured against the starting
/// variant, and the scenario with the set as its `advised` variant.
public struct Advice: Sendable {
    /// The scenario advised.
    public var scenario: String
    /// The starting variant.
    public var variant: String
    /// The advised variant's name in ``advisedScenario`` (`advised`).
    public var advisedVariant: String
    /// What the search chose on.
    public var basis: AdviceBasis
    /// The size the search measured at, and the second size the set was checked at.
    public var size: Int
    public var secondSize: Int?
    /// True when the search measured with `ANALYZE` statistics.
    public var analyze: Bool
    /// The indexes to add, in the order the search kept them.
    public var additions: [IndexProposal]
    /// The starting variant's indexes to remove.
    public var removals: [IndexProposal]
    /// Fetches whose touched objects fault through a relationship they do not prefetch, each
    /// measured again with the prefetch (``PrefetchProposal/proposed`` when it gains).
    public var prefetches: [PrefetchProposal]
    /// The starting variant's indexes that no workload's plan uses, before or after.
    public var unusedIndexes: [String]
    /// Every workload advised, with its cost before and after.
    public var workloads: [WorkloadChange]
    /// The search's steps, one line each.
    public var steps: [String]
    /// Candidates measured and not kept, with why.
    public var declined: [String]
    /// The weighted read and write costs on ``basis`` before and after (an insert of the data
    /// set counted per object).
    public var readBefore: Double
    public var readAfter: Double
    public var writeBefore: Double
    public var writeAfter: Double
    /// The weighted read and write medians (ms) before and after, from the timed confirmation.
    public var readMsBefore: Double
    public var readMsAfter: Double
    public var writeMsBefore: Double
    public var writeMsAfter: Double
    /// The store's bytes at ``size`` before and after.
    public var storeBytesBefore: Int64
    public var storeBytesAfter: Int64
    /// Candidates in the pool, trials measured, cases measured, runs of the lab.
    public var candidates: Int
    public var trials: Int
    public var cases: Int
    public var labRuns: Int
    /// Seconds the advice took.
    public var seconds: Double
    /// The scenario with the ``advisedVariant`` added (nil when nothing is advised).
    public var advisedScenario: Scenario?
    /// What the reader should know (a basis chosen for lack of valgrind, writes synthesized).
    public var notes: [String]
}

/// One index the advice adds or removes, with what it buys and costs.
public struct IndexProposal: Sendable {
    /// The entity that declares it.
    public var entity: String
    /// Its name in the model (`byLikesDate`), or the existing index's name for a removal.
    public var name: String
    /// Its elements in order.
    public var elements: [IndexElementSpec]
    /// True for an index of the starting variant to remove.
    public var isRemoval: Bool
    /// Why it was a candidate ("sort of frc-sections", "SQLite's expert on ...").
    public var origins: [String]
    /// The workloads whose plans use it in the advised variant (for a removal: used it before).
    public var serves: [String]
    /// Its own share, measured by leaving it out of the advised set (putting it back, for a
    /// removal): the weighted read gain and write cost on the advice's basis.
    public var readGain: Double
    public var writeCost: Double
    /// The same share measured another way: at the second size, with (or without) `ANALYZE`.
    public var checks: [ProposalCheck]
    /// The store bytes it adds (negative when removed).
    public var storeBytes: Int64
    /// True when its net gain (read gain minus write cost) has another sign in one of ``checks``.
    public var flips: Bool { checks.contains { ($0.readGain - $0.writeCost > 0) != (readGain - writeCost > 0) } }
    /// The `<fetchIndex>` element to paste into the entity in the model's `contents`.
    public var fetchIndexXML: String

    /// `Photo(likes DESC, date DESC)`.
    public var description: String {
        "\(entity)(\(elements.map { $0.key + ($0.descending ? " DESC" : "") }.joined(separator: ", ")))"
    }
}

/// `relationshipKeyPathsForPrefetching` for one fetch, measured in the starting variant.
public struct PrefetchProposal: Sendable {
    /// The fetch.
    public var workload: String
    /// The relationships added to its prefetch.
    public var keyPaths: [String]
    /// Its cost on the advice's basis (one run) without and with them.
    public var before: Double
    public var after: Double
    /// Statements one run executes without and with them.
    public var statementsBefore: Int
    public var statementsAfter: Int
    /// The weighted gain.
    public var gain: Double
    /// True when both return the same objects.
    public var sameResult: Bool
    /// True when it gains more than the threshold and returns the same result.
    public var proposed: Bool
}

/// An index's share measured under other conditions than the search's.
public struct ProposalCheck: Sendable {
    /// What differs: `n = 250`, `with ANALYZE`, `without ANALYZE`.
    public var label: String
    /// The weighted read gain under these conditions, on the advice's basis, and the write cost
    /// measured at the search's size (a save's cost per object does not follow the planner's
    /// statistics; only the reads are measured again).
    public var readGain: Double
    public var writeCost: Double
    /// The workloads whose plans use the index under these conditions.
    public var serves: [String]
}

/// One workload's cost before and after the advice.
public struct WorkloadChange: Sendable {
    /// The workload's name.
    public var workload: String
    /// A read (its gain counts) or a write (its cost counts).
    public var isRead: Bool
    /// Its weight, and what one run of it is divided by (the objects of an insert of the data set).
    public var weight: Double
    public var perRunDivisor: Double
    /// Its cost on the basis, before and after (one run).
    public var before: Double
    public var after: Double
    /// Its timed medians (ms) and their 95% intervals, before and after, and the U test's p.
    public var msBefore: Double
    public var msAfter: Double
    public var intervalBefore: ClosedRange<Double>
    public var intervalAfter: ClosedRange<Double>
    public var pValue: Double
    /// SQLite's counters for one run, before and after.
    public var vmStepsBefore: Int64
    public var vmStepsAfter: Int64
    /// Pages written to the database file in one run, before and after (a write's disk cost).
    public var pagesWrittenBefore: Int64
    public var pagesWrittenAfter: Int64
    /// The saves (or batch requests) one run of a write makes; 0 for a read.
    public var savesPerRun: Int
    /// The plans of its SELECT statements, before and after.
    public var plansBefore: [String]
    public var plansAfter: [String]
    /// Plans that scan a whole table through an index (`SCAN t0 USING INDEX`): read like a scan.
    public var scansThroughIndex: Bool
    /// True when both variants returned the same result.
    public var sameResult: Bool
}
