import SchemaLabSQLite
import SchemaLabCoreData

/// Deleting every object that matches a predicate (all of them without one), in a copy of
/// the filled store, two ways:
///
/// - `batchDelete` (NSBatchDeleteRequest): `DELETE FROM ZQUAKE WHERE Z_PK IN (SELECT t0.Z_PK
///   FROM ZQUAKE t0 WHERE … [LIMIT n])`, with temporary triggers for the relationships'
///   delete rules; with `fetchLimit` N, one request (one transaction) per N rows until done.
/// - `delete`: fetch the objects (with `fetchLimit` N, N at a time), delete each (the rules
///   applied in the context, faulting related objects in), save; repeat until done, a new
///   context per round.
///
/// The case's `longest_write_ms` is the longest single transaction: how long the write
/// lock was held at once. Timed: the requests, or the fetches, deletes and saves.
package final class DeleteWorkload: Workload {
    package let spec: WorkloadSpec
    let model: ManagedObjectModel
    let entity: EntityDescription
    let logical: LogicalRows
    let batchSQL: String
    let bindings: [SQLValue]
    let triggers: (create: [String], drop: [String])
    let fetch: FetchRequest
    /// `deliver`: the view context the deletions reach.
    let delivery: ViewDelivery?

    /// The entity a predicate workload changes: its `entity`, else the data set's.
    static func entity(_ spec: WorkloadSpec, model: ManagedObjectModel, rootEntity: String) throws(KeyPathError) -> EntityDescription {
        let name = spec.entity ?? rootEntity
        guard let e = model.entity(name) else {
            throw KeyPathError(message: "variant \(model.model.variant) has no entity '\(name)'", at: ".entity")
        }
        return e
    }

    /// The WHERE clause (own attributes only) and the object fetch of a predicate workload.
    static func target(
        _ spec: WorkloadSpec, model: ManagedObjectModel, entity e: EntityDescription,
        limit: Int = 0
    ) throws(KeyPathError) -> (whereSQL: String?, bindings: [SQLValue], fetch: FetchRequest) {
        let predicate = try WorkloadPredicate.compilation(spec.predicate, key: "predicate", model: model.model, entity: e.model)
        var whereSQL: String? = nil
        var bindings: [SQLValue] = []
        do {
            if let predicate {
                let planner = JoinPlanner(model: model.model, entity: e.model)
                let w = try predicate(planner)
                if planner.hasJoins {
                    throw KeyPathError(
                        message: "a batch request's predicate may only name \(e.name)'s own attributes (an UPDATE or DELETE has no joins)",
                        at: ".predicate")
                }
                whereSQL = w.sql
                bindings = w.bindings
            }
            // A sub-entity's rows only: the same restriction as its fetches (t0.Z_ENT = ?).
            if let restricted = FetchSQL.restricted(whereSQL.map { WhereClause(sql: $0, bindings: bindings) }, to: e.model) {
                whereSQL = restricted.sql
                bindings = restricted.bindings
            }
            let fetch = try FetchRequest(
                entity: e, sortDescriptors: [], batchSize: 0, prefetch: [], predicate: predicate, fetchLimit: limit)
            return (whereSQL, bindings, fetch)
        } catch let error as KeyPathError {
            throw error
        } catch {
            throw KeyPathError(message: "\(error)", at: ".predicate")
        }
    }

    init(spec: WorkloadSpec, model: ManagedObjectModel, rootEntity: String, logical: LogicalRows) throws(KeyPathError) {
        let e = try DeleteWorkload.entity(spec, model: model, rootEntity: rootEntity)
        self.spec = spec
        self.model = model
        self.entity = e
        self.logical = logical
        self.delivery = try spec.deliver.map { d throws(KeyPathError) in try ViewDelivery(d, model: model, written: e.name) }
        let t = try Self.target(spec, model: model, entity: e, limit: spec.fetchLimit)
        batchSQL = BatchSQL.delete(e.model, whereSQL: t.whereSQL, limit: spec.fetchLimit)
        bindings = t.bindings
        do {
            triggers = try BatchSQL.deleteTriggers(e.model, model: model.model)
        } catch {
            throw KeyPathError(message: "in variant \(model.model.variant), " + error.message, at: spec.entity == nil ? ".kind" : ".entity")
        }
        fetch = t.fetch
    }

    package func prepare(store: Store) throws { try delivery?.prepare(store: store) }

    package func run(store: Store) throws -> WorkloadOutcome {
        var n = 0
        if spec.kind == .batchDelete {
            let context = ManagedObjectContext(store: store, objectModel: model)
            if let delivery { _ = delivery.writer(context) }
            n = try context.batchDelete(sql: batchSQL, bindings: bindings, limit: spec.fetchLimit, triggers: triggers, entity: entity)
            try delivery?.afterBatch()
        } else {
            while true {
                let context = ManagedObjectContext(store: store, objectModel: model)
                if let delivery { _ = delivery.writer(context) }
                let objects = try context.execute(fetch).allObjects()
                for o in objects { try context.delete(o) }
                try context.save()
                try delivery?.afterSave(context)
                n += objects.count
                if spec.fetchLimit == 0 || objects.count < spec.fetchLimit { break }
            }
        }
        return WorkloadOutcome(rows: n, valuesRead: 0) {
            try self.delivery?.verify(store: store)
            return try self.logical.signature(store)
        }
    }
}
