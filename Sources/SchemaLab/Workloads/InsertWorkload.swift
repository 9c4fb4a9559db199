/// Inserts every row of the data set as managed objects (one per entity the row
/// reaches), links their to-one relationships, and saves the context once.
///
/// Timed: creating the objects from the pre-generated values and the save.
/// Not timed: generating the data, creating the empty store.
public final class InsertWorkload: Workload {
    public let spec: WorkloadSpec
    let model: ManagedObjectModel
    let data: GeneratedData
    let placement: DataPlacement
    public var storeKind: StoreKind { .empty }

    init(spec: WorkloadSpec, model: ManagedObjectModel, data: GeneratedData, placement: DataPlacement) {
        self.spec = spec
        self.model = model
        self.data = data
        self.placement = placement
    }

    public func run(store: Store) throws -> WorkloadOutcome {
        let context = ManagedObjectContext(store: store, objectModel: model)
        try Self.insertAll(data, placement: placement, into: context)
        try context.save()
        let tables = Self.tables(placement)
        return WorkloadOutcome(rows: data.count, valuesRead: 0) {
            // The logical result, equal in every variant: root objects, per related entry
            // its destination objects and many-to-many links, and drifting counter rows
            // (0 in a correct variant).
            let drift = SQLValue.integer(try CounterAudit.driftingRows(store, model: self.model.model))
            return ResultSignature.of(rows: [try tables.map { try store.db.scalar("SELECT COUNT(*) FROM \($0)") } + [drift]])
        }
    }

    /// The tables an insert fills: every placed entity's, then the join tables, each once.
    /// The tables whose row counts make an insert's logical result: the root entity's, and
    /// per related entry (recursively) the destination entity's and its join table.
    static func tables(_ placement: DataPlacement) -> [String] {
        var out: [String] = [placement.nodes[0].entity.model.table]
        func visit(_ p: DataPlacement) {
            for r in p.related {
                out.append(r.placement.nodes[0].entity.model.table)
                if case .joinTable(let t, _, _) = r.relationship.storage { out.append(t) }
                visit(r.placement)
            }
        }
        visit(placement)
        return out
    }

    /// Creates the objects of every row in `context` (used by the fill step too): the root
    /// rows, then per `related` entry the new children or the pool members and the links,
    /// with both sides of every relationship set.
    static func insertAll(_ data: GeneratedData, placement: DataPlacement, into context: ManagedObjectContext) throws {
        let roots = insertRows(data.columns, count: data.count, nodes: placement.nodes, keep: !placement.related.isEmpty, into: context)
        for (r, g) in zip(placement.related, data.related) {
            insertRelated(g, placement: r, parents: roots, into: context)
        }
    }

    /// Creates `count` rows of objects (one per node); returns the first node's objects when `keep`.
    static func insertRows(_ columns: [[SQLValue]], count: Int, nodes: [DataPlacement.Node], keep: Bool,
                                   into context: ManagedObjectContext) -> [ManagedObject] {
        var objects = [ManagedObject?](repeating: nil, count: nodes.count)
        var kept: [ManagedObject] = []
        if keep { kept.reserveCapacity(count) }
        for row in 0..<count {
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
        for (nested, ng) in zip(r.placement.related, g.related) {
            insertRelated(ng, placement: nested, parents: targets, into: context)
        }
    }
}
