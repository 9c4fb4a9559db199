import SchemaLabSQLite
import SchemaLabCoreData

/// What one timed repetition of a workload produced.
package struct WorkloadOutcome {
    /// Objects inserted, fetched (the result count) or sections' objects.
    package var rows: Int
    /// Non-null values the touch step read (keeps the reads observable).
    package var valuesRead: Int
    /// Computed after the clock stops: the result's signature (ordered primary keys and
    /// sections, or values), equal across variants when they return the same logical result.
    package var digest: () throws -> ResultSignature
    /// What the result keeps alive until the repetition's memory is read (the context and
    /// its objects), as an app holding the fetched results would.
    package var keepAlive: AnyObject? = nil
    /// The longest write transaction (ms) when it was not on the store's own connection
    /// (a background writer's); nil: read from the store's connection.
    package var longestWriteMs: Double? = nil
    /// Every read's latency (ms), in order, with whether a writer was still writing when
    /// the read started (a reader under a writer) and the rows it returned: the reads of a
    /// reader under a writer, the queries of a box set.
    package var reads: [(ms: Double, writerActive: Bool, rows: Int)] = []
    /// Spans of the run that are not measured (generating the next chunk of rows): the
    /// case takes their time out of the sample.
    package var untimed = UntimedSpans()

    package init(rows: Int, valuesRead: Int, keepAlive: AnyObject? = nil, digest: @escaping () throws -> ResultSignature) {
        self.rows = rows
        self.valuesRead = valuesRead
        self.keepAlive = keepAlive
        self.digest = digest
    }
}

/// A workload bound to one variant: everything resolved, ready to run.
package protocol Workload: AnyObject {
    var spec: WorkloadSpec { get }
    /// The store each repetition starts from.
    var storeKind: StoreKind { get }
    /// Untimed set-up of one repetition on its store, after the case's memory baseline and
    /// before the statement log and the clock start: what an app builds before the measured
    /// call (a batch insert's array of dictionaries) counts in the case's memory, not in its
    /// time; a second connection is opened here.
    func prepare(store: Store) throws
    /// The timed part of one repetition, on a fresh context over `store`.
    func run(store: Store) throws -> WorkloadOutcome
    /// For the raw result types (object IDs, count, dictionaries): the statements one
    /// repetition runs, which the case also steps with the bare C API as the SQLite floor.
    /// Empty for workloads that build objects.
    var floorStatements: [(sql: String, bindings: [SQLValue])] { get }
    /// For a batch insert: the same INSERTs stepped with the bare C API into a fresh store.
    var writeFloor: WriteFloor? { get }
}

extension Workload {
    /// The spec's (``WorkloadSpec/storeKind``).
    package var storeKind: StoreKind { spec.storeKind }
    package var floorStatements: [(sql: String, bindings: [SQLValue])] { [] }
    package func prepare(store: Store) throws {}
    package var writeFloor: WriteFloor? { nil }
}

/// Builds the `Workload` for a spec in one variant.
package enum WorkloadFactory {
    package static func make(
        _ spec: WorkloadSpec, model: ManagedObjectModel, dataset: DatasetSpec,
        data: GeneratedData, placement: DataPlacement, pragmas: [Pragma] = []
    ) throws(KeyPathError) -> any Workload {
        switch spec.kind {
        case .fetch, .fetchedResults:
            let boxes =
                spec.boxes.map { b in
                    (data.hasRows ? BoxSet(spec: b, data: data) : BoxSet(spec: b, stream: DataStream(spec: dataset, count: data.count)))
                        .boxes.map(\.arguments)
                } ?? []
            let fetch = try FetchWorkload(spec: spec, model: model, rootEntity: dataset.entity, boxes: boxes)
            if let choices = placement.choices { fetch.logicalIdentity = LogicalIdentity(entities: choices.byName.keys.sorted()) }
            return fetch
        case .append:
            return try AppendWorkload(spec: spec, model: model, dataset: dataset, size: data.count, placement: placement)
        case .sql:
            return try SQLWorkload(spec: spec, model: model)
        default:
            break
        }
        let logical = try logicalRows(spec, model: model, dataset: dataset, placement: placement)
        switch spec.kind {
        case .insert:
            return try InsertWorkload(spec: spec, model: model, dataset: dataset, data: data, placement: placement, logical: logical)
        case .batchInsert:
            return try BatchInsertWorkload(
                spec: spec, model: model, dataset: dataset, data: data, placement: placement, logical: logical,
                pragmas: pragmas)
        case .updateOrInsert:
            return try UpdateOrInsertWorkload(
                spec: spec, model: model, dataset: dataset, data: data, placement: placement, logical: logical)
        case .batchUpdate, .update:
            return try UpdateWorkload(spec: spec, model: model, rootEntity: dataset.entity, logical: logical)
        case .batchDelete, .delete:
            return try DeleteWorkload(spec: spec, model: model, rootEntity: dataset.entity, logical: logical)
        case .reorder:
            return try ReorderWorkload(spec: spec, model: model, rootEntity: dataset.entity)
        case .readerUnderWriter:
            return try ReaderUnderWriterWorkload(
                spec: spec, model: model, dataset: dataset, size: data.count,
                placement: placement, logical: logical, pragmas: pragmas)
        case .fetchHistory, .deleteHistory:
            return try HistoryWorkload(spec: spec, model: model, rootEntity: dataset.entity)
        case .fetch, .fetchedResults, .append, .sql:
            preconditionFailure("handled above")
        }
    }

    /// What a write workload's result is read as: the root entity's data set fields (and the
    /// attributes an update sets), or every attribute of another entity it names; the related
    /// tables' row counts.
    static func logicalRows(
        _ spec: WorkloadSpec, model: ManagedObjectModel, dataset: DatasetSpec,
        placement: DataPlacement
    ) throws(KeyPathError) -> LogicalRows {
        let entity = spec.entity ?? dataset.entity
        if entity == dataset.entity, let choices = placement.choices {
            let fields = Set(dataset.fields.filter { !$0.optional }.flatMap(\.names))
            return try LogicalRows(
                model: model,
                entities: choices.byName.keys.sorted().map { name in
                    (
                        name,
                        choices.byName[name]!.placed.filter(fields.contains).compactMap { field in
                            DataPlacement.attribute(filledBy: field, on: name, model: model)
                        }.sorted()
                    )
                })
        }
        var keyPaths: [String]
        if entity == dataset.entity {
            // The attributes an update sets (those the entity has: a misspelled one is reported
            // by the update workload, at its key).
            let root = model.entity(entity)?.model
            // A qualified field (`Entity.attribute`) is read when it is the entity's own; another
            // entity's is counted with its table's rows.
            keyPaths =
                dataset.fields.filter { !$0.optional }.flatMap(\.names).compactMap { name in
                    DataPlacement.attribute(filledBy: name, on: entity, model: model)
                }
                + spec.set.map(\.attribute).filter { root?.attribute($0) != nil }
        } else {
            keyPaths = model.entity(entity)?.model.attributes.map(\.name) ?? []
        }
        let related = Array(InsertWorkload.tables(placement, specs: dataset.related).dropFirst())
        return try LogicalRows(model: model, entity: entity, keyPaths: keyPaths, countedTables: entity == dataset.entity ? related : [])
    }
}
