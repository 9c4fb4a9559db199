import Foundation

/// The statements of Core Data's batch requests (NSBatchInsertRequest,
/// NSBatchUpdateRequest, NSBatchDeleteRequest), in the shapes its logs and framework
/// templates show (docs/statement-shapes.md, "Batch requests").
package enum BatchSQL {
    /// `INSERT INTO ZQUAKE(Z_PK, Z_ENT, Z_OPT, <FKs>, <attributes>) VALUES(?, …)`; with a
    /// uniqueness constraint, `INSERT OR IGNORE` (NSErrorMergePolicy) or `… ON CONFLICT(ZCODE)
    /// DO UPDATE SET Z_OPT = Z_OPT+1 , ZDEPTH = excluded.ZDEPTH , …` (property-object-trump:
    /// every attribute outside the constraint takes the incoming value).
    package static func insert(_ entity: EntityModel, policy: MergePolicy) -> String {
        let plain = SaveSQL.insert(entity)
        guard let constraint = entity.uniquenessConstraints.first else { return plain }
        switch policy {
        case .error:
            return plain.replacingOccurrences(of: "INSERT INTO", with: "INSERT OR IGNORE INTO", options: .anchored)
        case .objectTrump:
            let keys = Set(constraint.map(\.name))
            let sets =
                ["Z_OPT = Z_OPT+1"] + entity.attributes.filter { !keys.contains($0.name) }.map { "\($0.column) = excluded.\($0.column)" }
            return plain + " ON CONFLICT(\(constraint.map(\.column).joined(separator: ", "))) DO UPDATE SET "
                + sets.joined(separator: " , ")
        }
    }

    /// `UPDATE OR FAIL ZQUAKE AS t0 SET ZVALIDATED = ?, Z_OPT = (Z_OPT + 1) WHERE <predicate>`.
    package static func update(_ entity: EntityModel, attributes: [AttributeModel], whereSQL: String?) -> String {
        let sets = attributes.map { "\($0.column) = ?" } + ["Z_OPT = (Z_OPT + 1)"]
        return "UPDATE OR FAIL \(entity.table) AS t0 SET \(sets.joined(separator: ", "))" + (whereSQL.map { " WHERE " + $0 } ?? "")
    }

    /// `DELETE FROM ZQUAKE WHERE Z_PK IN (SELECT t0.Z_PK FROM ZQUAKE t0 [WHERE …] [LIMIT 1000])`,
    /// the fetchLimit written as a number, as Core Data writes it (0: none).
    package static func delete(_ entity: EntityModel, whereSQL: String?, limit: Int) -> String {
        "DELETE FROM \(entity.table) WHERE Z_PK IN (SELECT t0.Z_PK FROM \(entity.table) t0" + (whereSQL.map { " WHERE " + $0 } ?? "")
            + (limit > 0 ? " LIMIT \(limit)" : "") + ")"
    }

    /// What a batch delete must do to the rows related to each deleted row, as temporary
    /// triggers created before the DELETE and dropped after it (Core Data's `ZQ_…_TRIGGER`
    /// shape; the names are the lab's): cascade deletes the related rows, nullify clears
    /// the foreign key that points at the deleted row, and a many-to-many loses its links.
    /// Every entity whose rows a cascade reaches gets its own trigger (the connection runs
    /// `recursive_triggers=1`, so a cascaded DELETE fires the next one). Throws a message
    /// for rules the lab does not model anywhere along the way (deny; cascade over a
    /// many-to-many); the object delete path is checked with the same walk.
    package static func deleteTriggers(_ root: EntityModel, model: ResolvedModel) throws(KeyPathError) -> (create: [String], drop: [String])
    {
        var create: [String] = [], drop: [String] = []
        var queue = [root], seen: Set<String> = [root.name]
        while !queue.isEmpty {
            let e = queue.removeFirst()
            var actions: [String] = []
            for r in e.relationships {
                guard let dest = model.entity(r.destination) else { continue }
                let inverse = r.inverse.flatMap { dest.relationship($0) }
                switch (r.storage, r.deleteRule) {
                case (_, .noAction):
                    continue
                case (_, .deny):
                    throw KeyPathError(message: "\(e.name).\(r.name) has delete rule 'deny', which a delete workload does not model")
                case (.foreignKey(let fk), .cascade):
                    actions.append("DELETE FROM \(dest.table) WHERE Z_PK = OLD.\(fk)")
                case (.foreignKey(let fk), .nullify):
                    if let inv = inverse, let invFK = inv.foreignKeyColumn {
                        actions.append("UPDATE \(dest.table) SET \(invFK) = NULL, Z_OPT = (Z_OPT + 1) WHERE Z_PK = OLD.\(fk)")
                    }
                case (.inverseForeignKey(let fk), .cascade):
                    actions.append("DELETE FROM \(dest.table) WHERE \(fk) = OLD.Z_PK")
                case (.inverseForeignKey(let fk), .nullify):
                    actions.append("UPDATE \(dest.table) SET \(fk) = NULL, Z_OPT = (Z_OPT + 1) WHERE \(fk) = OLD.Z_PK")
                case (.joinTable, .cascade):
                    throw KeyPathError(
                        message: "\(e.name).\(r.name) is a many-to-many with delete rule 'cascade', which a delete workload does not model")
                case (.joinTable(let table, let own, _), .nullify):
                    actions.append("DELETE FROM \(table) WHERE \(own) = OLD.Z_PK")
                }
                if r.deleteRule == .cascade, seen.insert(dest.name).inserted { queue.append(dest) }
            }
            guard !actions.isEmpty else { continue }
            let name = "ZQ_\(e.table)_TRIGGER"
            create.append(
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS \(name) AFTER DELETE ON \(e.table) FOR EACH ROW BEGIN "
                    + actions.map { $0 + " ;" }.joined(separator: " ") + " END")
            drop.append("DROP TRIGGER IF EXISTS \(name)")
        }
        return (create, drop)
    }
}
