import SchemaLabSQLite
import SchemaLabCoreData

/// Update-or-insert a re-ingest feed through managed objects, into a copy of the filled
/// store: each record's stored object gets every non-key attribute of the record (an
/// `UPDATE OR FAIL … WHERE Z_PK = ? AND Z_OPT = ?` at the save), and a record with no
/// stored object becomes a new object (an INSERT).
///
/// - `fetchEach`: one fetch per record, `SELECT … WHERE t0.ZCODE = ?` (the slow way of the
///   WWDC 2013 session).
/// - `sortedMerge`: the records sorted by key; per `mergeBatch` records one fetch
///   `SELECT … WHERE t0.ZCODE IN (?,…) ORDER BY t0.ZCODE`, then both sorted lists walked
///   together (Apple's "find-or-create efficiently"). Single-attribute keys only.
///
/// Saves once at the end, or every `saveEvery` records with a new context after each save.
/// Timed: the fetches, the changes and the saves. Not timed: generating the feed.
package final class UpdateOrInsertWorkload: Workload {
    package let spec: WorkloadSpec
    let model: ManagedObjectModel
    let entity: EntityDescription
    let logical: LogicalRows
    let feed: FeedData
    let sources: [Int?]
    /// Attribute indexes of the key, and of the attributes a record changes.
    let keyAttributes: [Int]
    let changedAttributes: [Int]
    /// The feed's record order for the strategy (sorted by key for the merge).
    let order: [Int]
    /// Fetch by key (one `?` per key attribute), and the IN fetch per batch length.
    let fetchOne: FetchRequest
    @exclusivity(unchecked) private var fetchIn: [Int: FetchRequest] = [:]

    init(
        spec: WorkloadSpec, model: ManagedObjectModel, dataset: DatasetSpec, data: GeneratedData,
        placement: DataPlacement, logical: LogicalRows
    ) throws(KeyPathError) {
        let root = try BatchInsertWorkload.singleEntity(
            placement, model: model, what: "an updateOrInsert workload writes one entity's rows")
        self.spec = spec
        self.model = model
        self.entity = root
        self.logical = logical
        self.sources = placement.nodes[0].sources
        var keys: [Int] = []
        for (i, k) in spec.key.enumerated() {
            guard let a = root.model.attributes.firstIndex(where: { $0.name == k }), sources[a] != nil else {
                throw KeyPathError(
                    message: "in variant \(model.model.variant), '\(k)' is not an attribute of \(root.name) that the data set fills",
                    at: ".key[\(i)]")
            }
            keys.append(a)
        }
        if spec.strategy == .sortedMerge && keys.count != 1 {
            throw KeyPathError(message: "the sortedMerge strategy fetches 'key IN (...)': it takes one key attribute", at: ".key")
        }
        keyAttributes = keys
        changedAttributes = root.model.attributes.indices.filter { !keys.contains($0) && placement.nodes[0].sources[$0] != nil }
        let f = try FeedData(dataset: dataset, size: data.count, feed: spec.feed!, keyFields: spec.key)
        feed = f
        let keyColumns = keys.map { placement.nodes[0].sources[$0]! }
        if spec.strategy == .sortedMerge {
            let column = f.columns[keyColumns[0]]
            // A stable sort by key (the feed's keys are distinct; ties keep feed order).
            let indexes: [Int] = Array(0..<f.count)
            order = indexes.sorted { (a: Int, b: Int) -> Bool in
                if SQLiteOrder.less(column[a], column[b]) { return true }
                if SQLiteOrder.less(column[b], column[a]) { return false }
                return a < b
            }
        } else {
            order = Array(0..<f.count)
        }
        // Placeholders render the statements (a NULL would render IS NULL); each fetch binds the record's key.
        let text = spec.key.map { "\($0) == %@" }.joined(separator: " AND ")
        fetchOne = try Self.request(model, root, text: text, arguments: spec.key.map { _ in .integer(0) }, sortedByKey: nil)
    }

    private static func request(
        _ model: ManagedObjectModel, _ e: EntityDescription, text: String, arguments: [PredicateValue],
        sortedByKey key: String?
    ) throws(KeyPathError) -> FetchRequest {
        let spec = PredicateSpec(text: text, arguments: arguments, path: "")
        let predicate = try WorkloadPredicate.compilation(spec, key: "key", model: model.model, entity: e.model)
        var sorts: [(ResolvedKeyPath, Bool)] = []
        if let key { sorts.append((try model.model.resolve(keyPath: key, from: e.name), true)) }
        do {
            return try FetchRequest(entity: e, sortDescriptors: sorts, batchSize: 0, prefetch: [], predicate: predicate)
        } catch {
            throw KeyPathError(message: "\(error)", at: ".key")
        }
    }

    private func inRequest(_ n: Int) throws -> FetchRequest {
        if let r = fetchIn[n] { return r }
        let r = try Self.request(
            model, entity, text: "\(spec.key[0]) IN %@", arguments: [.array(Array(repeating: .integer(0), count: n))],
            sortedByKey: spec.key[0])
        fetchIn[n] = r
        return r
    }

    package func prepare(store: Store) throws {
        if spec.strategy == .sortedMerge {
            // Render every batch length's statement before the clock, as the app's code is compiled.
            for start in stride(from: 0, to: order.count, by: spec.mergeBatch) {
                _ = try inRequest(min(spec.mergeBatch, order.count - start))
            }
        }
    }

    private func value(_ record: Int, attribute a: Int) -> SQLValue {
        feed.columns[sources[a]!][record]
    }

    private func apply(_ record: Int, to o: ManagedObject, in context: ManagedObjectContext) throws {
        for a in changedAttributes { try context.set(o, attribute: a, to: value(record, attribute: a)) }
    }

    private func insertNew(_ record: Int, in context: ManagedObjectContext) {
        var values: [SQLValue] = []
        values.reserveCapacity(sources.count)
        for src in sources { values.append(src.map { feed.columns[$0][record] } ?? SQLValue.null) }
        _ = context.insert(entity, values: values)
    }

    package func run(store: Store) throws -> WorkloadOutcome {
        var context = ManagedObjectContext(store: store, objectModel: model)
        var sinceSave = 0
        func saved(_ n: Int) throws {
            sinceSave += n
            guard spec.saveEvery > 0, sinceSave >= spec.saveEvery else { return }
            try context.save()
            context = ManagedObjectContext(store: store, objectModel: model)
            sinceSave = 0
        }
        var updated = 0
        switch spec.strategy {
        case .fetchEach:
            for r in order {
                let found = try context.executePage(fetchOne, bindings: keyAttributes.map { value(r, attribute: $0) })
                if let o = found.first { try apply(r, to: o, in: context); updated += 1 } else { insertNew(r, in: context) }
                try saved(1)
            }
        case .sortedMerge:
            let k = keyAttributes[0]
            for start in stride(from: 0, to: order.count, by: spec.mergeBatch) {
                let batch = order[start..<min(start + spec.mergeBatch, order.count)]
                let request = try inRequest(batch.count)
                let existing = try context.executePage(request, bindings: batch.map { value($0, attribute: k) })
                var i = existing.startIndex
                for r in batch {
                    let key = value(r, attribute: k)
                    while i < existing.endIndex, SQLiteOrder.less(existing[i].values[k], key) { i += 1 }
                    if i < existing.endIndex, !SQLiteOrder.less(key, existing[i].values[k]) {
                        try apply(r, to: existing[i], in: context)
                        updated += 1
                    } else {
                        insertNew(r, in: context)
                    }
                }
                try saved(batch.count)
            }
        }
        try context.save()
        let n = feed.count
        return WorkloadOutcome(rows: n, valuesRead: updated) { try self.logical.signature(store) }
    }
}
