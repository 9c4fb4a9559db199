import Foundation
import SchemaLabSQLite
import SchemaLabCoreData

/// A write workload's `deliver`: a view context on the same store holds a list screen (the
/// first `held` objects of a sorted fetch, ``ListedRows``) and hears about each save or batch
/// request the way the spec's mode says (``DeliverySpec/Mode``). Its set-up (the view
/// context and the list's first fetch) is untimed; each delivery is timed with the write;
/// after the clock, ``verify(store:)`` checks the merged list against a fresh fetch.
final class ViewDelivery {
    let spec: DeliverySpec
    let model: ManagedObjectModel
    let entity: EntityDescription
    let request: FetchRequest
    let sorts: [(accessor: KeyPathAccessor, ascending: Bool)]
    let shown: [KeyPathAccessor]
    /// The shown attributes' columns, to read them from the store when checking.
    let shownColumns: [String]
    /// With `filter`: the attributes whose change the list shows (sort keys and `shows`).
    let watched: Set<Int>
    /// The written entity's history request filter (with `filter`: the listed entity only).
    let historyEntities: [EntityDescription]
    private(set) var context: ManagedObjectContext?
    private(set) var rows: ListedRows?
    /// The last history transaction the view has merged.
    private var token: Int64 = 0

    /// The delivery of `spec` for a workload writing `written` (the listed entity's default).
    init(_ spec: DeliverySpec, model: ManagedObjectModel, written: String) throws(KeyPathError) {
        self.spec = spec
        self.model = model
        let name = spec.entity ?? written
        guard let e = model.entity(name) else {
            throw KeyPathError(message: "in variant \(model.model.variant), no entity '\(name)' to list", at: ".deliver.entity")
        }
        if spec.mode == .historyNotification && !model.model.persistentHistory {
            throw KeyPathError(
                message:
                    "variant \(model.model.variant) has no persistent history: a historyNotification delivery needs \"persistentHistory\": true (or the workload's 'variants' without this one)",
                at: ".deliver.mode")
        }
        entity = e
        var descriptors: [(ResolvedKeyPath, Bool)] = []
        var accessors: [(accessor: KeyPathAccessor, ascending: Bool)] = []
        var watched = Set<Int>()
        for (i, s) in spec.sort.enumerated() {
            let key = try Self.attribute(s.keyPath, of: e, at: ".deliver.sort[\(i)]", model: model)
            descriptors.append((key, s.ascending))
            accessors.append((KeyPathAccessor(key, from: e), s.ascending))
            watched.insert(KeyPathAccessor(key, from: e).attributeIndex)
        }
        var shown: [KeyPathAccessor] = []
        var shownColumns: [String] = []
        for (i, name) in spec.shows.enumerated() {
            let key = try Self.attribute(name, of: e, at: ".deliver.shows[\(i)]", model: model)
            shown.append(KeyPathAccessor(key, from: e))
            shownColumns.append(key.attribute.column)
            watched.insert(KeyPathAccessor(key, from: e).attributeIndex)
        }
        sorts = accessors
        self.shown = shown
        self.shownColumns = shownColumns
        self.watched = watched
        historyEntities = spec.filter ? [e] : []
        do {
            request = try FetchRequest(
                entity: e, sortDescriptors: descriptors, batchSize: 0, prefetch: [], predicate: nil, fetchLimit: spec.held,
                returnsObjectsAsFaults: false)
        } catch {
            throw KeyPathError(message: "\(error)", at: ".deliver")
        }
    }

    /// An attribute of the listed entity (its own, not through a relationship).
    private static func attribute(_ name: String, of e: EntityDescription, at: String, model: ManagedObjectModel) throws(KeyPathError)
        -> ResolvedKeyPath
    {
        let key: ResolvedKeyPath
        do { key = try model.model.resolve(keyPath: name, from: e.name) } catch {
            throw KeyPathError(message: "in variant \(model.model.variant), \(error.message)", at: at)
        }
        guard key.relationships.isEmpty else {
            throw KeyPathError(
                message: "a listed row sorts and shows the entity's own attributes; '\(name)' goes through a relationship", at: at)
        }
        return key
    }

