import SchemaLabSQLite
import SchemaLabCoreData

/// Where a batch insert's records come from (NSBatchInsertRequest's two forms).
public enum InsertSourceSpec: String, Sendable, CaseIterable {
    /// An array of dictionaries, built before the clock starts (`objects:`).
    case dictionaries
    /// A handler that fills one dictionary per call (`dictionaryHandler:`): no array.
    case handler
}

/// How an update-or-insert finds the existing objects.
public enum UpsertStrategySpec: String, Sendable, CaseIterable {
    /// One fetch per incoming record (`WHERE key = ?`).
    case fetchEach
    /// Sort the records by key, one `key IN (...)` fetch sorted by key per `mergeBatch`
    /// records, walk both lists.
    case sortedMerge
}

/// A re-ingest feed: `size` × the data set's size records (at least one), a fraction
/// `existing` of which carry the key of a stored row with every other field changed; the
/// rest are new rows (the data set's next).
public struct FeedSpec: Sendable, Equatable {
    public var size: Double
    public var existing: Double
    /// Seeds the changed values and the order of the records.
    public var seed: UInt64
    public var path: String
}

/// The journal mode a reader-under-writer workload runs in.
public enum JournalModeSpec: String, Sendable, CaseIterable {
    case wal, delete
}

/// What a reorder workload does to each list (one save for all of them).
public enum ReorderOperation: String, Sendable, CaseIterable {
    /// Read each list in order, firing every member.
    case read
    /// Insert a new member at the front, in the middle, at the end.
    case insertFront, insertMiddle, append
    /// Move the last member to the front.
    case move
    /// Delete the middle member.
    case remove
}

/// A sort descriptor: a key path (logical field or dotted path) and a direction.
public struct SortSpec: Sendable, Equatable {
    public var keyPath: String
    public var ascending: Bool
    /// The sort descriptor's string comparison (`localized`: SwiftData's `.localized`,
    /// `localizedCompare:`), nil for a plain `compare:`.
    public var comparator: SortComparator? = nil
}

/// How much of a fetch result a workload reads after the fetch, and how.
public enum TouchSpec: Sendable, Equatable {
    /// Read no object.
    case none
    /// Read the first n objects one by one (a first screen), or all when there are fewer.
    case first(Int)
    /// Read every object one by one, in order (`"all"`, or `"scroll"`: a table view
    /// scrolling through the controller with `objectAtIndexPath:`).
    case all
    /// Take the whole result array at once, then read every object (the 2014 article's
    /// trap: with a batch size, every batch is loaded before the first object is read).
    case array
}

/// What a fetch returns (NSFetchRequestResultType).
public enum ResultTypeSpec: String, Sendable, CaseIterable {
    case objects, objectIDs, dictionaries, count
}

/// One entry of `propertiesToFetch`: a key path, or an expression description
/// (`{"name": "maxMag", "function": "max", "key": "magnitude"}`).
public enum PropertySpec: Sendable, Equatable {
    case keyPath(String)
    case expression(name: String, function: AggregateFunction, keyPath: String)

    /// The dictionary key of the value.
    public var name: String {
        switch self {
        case .keyPath(let k): return k
        case .expression(let n, _, _): return n
        }
    }
}

