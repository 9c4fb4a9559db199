/// Inserts every row of the data set as managed objects (one per entity the row
/// reaches), links their relationships, and saves the context once; or, with
/// `saveEvery` K, saves every K rows and starts a new context after each save (a
/// memory-bounded import: the saved objects are released). `saveEvery: 1` is one save
/// (two transactions: the key block and the INSERT) per record, the classic mistake.
///
/// Timed: creating the objects from the pre-generated values and the saves.
/// Not timed: generating the data, creating the empty store.
public final class InsertWorkload: Workload {
    public let spec: WorkloadSpec
    let model: ManagedObjectModel
    let data: GeneratedData
    let placement: DataPlacement
    let logical: LogicalRows
    public var storeKind: StoreKind { .empty }

    init(spec: WorkloadSpec, model: ManagedObjectModel, data: GeneratedData, placement: DataPlacement,
         logical: LogicalRows) throws(KeyPathError) {
        if spec.saveEvery > 0 && !placement.related.isEmpty {
            throw KeyPathError(message: "'saveEvery' splits root rows between saves; this data set has 'related' entries (save once instead)", at: ".saveEvery")
        }
        self.spec = spec
        self.model = model
        self.data = data
        self.placement = placement
        self.logical = logical
    }

    public func run(store: Store) throws -> WorkloadOutcome {
        if spec.saveEvery > 0 {
            for start in stride(from: 0, to: data.count, by: spec.saveEvery) {
                let end = min(start + spec.saveEvery, data.count)
                let context = ManagedObjectContext(store: store, objectModel: model)
                _ = Self.insertRows(data.columns, from: start, count: end - start, nodes: placement.nodes, keep: false, into: context)
                try context.save()
            }
        } else {
            let context = ManagedObjectContext(store: store, objectModel: model)
            try Self.insertAll(data, placement: placement, into: context)
            try context.save()
        }
        // The logical result, equal in every variant and strategy: the root objects' fields,
        // per related entry its destination objects and links, and drifting counter rows.
        return WorkloadOutcome(rows: data.count, valuesRead: 0) { try self.logical.signature(store) }
    }

    /// The tables whose row counts make an insert's logical result: the root entity's, and
    /// per related entry (recursively) the destination entity's and its join table. With
    /// `specs` (the data set's related entries), an optional entry's tables are left out:
    /// the variants without that relationship hold the same links as text, not as rows.
    static func tables(_ placement: DataPlacement, specs: [RelatedSpec]? = nil) -> [String] {
        var out: [String] = [placement.nodes[0].entity.model.table]
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
        let roots = insertRows(data.columns, count: data.count, nodes: placement.nodes, keep: !placement.related.isEmpty, into: context)
        for r in placement.related {
            insertRelated(data.related[r.dataIndex], placement: r, parents: roots, into: context)
        }
    }

    /// Creates `count` rows of objects (one per node); returns the first node's objects when `keep`.
    static func insertRows(_ columns: [[SQLValue]], from start: Int = 0, count: Int, nodes: [DataPlacement.Node], keep: Bool,
                                   into context: ManagedObjectContext) -> [ManagedObject] {
        var objects = [ManagedObject?](repeating: nil, count: nodes.count)
        var kept: [ManagedObject] = []
        if keep { kept.reserveCapacity(count) }
        for row in start..<start + count {
            for (i, node) in nodes.enumerated() {
                var values: [SQLValue] = []
                values.reserveCapacity(node.sources.count)
                for s in node.sources { values.append(s.map { columns[$0][row] } ?? .null) }
                let o = context.insert(node.entity, values: values)
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

    /// Creates the destination objects of one relationship and links them to `parents`.
    private static func insertRelated(_ g: GeneratedRelation, placement r: RelatedPlacement, parents: [ManagedObject],
                                      into context: ManagedObjectContext) {
        let targets = insertRows(g.columns, count: g.count, nodes: r.placement.nodes, keep: true, into: context)
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
