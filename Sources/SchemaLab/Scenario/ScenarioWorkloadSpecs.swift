/// The kinds of workload the lab runs.
public enum WorkloadKind: String, CaseIterable, Sendable {
    /// Insert every object of the data set into a context, then save it.
    case insert
    /// One fetch request; touch some of the results.
    case fetch
    /// A fetched-results controller: fetch plus sections by a key path.
    case fetchedResults
}

/// A sort descriptor: a key path (logical field or dotted path) and a direction.
public struct SortSpec: Sendable, Equatable {
    public var keyPath: String
    public var ascending: Bool
}

/// How much of a fetch result a workload reads after the fetch.
public enum TouchSpec: Sendable, Equatable {
    /// Read no object.
    case none
    /// Read the first n objects (or all when there are fewer).
    case first(Int)
    /// Read every object.
    case all
}

/// A workload as the scenario declares it.
public struct WorkloadSpec: Sendable {
    public var name: String
    public var kind: WorkloadKind
    /// The fetched entity (defaults to the data set's root entity).
    public var entity: String?
    public var sort: [SortSpec]
    public var sectionKey: String?
    /// fetchBatchSize; 0 means no batching.
    public var batchSize: Int
    public var touch: TouchSpec
    /// Key paths read on every touched object (default: the entity's own attributes).
    public var touchKeys: [String]?
    /// relationshipKeyPathsForPrefetching.
    public var prefetch: [String]
    public var path: String
}

/// Warm-up and repetitions for every case.
public struct MeasurementSpec: Sendable {
    /// Untimed runs before the samples.
    public var warmup: Int = 1
    /// Measured repetitions at most.
    public var repetitions: Int = 7
    /// Stop taking samples after this many seconds of a case (at least one sample is kept).
    public var maxSeconds: Double = 30
}

/// A PRAGMA the scenario sets on every connection (allow-listed names and values).
public struct PragmaSpec: Sendable, Equatable {
    public var name: String
    public var value: String
}
