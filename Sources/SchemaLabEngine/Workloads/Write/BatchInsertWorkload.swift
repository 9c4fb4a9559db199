import SchemaLabSQLite
import SchemaLabCoreData

/// NSBatchInsertRequest: the data set's rows (into an empty store) or a re-ingest feed
/// (into a copy of the filled store) written with one INSERT per record and no managed
/// objects, in one transaction (see ``ManagedObjectContext/batchInsert(_:policy:count:record:)``).
///
/// - `source: "dictionaries"`: the request's array of dictionaries (attribute name to
///   value) is built in ``prepare(store:)``, before the clock starts and after the case's memory
///   baseline: its time is not measured, its memory is.
/// - `source: "handler"`: a handler builds one dictionary per record while the request
///   runs; the array never exists.
/// - `mergePolicy`: with a uniqueness constraint on the entity, `error` writes `INSERT OR
///   IGNORE` (a stored row wins), `objectTrump` writes `ON CONFLICT(...) DO UPDATE` (the
///   record wins).
///
/// Timed: the request. Not timed: generating the data (the handler's rows a chunk at a time,
/// in untimed spans) or the feed, making the store.
package final class BatchInsertWorkload: Workload {
    package let spec: WorkloadSpec
    let model: ManagedObjectModel
    let entity: EntityDescription
    let logical: LogicalRows
    /// A feed's records' values, one column per data set field; nil when the records are
    /// the data set's rows, which stream (`DataStream`) a chunk at a time.
    let feedColumns: [[SQLValue]]?
    let dataset: DatasetSpec
    let count: Int
    /// Per attribute of the entity (its order): the field column that fills it, or nil.
    let sources: [Int?]
    /// Each record's keys and the data columns that fill them, resolved once: walking the
    /// entity's attributes per record copied each attribute model (its column, default and
    /// derivation), a tenth of a handler's instructions under callgrind.
    let recordKeys: [(name: String, column: Int)]
    /// Keys already taken in the store a repetition starts from (its Z_MAX).
    let initialMax: Int64
    @exclusivity(unchecked) private var array: [[String: SQLValue]]? = nil
    /// The connection pragmas the floor's connection runs, as the lab's store does.
    let pragmas: [Pragma]
    /// `deliver`: the view context the request's changes reach.
    let delivery: ViewDelivery?

    init(
        spec: WorkloadSpec, model: ManagedObjectModel, dataset: DatasetSpec, data: GeneratedData,
        placement: DataPlacement, logical: LogicalRows, pragmas: [Pragma]
    ) throws(KeyPathError) {
        let root = try Self.singleEntity(
            placement, model: model, what: "a batch insert writes one entity's rows (NSBatchInsertRequest sets no relationship)")
        self.pragmas = pragmas
        self.delivery = try spec.deliver.map { d throws(KeyPathError) in try ViewDelivery(d, model: model, written: root.name) }
        self.spec = spec
        self.model = model
        self.entity = root
        self.logical = logical
        self.sources = placement.nodes[0].sources
        self.recordKeys = zip(placement.nodes[0].entity.model.attributes, placement.nodes[0].sources).compactMap { a, source in
            source.map { (a.name, $0) }
        }
        if let feed = spec.feed {
            guard let constraint = root.model.uniquenessConstraints.first else {
                throw KeyPathError(
                    message:
                        "in variant \(model.model.variant), \(root.name) has no uniqueness constraint: a feed re-ingests records by key (give the entity 'uniquenessConstraints', or run this workload only in variants that have one)",
                    at: ".feed")
            }
            let f = try FeedData(dataset: dataset, size: data.count, feed: feed, keyFields: constraint.map(\.name))
            feedColumns = f.columns
            count = f.count
            initialMax = Int64(data.count)
        } else {
            feedColumns = nil
            count = data.count
            initialMax = 0
        }
        self.dataset = dataset
    }

    /// The root entity of a data set that fills only it (no to-one objects, no related entries).
    static func singleEntity(_ placement: DataPlacement, model: ManagedObjectModel, what: String) throws(KeyPathError) -> EntityDescription
    {
        guard placement.nodes.count == 1, placement.related.isEmpty else {
            let entities = placement.nodes.map(\.entity.name) + placement.related.map(\.placement.nodes[0].entity.name)
            throw KeyPathError(
                message: "\(what); in variant \(model.model.variant) the data set fills \(entities.joined(separator: ", "))", at: ".kind")
        }
        return placement.nodes[0].entity
    }

    /// Record `row` of `columns` as the request receives it: attribute name to value.
    private func record(_ columns: [[SQLValue]], _ row: Int) -> [String: SQLValue] {
        var d: [String: SQLValue] = [:]
        d.reserveCapacity(sources.count)
        for (name, column) in recordKeys { d[name] = columns[column][row] }
        return d
    }

    /// Calls `body` with every record's columns and row in order: the feed's, or the data
    /// set's rows generated a chunk at a time, each chunk in an untimed span of `untimed`.
    private func forEachRecord(untimed: inout UntimedSpans, _ body: ([[SQLValue]], Int) throws -> Void) rethrows {
        if let feedColumns {
            for i in 0..<count { try body(feedColumns, i) }
            return
        }
        var stream = DataStream(spec: dataset, count: count)
        try untimed.forEachChunk(of: &stream) { chunk in
            for i in 0..<chunk.count { try body(chunk.columns, i) }
        }
    }

    package func prepare(store: Store) throws {
        try delivery?.prepare(store: store)
        guard spec.source == .dictionaries else { return }
        // The request's array, built before the clock (it counts in the case's memory).
        var records: [[String: SQLValue]] = []
        records.reserveCapacity(count)
        var untimed = UntimedSpans()
        forEachRecord(untimed: &untimed) { columns, row in records.append(record(columns, row)) }
        array = records
    }

    package func run(store: Store) throws -> WorkloadOutcome {
        let context = ManagedObjectContext(store: store, objectModel: model)
        if let delivery { _ = delivery.writer(context) }
        var untimed = UntimedSpans()
        if spec.source == .dictionaries, let records = array {
            try context.batchInsert(entity, policy: spec.mergePolicy, count: count) { records[$0] }
        } else if let feedColumns {
            try context.batchInsert(entity, policy: spec.mergePolicy, count: count) { record(feedColumns, $0) }
        } else {
            // The handler: each record built when the request asks for it (in order), from the
            // current chunk of rows; the next chunk is generated in an untimed span.
            var stream = DataStream(spec: dataset, count: count)
            var chunk = GeneratedData.rowsNotGenerated(count: 0)
            var chunkStart = 0
            try context.batchInsert(entity, policy: spec.mergePolicy, count: count) { i in
                while i >= chunkStart + chunk.count {
                    chunkStart += chunk.count
                    chunk = untimed.run { stream.next()! }
                }
                return record(chunk.columns, i - chunkStart)
            }
        }
        try delivery?.afterBatch()
        let keep = array
        array = nil
        var outcome = WorkloadOutcome(rows: count, valuesRead: 0, keepAlive: keep.map { KeptAlive($0) }) {
            try self.delivery?.verify(store: store)
            return try self.logical.signature(store)
        }
        outcome.untimed = untimed
        return outcome
    }

    /// The INSERTs alone into a fresh store; nil with persistent history or a delivery, whose
    /// statements (the history's triggers and rows, the merge's reads) the floor would leave out:
    /// the case's recorded statements are its floor then.
    package var writeFloor: WriteFloor? {
        if model.model.persistentHistory || delivery != nil { return nil }
        let n = Int64(count)
        let ent = Int64(entity.number)
        let fk = [SQLValue](repeating: .null, count: entity.toOne.count)
        var rows: [[SQLValue]] = []
        rows.reserveCapacity(count)
        var untimed = UntimedSpans()
        forEachRecord(untimed: &untimed) { columns, i in
            var row: [SQLValue] = [SQLValue.integer(initialMax + 1 + Int64(rows.count)), SQLValue.integer(ent), SQLValue.integer(1)]
            row.append(contentsOf: fk)
            for src in sources {
                if let src { row.append(columns[src][i]) } else { row.append(SQLValue.null) }
            }
            rows.append(row)
        }
        return WriteFloor(
            setup: Store.connectionPragmaStatements(pragmas).map { ($0, []) },
            before: [
                (SaveSQL.beginExclusive, []), (SaveSQL.selectMax, [.integer(ent)]),
                (SaveSQL.updateMax, [.integer(initialMax + n), .integer(ent), .integer(initialMax)]),
            ],
            rowSQL: BatchSQL.insert(entity.model, policy: spec.mergePolicy), rows: rows,
            after: [(SaveSQL.commit, [])])
    }
}

/// Keeps a value alive as an object (a workload's result until its memory is read).
final class KeptAlive<T> {
    let value: T
    init(_ value: T) { self.value = value }
}
