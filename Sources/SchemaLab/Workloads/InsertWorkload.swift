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
        let root = placement.nodes[0].entity
        return WorkloadOutcome(rows: data.count, valuesRead: 0) {
            // The logical result: how many root objects the store holds (equal in every variant).
            ResultSignature.of(rows: [[try store.db.scalar("SELECT COUNT(*) FROM \(root.model.table)")]])
        }
    }

    /// Creates the objects of every row in `context` (used by the fill step too).
    static func insertAll(_ data: GeneratedData, placement: DataPlacement, into context: ManagedObjectContext) throws {
        let nodes = placement.nodes
        var objects = [ManagedObject?](repeating: nil, count: nodes.count)
        let columns = data.columns
        for row in 0..<data.count {
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
        }
    }
}
