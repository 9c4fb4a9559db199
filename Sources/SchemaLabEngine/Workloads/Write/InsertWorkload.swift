import SchemaLabSQLite
import SchemaLabCoreData

/// Inserts every row of the data set as managed objects (one per entity the row
/// reaches), links their relationships, and saves the context once; or, with
/// `saveEvery` K, saves every K rows and starts a new context after each save (a
/// memory-bounded import: the saved objects are released). `saveEvery: 1` is one save
/// (two transactions: the key block and the INSERT) per record, the classic mistake.
///
/// Timed: creating the objects and the saves. Not timed: generating the rows, a chunk at a
/// time between the timed steps (`UntimedSpans`: the rows of a million-object insert are
/// never all in memory; the objects are, as in Core Data); creating the empty store;
/// releasing the one-save context. A data set with `related` entries (its rows link across
/// the whole set) is generated whole before the clock instead.
package final class InsertWorkload: Workload {
    package let spec: WorkloadSpec
    let model: ManagedObjectModel
    let dataset: DatasetSpec
    let count: Int
    /// The whole data set, for a data set that does not stream; nil when the rows stream.
    let wholeData: GeneratedData?
    let placement: DataPlacement
    let logical: LogicalRows
    /// `deliver`: the view context each save's changes reach.
    let delivery: ViewDelivery?

    init(
        spec: WorkloadSpec, model: ManagedObjectModel, dataset: DatasetSpec, data: GeneratedData, placement: DataPlacement,
        logical: LogicalRows
    ) throws(KeyPathError) {
        if spec.saveEvery > 0 && !placement.related.isEmpty {
            throw KeyPathError(
                message: "'saveEvery' splits root rows between saves; this data set has 'related' entries (save once instead)",
                at: ".saveEvery")
        }
        self.spec = spec
        self.model = model
        self.dataset = dataset
        self.count = data.count
        self.wholeData = DataStream.streams(dataset) ? nil : (data.hasRows ? data : GeneratedData(spec: dataset, count: data.count))
        self.placement = placement
        self.logical = logical
        self.delivery = try spec.deliver.map { d throws(KeyPathError) in
            try ViewDelivery(d, model: model, written: placement.nodes[0].entity.name)
        }
    }

    package func prepare(store: Store) throws { try delivery?.prepare(store: store) }

    /// A new writing context (readied for the delivery when there is one).
    private func newContext(_ store: Store) -> ManagedObjectContext {
        let context = ManagedObjectContext(store: store, objectModel: model)
        return delivery?.writer(context) ?? context
    }

    package func run(store: Store) throws -> WorkloadOutcome {
        var kept: ManagedObjectContext?
        var untimed = UntimedSpans()
        if let data = wholeData {
            let context = newContext(store)
            try Self.insertAll(data, placement: placement, into: context)
            try context.save()
            try delivery?.afterSave(context)
            kept = context
        } else {
            // saveEvery K: a chunk per save, each from a new context (a memory-bounded import).
            var stream = DataStream(
                spec: dataset, count: count, chunkSize: spec.saveEvery > 0 ? spec.saveEvery : DataStream.defaultChunkSize)
            var context = newContext(store)
            try untimed.forEachChunk(of: &stream) { chunk in
                if spec.saveEvery > 0 { context = newContext(store) }
                if let choices = placement.choices {
                    Self.insertChosenRows(chunk.columns, count: chunk.count, choices: choices, into: context)
                } else {
                    _ = Self.insertRows(chunk.columns, count: chunk.count, nodes: placement.nodes, keep: false, into: context)
                }
                if spec.saveEvery > 0 {
                    try context.save()
                    try delivery?.afterSave(context)
                }
            }
            if spec.saveEvery == 0 {
                try context.save()
                try delivery?.afterSave(context)
                kept = context
            }
        }
        // The one-save context and its objects live until the repetition's memory is read, as
        // an app's context would: their deallocation is not part of the insert's time.
        var outcome = WorkloadOutcome(rows: count, valuesRead: 0, keepAlive: kept) {
            try self.delivery?.verify(store: store)
            return try self.logical.signature(store)
        }
        outcome.untimed = untimed
        return outcome
    }

    /// The tables whose row counts make an insert's logical result: the root entity's, and
    /// per related entry (recursively) the destination entity's and its join table. With
    /// `specs` (the data set's related entries), an optional entry's tables are left out:
    /// the variants without that relationship hold the same links as text, not as rows.
    static func tables(_ placement: DataPlacement, specs: [RelatedSpec]? = nil) -> [String] {
        var out: [String] = [placement.nodes[0].entity.model.table]
        // In the entities' order by name: the tables' order is part of a result's signature.
        let others = placement.choices?.byName.sorted(by: { $0.key < $1.key }).map(\.value) ?? []
        for other in others where !out.contains(other.nodes[0].entity.model.table) {
            out.append(other.nodes[0].entity.model.table)
        }
        func visit(_ p: DataPlacement, _ specs: [RelatedSpec]?) {
            for r in p.related {
                if let specs, specs[r.dataIndex].optional { continue }
                out.append(r.placement.nodes[0].entity.model.table)
                if case .joinTable(let t, _, _) = r.relationship.storage { out.append(t) }
                visit(r.placement, specs.map { $0[r.dataIndex].related })
            }
        }
        visit(placement, specs)
        return out
    }

    /// Creates the objects of every row in `context` (used by the fill step too): the root
    /// rows, then per `related` entry the new children or the pool members and the links,
    /// with both sides of every relationship set.
    static func insertAll(_ data: GeneratedData, placement: DataPlacement, into context: ManagedObjectContext) throws {
        if let choices = placement.choices {
            // Each entry fills the rows of the entity it is for; the others have no children in it.
            let keep = choices.byName.values.contains { !$0.related.isEmpty }
            let roots = insertChosenRows(data.columns, count: data.count, choices: choices, keep: keep, into: context)
            for name in choices.byName.keys.sorted() {
                for r in choices.byName[name]!.related {
                    insertRelated(data.related[r.dataIndex], placement: r, parents: roots, into: context)
                }
            }
            return
        }
        let roots = insertRows(data.columns, count: data.count, nodes: placement.nodes, keep: !placement.related.isEmpty, into: context)
        for r in placement.related {
            insertRelated(data.related[r.dataIndex], placement: r, parents: roots, into: context)
        }
    }

    /// Creates `count` rows of objects (one per node); returns the first node's objects when `keep`.
    static func insertRows(
        _ columns: [[SQLValue]], from start: Int = 0, count: Int, nodes: [DataPlacement.Node], keep: Bool,
        into context: ManagedObjectContext
    ) -> [ManagedObject] {
        var objects = [ManagedObject?](repeating: nil, count: nodes.count)
        var kept: [ManagedObject] = []
        if keep { kept.reserveCapacity(count) }
        for row in start..<start + count {
            for (i, node) in nodes.enumerated() {
                let sources = node.sources
                // Written into the object in place: a [SQLValue] per row first cost an allocation
                // through the standard library's unspecialized path (a generic-metadata lookup
                // per row, whose cost moved with the runtime's cache between builds).
                let o = context.insert(node.entity) { target in
                    for k in sources.indices {
                        if let column = sources[k] { target[k] = columns[column][row] }
                    }
                }
                objects[i] = o
                if let p = node.parent {
                    context.setRelated(objects[p.node]!, p.slot, to: o)
                    if let inv = node.inverseSlot { context.setRelated(o, inv, to: objects[p.node]!) }
                }
            }
            if keep { kept.append(objects[0]!) }
        }
        return kept
    }

    /// Creates `count` rows whose `entity` column names each row's entity: the row's objects
    /// are those of that entity's placement.
    @discardableResult
    static func insertChosenRows(
        _ columns: [[SQLValue]], count: Int, choices: (column: Int, byName: [String: DataPlacement]), keep: Bool = false,
        into context: ManagedObjectContext
    ) -> [ManagedObject] {
        let names = choices.byName.keys.sorted()
        let nodes = names.map { choices.byName[$0]!.nodes }
        var kept: [ManagedObject] = []
        if keep { kept.reserveCapacity(count) }
        for row in 0..<count {
            guard case .text(let name) = columns[choices.column][row], let k = names.firstIndex(of: name) else { continue }
            kept += insertRows(columns, from: row, count: 1, nodes: nodes[k], keep: keep, into: context)
        }
        return kept
    }

    /// Creates the destination objects of one relationship and links them to `parents`.
    private static func insertRelated(
        _ g: GeneratedRelation, placement r: RelatedPlacement, parents: [ManagedObject],
        into context: ManagedObjectContext
    ) {
        let targets =
            r.placement.choices.map { insertChosenRows(g.columns, count: g.count, choices: $0, keep: true, into: context) }
            ?? insertRows(g.columns, count: g.count, nodes: r.placement.nodes, keep: true, into: context)
        let index = r.toManyIndex
        for (p, parent) in parents.enumerated() {
            let range = g.offsets[p]..<g.offsets[p + 1]
            guard !range.isEmpty else { continue }
            if g.isPool {
                context.addRelated(parent, toMany: index, g.links[range].lazy.map { targets[$0] })
            } else {
                context.addRelated(parent, toMany: index, targets[range])
            }
            for k in range {
                let child = g.isPool ? targets[g.links[k]] : targets[k]
                switch r.inverse {
                case .toOne(let slot): context.setRelated(child, slot, to: parent)
                case .toMany(let i): context.addRelated(child, toMany: i, parent)
                }
            }
        }
        guard !g.related.isEmpty else { return }
        for nested in r.placement.related {
            insertRelated(g.related[nested.dataIndex], placement: nested, parents: targets, into: context)
        }
    }
}