/// A predicate as the scenario writes it: NSPredicate format text and its `%@` arguments.
public struct PredicateSpec: Sendable {
    public var text: String
    public var arguments: [PredicateValue]
    /// The JSON path of the predicate string (errors add the column inside it).
    public var path: String
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
    /// relationshipKeyPathsForPrefetching (to-one and to-many paths).
    public var prefetch: [String]
    /// The fetch request's predicate, if any.
    public var predicate: PredicateSpec?
    public var resultType: ResultTypeSpec = .objects
    /// propertiesToFetch (dictionaries): key paths and aggregate expressions.
    public var propertiesToFetch: [PropertySpec] = []
    /// propertiesToGroupBy (dictionaries).
    public var groupBy: [String] = []
    /// havingPredicate (dictionaries with groupBy): may name the expressions of propertiesToFetch.
    public var having: PredicateSpec?
    /// returnsDistinctResults (dictionaries).
    public var distinct = false
    /// fetchLimit / fetchOffset (0: none).
    public var fetchLimit = 0
    public var fetchOffset = 0
    /// includesPropertyValues: false fetches IDs only and returns the objects as faults.
    public var includesPropertyValues = true
    /// returnsObjectsAsFaults: the fetched rows are kept as snapshots and the objects
    /// stay faults until read (Core Data's default); false materializes every object.
    public var returnsObjectsAsFaults = true
    /// How batch windows and prefetches bind their keys: `integerArray` (Core Data's
    /// `IN (SELECT * FROM _Z_intarray0)`) or `parameters` (`IN (?,…)`).
    public var keyBinding: KeyBinding = .integerArray
    /// Paging: fetch successive pages of this many objects with fetchLimit/fetchOffset (0: off).
    public var pageSize = 0
    /// After an object fetch, compute these aggregates in Swift over the fetched objects.
    public var reduce: [PropertySpec] = []
    /// The workload whose result this one must equal (same variant and size).
    public var agreesWith: String?
    /// Only these variants run the workload (nil: every variant): for a strategy that only
    /// one schema can express, such as reading a denormalized counter entity.
    public var variants: [String]?
    /// append and readerUnderWriter: how many objects, and how many per save (insert and
    /// updateOrInsert: objects per save, 0 saves once; insert resets the context between saves).
    public var count = 0
    public var saveEvery = 0
    /// batchInsert: the records' source and the conflict policy.
    public var source: InsertSourceSpec = .dictionaries
    public var mergePolicy: MergePolicy = .error
    /// batchInsert and updateOrInsert: a re-ingest feed into a copy of the filled store
    /// (batchInsert without one inserts the data set into an empty store).
    public var feed: FeedSpec?
    /// updateOrInsert: the attributes identifying a record, the strategy and its batch.
    public var key: [String] = []
    public var strategy: UpsertStrategySpec = .fetchEach
    public var mergeBatch = 500
    /// batchUpdate and update: the attributes set and their values, in order.
    public var set: [(attribute: String, value: PredicateValue)] = []
    /// update: words replaced inside a separated list (`{"replaceWord": "tag-7", "with": "x"}`).
    public var replacements: [WordReplacement] = []
    /// batchUpdate and update: the result is the root objects this predicate selects after
    /// the change (their primary keys), instead of the root's rows: so two schemas that keep
    /// the changed value in different entities can be compared.
    public var verify: PredicateSpec?
    /// readerUnderWriter: reads to take (at most; they stop when the writer is done and at
    /// least one read was taken after it started) and the journal mode.
    public var reads = 0
    public var journalMode: JournalModeSpec = .wal
    /// This workload's warm-up, repetitions and time limit, when they differ from the
    /// scenario's (a slow strategy measured fewer times).
    public var measurement: MeasurementSpec?
    /// fetch: run the request once per bounding box, each box's bounds appended to
    /// `arguments`, and time every query (a map panned and zoomed).
    public var boxes: BoxSetSpec?
    /// reorder: the to-many relationship of `entity` whose lists are edited or read.
    public var relationship: String?
    /// reorder: what happens to each list.
    public var operation: ReorderOperation = .read
    /// reorder: in a variant where the relationship is not ordered, the destination's integer
    /// attribute that holds each member's position (0, 1, 2, … in each list).
    public var positionKey: String?
    public var path: String
}

/// One word of a separated list replaced by another (`"a,b,c"` with b → x is `"a,x,c"`).
public struct WordReplacement: Sendable, Equatable {
    public var attribute: String
    public var word: String
    public var with: String
    public var separator: String

    /// `value` with every element equal to `word` replaced; other values unchanged.
    public func apply(_ value: SQLValue) -> SQLValue {
        guard case .text(let s) = value else { return value }
        let parts = s.components(separatedBy: separator)
        guard parts.contains(word) else { return value }
        return .text(parts.map { $0 == word ? with : $0 }.joined(separator: separator))
    }
}

/// Bounding boxes over two numeric data set fields (latitude and longitude), generated from
/// a seed and the data: each box is a square centred on a stored row, sized so that a
/// fraction of the rows falls inside it, the fractions spread log-uniformly over
/// `minSelectivity...maxSelectivity`.
public struct BoxSetSpec: Sendable, Equatable {
    public var count: Int
    public var seed: UInt64
    /// The two fields (logical names) a box bounds, in the order their bounds are bound:
    /// lower and upper of the first, then of the second.
    public var keys: [String]
    public var minSelectivity: Double
    public var maxSelectivity: Double
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
    /// A repetition whose statements run longer than this is interrupted and fails the case
    /// (nil: ``statementTimeout``'s default).
    public var timeout: Double?

    /// The seconds after which a repetition's statements are interrupted: `timeout`, or 10
    /// times `maxSeconds` and at least 60.
    public var statementTimeout: Double { timeout ?? max(60, 10 * maxSeconds) }
}