    /// Untimed, before each repetition: a new view context, the list's first fetch, and the
    /// history token it starts from.
    func prepare(store: Store) throws {
        let view = ManagedObjectContext(store: store, objectModel: model)
        view.name = "view"
        let rows = ListedRows(entity: entity, sorts: sorts, shown: shown, held: spec.held)
        try rows.load(try view.execute(request).allObjects(), context: view)
        context = view
        self.rows = rows
        token = try view.lastHistoryToken()
    }

    /// Readies a writing context: its saves keep their notification, its transactions an author.
    func writer(_ context: ManagedObjectContext) -> ManagedObjectContext {
        context.recordsSaves = spec.mode == .saveNotification
        context.transactionAuthor = "importer"
        context.name = "background"
        return context
    }

    /// Timed, after each save of `writer`.
    func afterSave(_ writer: ManagedObjectContext) throws {
        switch spec.mode {
        case .saveNotification:
            guard let view = context, let rows, let changes = writer.lastSave else { return }
            writer.lastSave = nil
            try rows.apply(view.mergeChanges(fromSave: changes), context: view)
        case .historyNotification, .refetch:
            try afterBatch()
        }
    }

    /// Timed, after each batch request (which posts no save notification): the history merged,
    /// or the list fetched again. With a save notification mode the list does not hear of it.
    func afterBatch() throws {
        guard let view = context, let rows else { return }
        switch spec.mode {
        case .saveNotification:
            return
        case .refetch:
            view.reset()
            try rows.load(try view.execute(request).allObjects(), context: view)
        case .historyNotification:
            let transactions = try view.fetchHistory(HistoryRequest(start: .token(token), entities: historyEntities))
            for t in transactions {
                token = max(token, t.token)
                var changes = ObjectIDChanges()
                for c in t.changes {
                    switch c.type {
                    case .insert: changes.inserted.append((c.entity, c.objectID))
                    case .delete: changes.deleted.append((c.entity, c.objectID))
                    case .update:
                        let attributes = c.updatedAttributes
                        if spec.filter && c.entity.rootNumber == entity.rootNumber && !attributes.contains(where: watched.contains) {
                            continue
                        }
                        changes.updated.append((c.entity, c.objectID, attributes))
                    }
                }
                try rows.apply(view.mergeChanges(fromObjectIDs: changes), context: view)
            }
        }
    }

    /// After the clock: the merged list must be what a fresh fetch shows: the same sort values
    /// in the same order, as far as the merged list goes (a delete leaves it shorter, as a
    /// controller's list is until it is fetched again), and every listed object's shown
    /// values those of its row in the store.
    func verify(store: Store) throws {
        guard let rows else { return }
        let fresh = ManagedObjectContext(store: store, objectModel: model)
        let check = ListedRows(entity: entity, sorts: sorts, shown: shown, held: spec.held)
        try check.load(try fresh.execute(request).allObjects(), context: fresh)
        let merged = rows.keys
        // Unless a listed row went, the list is as long as a fresh fetch's.
        let complete = rows.lostRows || merged.count == check.keys.count
        guard complete, merged.count <= check.keys.count, zip(merged, check.keys).allSatisfy({ ListedRows.same($0, $1) }) else {
            let first =
                zip(merged, check.keys).enumerated().first { !ListedRows.same($0.element.0, $0.element.1) }?.offset
                ?? min(merged.count, check.keys.count)
            throw WorkloadCheckError(
                message:
                    "the view context's list after the \(spec.mode.rawValue) merge differs from a fresh fetch at row \(first + 1) (\(merged.count) rows merged, \(check.keys.count) fetched)"
            )
        }
        guard let view = context else { return }
        guard !shownColumns.isEmpty else { return }
        let sql = "SELECT \(shownColumns.joined(separator: ", ")) FROM \(entity.model.table) WHERE Z_PK = ?"
        for o in rows.objects {
            guard let stored = try store.db.rows(sql, [.integer(o.objectID)]).first else {
                throw WorkloadCheckError(message: "the view context lists \(o.entity.name) \(o.objectID), which the store no longer has")
            }
            for (i, s) in shown.enumerated() where try SQLValueOrder.compare(view.value(of: o, at: s), stored[i]) != 0 {
                throw WorkloadCheckError(
                    message:
                        "the view context shows a stale \(spec.shows[i]) of \(o.entity.name) \(o.objectID) after the \(spec.mode.rawValue) merge"
                )
            }
        }
    }
}

/// A workload's own check of its result failed (a merge that left the list wrong).
struct WorkloadCheckError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
