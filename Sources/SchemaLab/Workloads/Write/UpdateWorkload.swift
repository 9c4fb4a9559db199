/// Changing every object that matches a predicate, in a copy of the filled store, two ways:
///
/// - `batchUpdate` (NSBatchUpdateRequest): one `UPDATE OR FAIL ZQUAKE AS t0 SET ZVALIDATED = ?,
///   Z_OPT = (Z_OPT + 1) WHERE …` in one transaction; no object is loaded.
/// - `update`: fetch the matching objects, set the attributes, save: one `UPDATE OR FAIL …
///   WHERE Z_PK = ? AND Z_OPT = ?` per object.
///
/// The predicate may only name the entity's own attributes (an UPDATE has no joins).
/// Timed: the request, or the fetch, the changes and the save.
public final class UpdateWorkload: Workload {
    public let spec: WorkloadSpec
    let model: ManagedObjectModel
    let entity: EntityDescription
    let logical: LogicalRows
    /// Attribute indexes and values to set.
    let assignments: [(index: Int, value: SQLValue)]
    let batchSQL: String
    let batchBindings: [SQLValue]
    let fetch: FetchRequest
    public var storeKind: StoreKind { .filledCopy }

    init(spec: WorkloadSpec, model: ManagedObjectModel, rootEntity: String, logical: LogicalRows) throws(KeyPathError) {
        let e = try DeleteWorkload.entity(spec, model: model, rootEntity: rootEntity)
        self.spec = spec
        self.model = model
        self.entity = e
        self.logical = logical
        var assignments: [(Int, SQLValue)] = []
        for (i, s) in spec.set.enumerated() {
            guard let a = e.model.attributes.firstIndex(where: { $0.name == s.attribute }) else {
                throw KeyPathError(message: "in variant \(model.model.variant), \(e.name) has no attribute '\(s.attribute)' (attributes: \(e.model.attributes.map(\.name).joined(separator: ", ")))", at: ".set.\(s.attribute)")
            }
            let value = s.value.sqlValue!
            let type = e.model.attributes[a].type
            guard ValueKind.accepted(by: type).contains(ValueKind(value)) else {
                throw KeyPathError(message: "\(e.name).\(s.attribute) (\(type.rawValue)) cannot hold \(value)", at: ".set.\(s.attribute)")
            }
            _ = i
            assignments.append((a, value))
        }
        self.assignments = assignments
        let target = try DeleteWorkload.target(spec, model: model, entity: e)
        batchSQL = BatchSQL.update(e.model, attributes: assignments.map { e.model.attributes[$0.0] }, whereSQL: target.whereSQL)
        batchBindings = assignments.map(\.1) + target.bindings
        fetch = target.fetch
    }

    public func run(store: Store) throws -> WorkloadOutcome {
        let context = ManagedObjectContext(store: store, objectModel: model)
        var n = 0
        if spec.kind == .batchUpdate {
            n = try context.batchUpdate(sql: batchSQL, bindings: batchBindings)
        } else {
            let objects = try context.execute(fetch).allObjects()
            for o in objects {
                for (a, v) in assignments { try context.set(o, attribute: a, to: v) }
            }
            try context.save()
            n = objects.count
        }
        return WorkloadOutcome(rows: n, valuesRead: 0) { try self.logical.signature(store) }
    }
}
