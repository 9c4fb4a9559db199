/// What one timed repetition of a workload produced.
public struct WorkloadOutcome {
    /// Objects inserted, fetched (the result count) or sections' objects.
    public var rows: Int
    /// Non-null values the touch step read (keeps the reads observable).
    public var valuesRead: Int
    /// Computed after the clock stops: the result's signature (ordered primary keys and
    /// sections, or values), equal across variants when they return the same logical result.
    public var digest: () throws -> ResultSignature
    /// What the result keeps alive until the repetition's memory is read (the context and
    /// its objects), as an app holding the fetched results would.
    public var keepAlive: AnyObject? = nil

    public init(rows: Int, valuesRead: Int, keepAlive: AnyObject? = nil, digest: @escaping () throws -> ResultSignature) {
        self.rows = rows
        self.valuesRead = valuesRead
        self.keepAlive = keepAlive
        self.digest = digest
    }
}

/// What store a repetition runs on.
public enum StoreKind: Sendable {
    /// A new empty store for every repetition (inserting the data set).
    case empty
    /// The store filled once with the data set, shared by every repetition (reads).
    case filled
    /// A fresh copy of the filled store for every repetition (writes into existing data).
    case filledCopy

    /// True when a repetition changes its store, so the next one needs a new one.
    public var isFreshPerRepetition: Bool { self != .filled }
}

/// A workload bound to one variant: everything resolved, ready to run.
public protocol Workload: AnyObject {
    var spec: WorkloadSpec { get }
    /// The store each repetition starts from.
    var storeKind: StoreKind { get }
    /// The timed part of one repetition, on a fresh context over `store`.
    func run(store: Store) throws -> WorkloadOutcome
    /// For the raw result types (object IDs, count, dictionaries): the statements one
    /// repetition runs, which the case also steps with the bare C API as the SQLite floor.
    /// Empty for workloads that build objects.
    var floorStatements: [(sql: String, bindings: [SQLValue])] { get }
}

extension Workload {
    public var floorStatements: [(sql: String, bindings: [SQLValue])] { [] }
}

/// Builds the ``Workload`` for a spec in one variant.
public enum WorkloadFactory {
    public static func make(_ spec: WorkloadSpec, model: ManagedObjectModel, dataset: DatasetSpec,
                            data: GeneratedData, placement: DataPlacement) throws(KeyPathError) -> any Workload {
        switch spec.kind {
        case .insert:
            return InsertWorkload(spec: spec, model: model, data: data, placement: placement)
        case .append:
            return AppendWorkload(spec: spec, model: model, dataset: dataset, size: data.count, placement: placement)
        case .fetch, .fetchedResults:
            return try FetchWorkload(spec: spec, model: model, rootEntity: dataset.entity)
        }
    }
}
