/// The kinds of workload the lab runs.
public enum WorkloadKind: String, CaseIterable, Sendable {
    /// Insert every object of the data set into a context, then save it.
    case insert
    /// One fetch request; touch some of the results.
    case fetch
    /// A fetched-results controller: fetch plus sections by a key path.
    case fetchedResults
    /// Insert `count` more objects (the data set's next rows) into the filled store,
    /// saving every `saveEvery` objects: the save-side cost of a schema.
    case append
    /// NSBatchInsertRequest: the data set (or a feed) inserted with one INSERT per record,
    /// no managed objects; from an array of dictionaries or a handler.
    case batchInsert
    /// Update-or-insert a feed through managed objects: one fetch per record, or the
    /// sorted merge (one `IN (...)` fetch per batch).
    case updateOrInsert
    /// NSBatchUpdateRequest: one UPDATE by predicate.
    case batchUpdate
    /// Fetch the objects matching a predicate, change them, save.
    case update
    /// NSBatchDeleteRequest: DELETE by predicate, optionally fetchLimit rows per request.
    case batchDelete
    /// Fetch the objects matching a predicate, delete them one by one, save.
    case delete
    /// A list fetch repeated on one connection while a second thread appends rows on its own.
    case readerUnderWriter
    /// An ordered list edited or read, `count` parents at a time: an ordered to-many
    /// relationship (its `Z_FOK_` keys) or an unordered one with a position attribute.
    case reorder
    /// One statement of an app's SQL log run as it is, with its values bound: a query steps
    /// every row of the filled store; an INSERT, UPDATE or DELETE writes a copy of it in one
    /// transaction.
    case sql
    /// A persistent history request (`NSPersistentHistoryChangeRequest.fetchHistory`) over
    /// `count` transactions written before the clock: all of the history, or tailored.
    case fetchHistory
    /// A history purge (`deleteHistory(before:)`) over `count` transactions written before the clock.
    case deleteHistory
}

// MARK: Traits
//
// What the rest of the lab needs to know about a kind lives here, so that a new kind of
// workload is described in one place (with its Workload class and its line in
// WorkloadFactory): the validation, the runner, the raw baseline, instruction counting and
// `run --store` read these properties instead of listing kinds.
extension WorkloadKind {
    /// The keys a write-side kind takes besides name, kind, variants and measurement; nil for
    /// a fetch kind, which takes the fetch request's keys (``ScenarioDecoder``).
    public var writeKeys: [String]? {
        switch self {
        case .fetch, .fetchedResults: return nil
        case .insert: return ["saveEvery", "deliver", "agreesWith"]
        case .append: return ["entity", "relate", "count", "saveEvery", "agreesWith"]
        case .batchInsert: return ["source", "mergePolicy", "feed", "deliver", "agreesWith"]
        case .updateOrInsert: return ["feed", "key", "strategy", "mergeBatch", "saveEvery", "agreesWith"]
        case .batchUpdate, .update: return ["entity", "predicate", "arguments", "set", "verify", "deliver", "agreesWith"]
        case .batchDelete, .delete: return ["entity", "predicate", "arguments", "fetchLimit", "deliver", "agreesWith"]
        case .readerUnderWriter:
            return [
                "count", "saveEvery", "sort", "fetchLimit", "batchSize", "touch", "predicate", "arguments", "reads", "journalMode",
                "agreesWith",
            ]
        case .reorder: return ["entity", "relationship", "operation", "positionKey", "count", "agreesWith"]
        case .sql: return ["entity", "sql", "arguments", "reason"]
        case .fetchHistory, .deleteHistory: return ["entity", "set", "count", "saveEvery", "history", "agreesWith"]
        }
    }

    /// How messages name a workload of this kind: "an insert workload".
    public var phrase: String {
        let article = rawValue.first.map { "aeiou".contains($0) } ?? false ? "an" : "a"
        return "\(article) \(rawValue) workload"
    }

    /// Reads the store and never writes it, whatever the workload's other keys: the kinds
    /// whose key paths are checked in every variant when the scenario is. Not `sql`, whose
    /// statement may write (`WorkloadSpec.readsOnly` tells a query from a write).
    public var readsOnly: Bool { self == .fetch || self == .fetchedResults }

    /// Runs a fetch request whose sort and dictionary results read the store's columns.
    public var fetches: Bool { readsOnly || self == .readerUnderWriter }

    /// Writes attribute values without the context (NSBatchInsertRequest, NSBatchUpdateRequest):
    /// what the context keeps at save time (canonical search text, external storage) it cannot.
    public var writesValuesOutsideContext: Bool { self == .batchInsert || self == .batchUpdate }

    /// `count` is required: the rows it writes (and, by default, the rows per save).
    public var takesCount: Bool { self == .append || self == .readerUnderWriter || self == .reorder || writesHistoryFirst }

    /// Writes `count` transactions of `saveEvery` changes before the clock, then times a
    /// history request.
    public var writesHistoryFirst: Bool { self == .fetchHistory || self == .deleteHistory }

    /// Every statement runs on the store's own connection, so one recorded run, stepped with
    /// the bare C API, is the case's raw baseline. A reader under a writer also writes on a
    /// second connection, which the recording does not see.
    public var hasRawBaseline: Bool { self != .readerUnderWriter }

    /// A run repeats instruction for instruction, so callgrind's count is the case's. A reader
    /// under a writer depends on how its two threads interleave (and under valgrind, which
    /// runs one thread at a time, it takes minutes).
    public var countsInstructions: Bool { self != .readerUnderWriter }
}

extension WorkloadSpec {
    /// Reads the store and never writes it: a kind that only reads, or a sql workload whose
    /// statement is a query (the plan checks that SQLite agrees). What `run --store` runs on
    /// a copy of a user's store.
    package var readsOnly: Bool { kind.readsOnly || (kind == .sql && SQLStatementText(sql ?? "").isQuery) }

    /// The store each repetition starts from: a new empty one for an insert of the data set,
    /// the filled store for reads, a fresh copy of it for writes into existing data.
    package var storeKind: StoreKind {
        switch kind {
        case .insert: return .empty
        case .batchInsert: return feed == nil ? .empty : .filledCopy
        case .fetch, .fetchedResults: return .filled
        case .append, .updateOrInsert, .batchUpdate, .update, .batchDelete, .delete, .readerUnderWriter: return .filledCopy
        case .reorder: return operation == .read ? .filled : .filledCopy
        case .sql: return readsOnly ? .filled : .filledCopy
        case .fetchHistory, .deleteHistory: return .filledCopy
        }
    }
}
