import SchemaLabCoreData

/// A workload as the scenario declares it: `{"name": "fetch-sorted", "kind": "fetch",
/// "sort": ["date"]}`; its `kind` decides which of the other keys it takes.
public struct WorkloadSpec: Sendable, Equatable {
    /// `name`: a label, unique in the scenario.
    public var name: String
    /// `kind`: what it does (a fetch, a fetched-results controller, an insert, ...).
    public var kind: WorkloadKind
    /// `entity`: the fetched (or written) entity; nil: the data set's root entity.
    public var entity: String?
    /// reorder: `relationship`, the to-many relationship of `entity` whose lists are edited or read.
    public var relationship: String?
    /// append: `relate`, to-one relationships of `entity` each new object gets, pointing at an
    /// existing object of the destination (a post by an existing author).
    public var relate: [String]
    /// reorder: `operation`, what happens to each list (default read).
    public var operation: ReorderOperation
    /// reorder: `positionKey`, in a variant where the relationship is not ordered, the
    /// destination's integer attribute that holds each member's position (0, 1, 2, …).
    public var positionKey: String?
    /// sql: `sql`, the one statement the workload runs as it is (a SELECT, INSERT, UPDATE,
    /// DELETE or WITH … SELECT, as an app's SQLDebug log shows it).
    public var sql: String?
    /// sql: `arguments`, the values bound in order to the statement's `?` parameters (a date
    /// as its seconds since 2001-01-01, a boolean as 1 or 0).
    public var sqlArguments: [PredicateValue]
    /// sql: `reason`, why the statement is kept as SQL rather than as a fetch request or a
    /// write the format describes (for reports).
    public var reason: String?
    /// `predicate` and `arguments`: the fetch request's (or a batch request's) predicate.
    public var predicate: PredicateSpec?
    /// batchUpdate and update: `set`, the attributes set and their values, in order.
    public var set: [AttributeAssignment]
    /// update: the words replaced inside separated lists (`set`'s `{"replaceWord": "tag-7", "with": "x"}`).
    public var replacements: [WordReplacement]
    /// batchUpdate and update: `verify`, the result is the root objects this predicate
    /// selects after the change (their primary keys) instead of the root's rows, so two
    /// schemas that keep the changed value in different entities can be compared.
    public var verify: PredicateSpec?
    /// `sort`: the sort descriptors.
    public var sort: [SortSpec]
    /// fetchedResults: `sectionKey`, the controller's sectionNameKeyPath (the first sort key); nil: one section.
    public var sectionKey: String?
    /// `batchSize`: fetchBatchSize; 0 (the default) means no batching.
    public var batchSize: Int
    /// `fetchLimit` (0, the default: none); batchDelete and delete: rows per round.
    public var fetchLimit: Int
    /// `fetchOffset` (0: none).
    public var fetchOffset: Int
    /// `pageSize`: fetch successive pages of this many objects with fetchLimit/fetchOffset (0: off).
    public var pageSize: Int
    /// `resultType` (default objects).
    public var resultType: ResultTypeSpec
    /// `propertiesToFetch`: key paths and aggregate expressions (dictionaries), or the
    /// attributes a partial fetch of objects reads.
    public var propertiesToFetch: [PropertySpec]
    /// `groupBy`: propertiesToGroupBy (dictionaries).
    public var groupBy: [String]
    /// `having` and `havingArguments`: havingPredicate (dictionaries with groupBy), which may
    /// name the expressions of propertiesToFetch.
    public var having: PredicateSpec?
    /// `distinct` (default false): returnsDistinctResults (dictionaries).
    public var distinct: Bool
    /// `includesPropertyValues` (default true); false fetches IDs only and returns the objects as faults.
    public var includesPropertyValues: Bool
    /// `returnsObjectsAsFaults` (default true): the fetched rows are kept as snapshots and the
    /// objects stay faults until read (Core Data's default); false materializes every object.
    public var returnsObjectsAsFaults: Bool
    /// `prefetch`: relationshipKeyPathsForPrefetching (to-one and to-many paths).
    public var prefetch: [String]
    /// `keyBinding`: how batch windows and prefetches bind their keys: `integerArray` (the
    /// default, Core Data's `IN (SELECT * FROM _Z_intarray0)`) or `parameters` (`IN (?,…)`).
    public var keyBinding: KeyBinding
    /// `touch`: how the results are read after the fetch (default: all, in order).
    public var touch: TouchSpec
    /// `touchKeys`: key paths read on every touched object (nil: the entity's own attributes).
    public var touchKeys: [String]?
    /// `reduce`: after an object fetch, these aggregates computed in Swift over the fetched objects.
    public var reduce: [PropertySpec]
    /// fetch: `boxes`, the request run once per bounding box, each box's bounds appended to
    /// the arguments, every query timed (a map panned and zoomed).
    public var boxes: BoxSetSpec?
    /// append, readerUnderWriter and reorder: `count`, how many objects (or lists); 0: none given.
    public var count: Int
    /// `saveEvery`: objects per save (append and readerUnderWriter: default `count`; insert
    /// and updateOrInsert: 0 saves once; insert resets the context between saves).
    public var saveEvery: Int
    /// batchInsert: `source`, where the records come from (default dictionaries).
    public var source: InsertSourceSpec
    /// batchInsert: `mergePolicy`, on a uniqueness conflict (default error: the stored row is kept).
    public var mergePolicy: MergePolicy
    /// batchInsert and updateOrInsert: `feed`, a re-ingest feed into a copy of the filled
    /// store (a batchInsert without one inserts the data set into an empty store).
    public var feed: FeedSpec?
    /// updateOrInsert: `key`, the attributes identifying a record.
    public var key: [String]
    /// updateOrInsert: `strategy` (default fetchEach).
    public var strategy: UpsertStrategySpec
    /// updateOrInsert with sortedMerge: `mergeBatch`, records per fetch (default 500).
    public var mergeBatch: Int
    /// readerUnderWriter: `reads`, reads to take at most (they stop when the writer is done
    /// and at least one read was taken after it started); 0: until the writer is done.
    public var reads: Int
    /// readerUnderWriter: `journalMode` (default wal).
    public var journalMode: JournalModeSpec
    /// Write kinds: `deliver`, the changes delivered to a view context that shows a list.
    public var deliver: DeliverySpec?
    /// fetchHistory and deleteHistory: `history`, the request.
    public var history: HistoryRequestSpec?
    /// `agreesWith`: the workload whose result this one must equal (same variant and size).
    public var agreesWith: String?
    /// `variants`: only these variants run the workload (nil: every variant), for a strategy
    /// only one schema can express, such as reading a denormalized counter entity.
    public var variants: [String]?
    /// `weight` (default 1, above 0): how much the workload counts in a total over the
    /// workloads, such as how often the app runs it.
    public var weight: Double
    /// `device`: what the app's log says the workload cost on the device; a reference only,
    /// never a measurement.
    public var device: DeviceUsage?
    /// `measurement`: this workload's warm-up, repetitions and time limit (the scenario's,
    /// with the keys the workload gives over them); nil: the scenario's.
    public var measurement: MeasurementSpec?
    /// The workload's JSON path (`$.workloads[2]`), for messages.
    public var path: String

