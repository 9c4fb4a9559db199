import SchemaLabSQLite
import SchemaLabCoreData

/// A persistent history request over a history written before the clock, on a copy of the
/// filled store of a variant with history on:
///
/// - before the clock, `count` transactions, each a save that sets `set` on `saveEvery`
///   objects of `entity` (the objects in turn, by primary key), their authors alternating
///   `app` and `sync` (``HistoryRequestSpec/authors``);
/// - `fetchHistory`: the request (``HistoryRequestSpec``): the whole history after its start,
///   or tailored (an entity, one object: the first the last transaction changes, an author) in
///   the request or in memory, and the
///   updates filtered by their updated properties; timed: the request and reading every change;
/// - `deleteHistory`: `deleteHistory(before:)` keeping the last `keep` transactions.
///
/// The result is the changes returned (their objects, in order), or for a purge the history
/// left: a tailored request and the whole history filtered in memory must agree.
package final class HistoryWorkload: Workload {
    package let spec: WorkloadSpec
    let model: ManagedObjectModel
    let entity: EntityDescription
    let request: HistoryRequestSpec
    let assignments: [(index: Int, value: SQLValue)]
    /// The `updatedProperties` filter as attribute indexes of `entity`.
    let updatedProperties: [Int]
    /// The tokens and timestamps of the transactions written before the clock, per repetition.
    private var written: [(token: Int64, timestamp: Double)] = []
    /// The object the last transaction changes first (the `object` filter's): one the history
    /// after any start has a change of.
    private var firstObject: Int64 = 0

    init(spec: WorkloadSpec, model: ManagedObjectModel, rootEntity: String) throws(KeyPathError) {
        guard model.model.persistentHistory else {
            throw KeyPathError(
                message:
                    "variant \(model.model.variant) has no persistent history: \(spec.kind.phrase) needs \"persistentHistory\": true (or the workload's 'variants' without this one)",
                at: ".kind")
        }
        let e = try DeleteWorkload.entity(spec, model: model, rootEntity: rootEntity)
        self.spec = spec
        self.model = model
        self.entity = e
        request = spec.history ?? HistoryRequestSpec()
        assignments = try UpdateWorkload.assignments(spec, entity: e, model: model)
        var properties: [Int] = []
        for (i, name) in request.updatedProperties.enumerated() {
            let listed = request.entity.flatMap { model.entity($0) } ?? e
            guard let a = listed.model.attributes.firstIndex(where: { $0.name == name }) else {
                throw KeyPathError(
                    message: "in variant \(model.model.variant), \(listed.name) has no attribute '\(name)'",
                    at: ".history.updatedProperties[\(i)]")
            }
            properties.append(a)
        }
        updatedProperties = properties
        if let name = request.entity, model.entity(name) == nil {
            throw KeyPathError(message: "in variant \(model.model.variant), no entity '\(name)'", at: ".history.entity")
        }
    }

    /// Untimed: the transactions the request reads.
    package func prepare(store: Store) throws {
        written = []
        let ids = try store.db.rows("SELECT Z_PK FROM \(entity.model.table) ORDER BY Z_PK").compactMap { $0[0].integerValue }
        guard !ids.isEmpty else { return }
        var next = 0
        for t in 0..<spec.count {
            let context = ManagedObjectContext(store: store, objectModel: model)
            context.transactionAuthor = HistoryRequestSpec.authors[t % HistoryRequestSpec.authors.count]
            context.name = "background"
            let chunk = (0..<max(1, spec.saveEvery)).map { k in ids[(next + k) % ids.count] }
            next = (next + chunk.count) % ids.count
            firstObject = chunk[0]
            for o in context.objects(entity, ids: chunk) {
                for (a, v) in assignments { try context.set(o, attribute: a, to: v) }
            }
            try context.save()
        }
        written = try store.db.rows("SELECT Z_PK, ZTIMESTAMP FROM \(HistorySQL.transactionTable) ORDER BY Z_PK").map {
            ($0[0].integerValue ?? 0, $0[1].doubleValue ?? 0)
        }
    }

    /// Where the request starts (or the purge ends): before the last `last` transactions.
    func start() -> HistorySQL.Start {
        if spec.kind == .deleteHistory {
            // Before the first transaction kept; keeping none, after the last one.
            let index = written.count - (request.last ?? 0)
            guard index > 0 else { return .token(0) }
            guard index < written.count else {
                let end = written.last ?? (0, 0)
                return request.bound == .token ? .token(end.token + 1) : .date(end.timestamp.nextUp)
            }
            return request.bound == .token ? .token(written[index].token) : .date(written[index].timestamp)
        }
        guard let last = request.last else { return .all }
        let index = written.count - last
        guard index > 0 else { return .all }
        return request.bound == .token ? .token(written[index - 1].token) : .date(written[index - 1].timestamp)
    }

    package func run(store: Store) throws -> WorkloadOutcome {
        let context = ManagedObjectContext(store: store, objectModel: model)
        if spec.kind == .deleteHistory {
            let deleted = try context.deleteHistory(before: start())
            return WorkloadOutcome(rows: deleted, valuesRead: 0) {
                let left = try store.db.rows("SELECT ZENTITYPK FROM \(HistorySQL.changeTable) ORDER BY Z_PK").compactMap {
                    $0[0].integerValue
                }
                return FetchWorkload.signature(ids: left, sections: [])
            }
        }
        let listed = request.entity.flatMap { model.entity($0) }
        let inRequest = request.filterIn == .request
        // One object is named by its entity and its key.
        let filtersEntity = inRequest && (listed != nil || request.object)
        let historyRequest = HistoryRequest(
            start: start(), entities: filtersEntity ? [listed ?? entity] : [], objectID: inRequest && request.object ? firstObject : nil,
            author: inRequest ? request.author : nil)
        return try fetch(context, historyRequest, store: store)
    }

    /// Runs the request, then filters in memory what the request did not (the entity, the
    /// object and the author when `filterIn` is memory; the updated properties always).
    private func fetch(_ context: ManagedObjectContext, _ historyRequest: HistoryRequest, store: Store) throws -> WorkloadOutcome {
        let transactions = try context.fetchHistory(historyRequest)
        let listed = request.entity.flatMap { model.entity($0) } ?? entity
        let numbers = Set([listed.number] + listed.model.subentityNumbers)
        let memory = request.filterIn == .memory
        var ids: [Int64] = []
        var changes = 0
        for t in transactions {
            if memory, let author = request.author, t.author != author { continue }
            for c in t.changes {
                changes += 1
                // The entity with its sub-entities, as the request names them.
                if memory, request.entity != nil || request.object, !numbers.contains(c.entity.number) { continue }
                if memory, request.object, c.objectID != firstObject { continue }
                if !updatedProperties.isEmpty, c.type == .update, !c.updatedAttributes.contains(where: updatedProperties.contains) {
                    continue
                }
                ids.append(c.objectID)
            }
        }
        return WorkloadOutcome(rows: ids.count, valuesRead: changes) { FetchWorkload.signature(ids: ids, sections: []) }
    }
}
