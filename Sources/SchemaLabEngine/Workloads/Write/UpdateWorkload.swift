import SchemaLabSQLite
import SchemaLabCoreData

/// Changing every object that matches a predicate, in a copy of the filled store, two ways:
///
/// - `batchUpdate` (NSBatchUpdateRequest): one `UPDATE OR FAIL ZQUAKE AS t0 SET ZVALIDATED = ?,
///   Z_OPT = (Z_OPT + 1) WHERE …` in one transaction; no object is loaded.
/// - `update`: fetch the matching objects, set the attributes, save: one `UPDATE OR FAIL …
///   WHERE Z_PK = ? AND Z_OPT = ?` per object.
///
/// The predicate may only name the entity's own attributes (an UPDATE has no joins).
/// Timed: the request, or the fetch, the changes and the save.
package final class UpdateWorkload: Workload {
    package let spec: WorkloadSpec
    let model: ManagedObjectModel
    let entity: EntityDescription
    let logical: LogicalRows
    /// Attribute indexes and values to set.
    let assignments: [(index: Int, value: SQLValue)]
    let batchSQL: String
    let batchBindings: [SQLValue]
    let fetch: FetchRequest
    /// Word replacements (update only): attribute index and replacement.
    let replacements: [(index: Int, replacement: WordReplacement)]
    /// With `verify`: the root entity's primary keys this query selects are the result.
    let verify: FetchRequestSQL.Query?
    /// `deliver`: the view context the changes reach.
    let delivery: ViewDelivery?

    init(spec: WorkloadSpec, model: ManagedObjectModel, rootEntity: String, logical: LogicalRows) throws(KeyPathError) {
        let e = try DeleteWorkload.entity(spec, model: model, rootEntity: rootEntity)
        self.spec = spec
        self.model = model
        self.entity = e
        self.logical = logical
        self.delivery = try spec.deliver.map { d throws(KeyPathError) in try ViewDelivery(d, model: model, written: e.name) }
        self.assignments = try Self.assignments(spec, entity: e, model: model)
        var replacements: [(Int, WordReplacement)] = []
        for r in spec.replacements {
            guard let a = e.model.attributes.firstIndex(where: { $0.name == r.attribute }), e.model.attributes[a].type == .string else {
                throw KeyPathError(
                    message: "in variant \(model.model.variant), \(e.name) has no string attribute '\(r.attribute)' to replace a word in",
                    at: ".set.\(r.attribute)")
            }
            replacements.append((a, r))
        }
        self.replacements = replacements
        if let v = spec.verify {
            guard let root = model.entity(rootEntity) else { throw KeyPathError(message: "no entity '\(rootEntity)'", at: ".verify") }
            let compiled = try WorkloadPredicate.compilation(v, key: "verify.predicate", model: model.model, entity: root.model)
            do {
                verify = try FetchRequest(entity: root, sortDescriptors: [], batchSize: 0, prefetch: [], predicate: compiled).sql.ids
            } catch let error as KeyPathError {
                throw error
            } catch {
                throw KeyPathError(message: "\(error)", at: ".verify")
            }
        } else {
            verify = nil
        }
        let target = try DeleteWorkload.target(spec, model: model, entity: e)
        batchSQL = BatchSQL.update(e.model, attributes: assignments.map { e.model.attributes[$0.0] }, whereSQL: target.whereSQL)
        batchBindings = assignments.map(\.1) + target.bindings
        fetch = target.fetch
    }

    package func prepare(store: Store) throws { try delivery?.prepare(store: store) }

    package func run(store: Store) throws -> WorkloadOutcome {
        let context = ManagedObjectContext(store: store, objectModel: model)
        if let delivery { _ = delivery.writer(context) }
        var n = 0
        if spec.kind == .batchUpdate {
            n = try context.batchUpdate(sql: batchSQL, bindings: batchBindings, entity: entity, attributes: assignments.map(\.index))
            try delivery?.afterBatch()
        } else {
            let objects = try context.execute(fetch).allObjects()
            for o in objects {
                for (a, v) in assignments { try context.set(o, attribute: a, to: v) }
                for (a, r) in replacements {
                    try context.fireFault(o)
                    let old = try context.attributeValue(o, a)
                    let new = r.apply(old)
                    if new != old { try context.set(o, attribute: a, to: new) }
                }
            }
            try context.save()
            try delivery?.afterSave(context)
            n = objects.count
        }
        if let verify {
            return WorkloadOutcome(rows: n, valuesRead: 0) {
                try self.delivery?.verify(store: store)
                let ids = try store.db.rows(verify.sql, verify.bindings).compactMap { $0.last?.integerValue }.sorted()
                return FetchWorkload.signature(ids: ids, sections: [])
            }
        }
        return WorkloadOutcome(rows: n, valuesRead: 0) {
            try self.delivery?.verify(store: store)
            return try self.logical.signature(store)
        }
    }

    /// `set` as attribute indexes of `entity` and their values: an attribute the entity lacks,
    /// or a value its type cannot hold, is an error at the workload's `set` (the history
    /// workloads' transactions use the same rule).
    static func assignments(_ spec: WorkloadSpec, entity e: EntityDescription, model: ManagedObjectModel) throws(KeyPathError)
        -> [(index: Int, value: SQLValue)]
    {
        var out: [(index: Int, value: SQLValue)] = []
        for s in spec.set {
            guard let a = e.model.attributes.firstIndex(where: { $0.name == s.attribute }) else {
                throw KeyPathError(
                    message:
                        "in variant \(model.model.variant), \(e.name) has no attribute '\(s.attribute)' (attributes: \(e.model.attributes.map(\.name).joined(separator: ", ")))",
                    at: ".set.\(s.attribute)")
            }
            let value = s.value.sqlValue!
            let type = e.model.attributes[a].type
            guard ValueKind.accepted(by: type).contains(ValueKind(value)) else {
                throw KeyPathError(message: "\(e.name).\(s.attribute) (\(type.rawValue)) cannot hold \(value)", at: ".set.\(s.attribute)")
            }
            out.append((a, value))
        }
        return out
    }
}