    /// A workload; every other key has the format's default (a key left out). `saveEvery`
    /// left nil is the format's default for the kind: `count` for the kinds that take a count
    /// (``WorkloadKind/takesCount``), else 0.
    public init(
        name: String, kind: WorkloadKind, entity: String? = nil, relationship: String? = nil, relate: [String] = [],
        operation: ReorderOperation = .read,
        positionKey: String? = nil, sql: String? = nil, sqlArguments: [PredicateValue] = [], reason: String? = nil,
        predicate: PredicateSpec? = nil, set: [AttributeAssignment] = [],
        replacements: [WordReplacement] = [], verify: PredicateSpec? = nil, sort: [SortSpec] = [], sectionKey: String? = nil,
        batchSize: Int = 0, fetchLimit: Int = 0, fetchOffset: Int = 0, pageSize: Int = 0, resultType: ResultTypeSpec = .objects,
        propertiesToFetch: [PropertySpec] = [], groupBy: [String] = [], having: PredicateSpec? = nil, distinct: Bool = false,
        includesPropertyValues: Bool = true, returnsObjectsAsFaults: Bool = true, prefetch: [String] = [],
        keyBinding: KeyBinding = .integerArray, touch: TouchSpec = .all, touchKeys: [String]? = nil, reduce: [PropertySpec] = [],
        boxes: BoxSetSpec? = nil, count: Int = 0, saveEvery: Int? = nil, source: InsertSourceSpec = .dictionaries,
        mergePolicy: MergePolicy = .error, feed: FeedSpec? = nil, key: [String] = [], strategy: UpsertStrategySpec = .fetchEach,
        mergeBatch: Int = 500, reads: Int = 0, journalMode: JournalModeSpec = .wal, agreesWith: String? = nil,
        variants: [String]? = nil, weight: Double = 1, device: DeviceUsage? = nil, measurement: MeasurementSpec? = nil,
        path: String = ""
    ) {
        self.name = name
        self.kind = kind
        self.entity = entity
        self.relationship = relationship
        self.relate = relate
        self.operation = operation
        self.positionKey = positionKey
        self.sql = sql
        self.sqlArguments = sqlArguments
        self.reason = reason
        self.predicate = predicate
        self.set = set
        self.replacements = replacements
        self.verify = verify
        self.sort = sort
        self.sectionKey = sectionKey
        self.batchSize = batchSize
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.pageSize = pageSize
        self.resultType = resultType
        self.propertiesToFetch = propertiesToFetch
        self.groupBy = groupBy
        self.having = having
        self.distinct = distinct
        self.includesPropertyValues = includesPropertyValues
        self.returnsObjectsAsFaults = returnsObjectsAsFaults
        self.prefetch = prefetch
        self.keyBinding = keyBinding
        self.touch = touch
        self.touchKeys = touchKeys
        self.reduce = reduce
        self.boxes = boxes
        self.count = count
        self.saveEvery = saveEvery ?? Self.defaultSaveEvery(kind: kind, count: count)
        self.source = source
        self.mergePolicy = mergePolicy
        self.feed = feed
        self.key = key
        self.strategy = strategy
        self.mergeBatch = mergeBatch
        self.reads = reads
        self.journalMode = journalMode
        self.agreesWith = agreesWith
        self.variants = variants
        self.weight = weight
        self.device = device
        self.measurement = measurement
        self.path = path
    }

    /// `saveEvery` when the format leaves it out: `count` for the kinds that take a count, else 0.
    static func defaultSaveEvery(kind: WorkloadKind, count: Int) -> Int { kind.takesCount ? count : 0 }
}
