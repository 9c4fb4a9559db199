import Foundation
import SchemaLabSQLite

/// Persistent history: the transaction and change rows a save or a batch request writes, in
/// the same write transaction as its changes, when the model has history on (``HistorySQL``).
extension ManagedObjectContext {
    /// One change row before it is written: what happened to which object, the updated
    /// properties' mask and the values kept after deletion.
    struct PendingChange {
        let type: HistorySQL.ChangeType
        let entity: Int64
        let objectID: Int64
        let columns: SQLValue
        let tombstones: [SQLValue]
    }

    /// The change rows of the save about to be written (read before its UPDATEs and DELETEs
    /// run, so that a deleted object's tombstone values can still be read): one per inserted,
    /// updated and deleted object.
    func pendingHistory(_ perEntity: [[ManagedObject]]) throws -> [PendingChange] {
        guard objectModel.model.persistentHistory else { return [] }
        var out: [PendingChange] = []
        for e in objectModel.entities where !perEntity[e.number].isEmpty {
            for o in perEntity[e.number] {
                out.append(PendingChange(type: .insert, entity: Int64(e.number), objectID: o.objectID, columns: .null, tombstones: []))
            }
        }
        // Saved objects whose ordered to-many changed (an object inserted by this save has its
        // insert row only; its keys are already assigned, so the test is membership).
        let new = Set(inserted.map(ObjectIdentifier.init))
        var orderSlots: [ObjectIdentifier: (object: ManagedObject, slots: [Int])] = [:]
        var orderOnly: [ObjectIdentifier] = []
        for (o, index) in orderChanged where !o.isDeleted && !new.contains(ObjectIdentifier(o)) {
            let id = ObjectIdentifier(o)
            if orderSlots[id] == nil { orderOnly.append(id) }
            orderSlots[id, default: (o, [])].slots.append(index)
        }
        var written = Set<ObjectIdentifier>()
        for o in updated where !o.isDeleted {
            written.insert(ObjectIdentifier(o))
            let mask = HistoryColumns(entity: o.entity)
                .mask(attributes: o.changed, toOne: o.changedRelations, toMany: orderSlots[ObjectIdentifier(o)]?.slots ?? [])
            out.append(PendingChange(type: .update, entity: Int64(o.entity.number), objectID: o.objectID, columns: mask, tombstones: []))
        }
        for id in orderOnly where !written.contains(id) {
            guard let (object, slots) = orderSlots[id] else { continue }
            let mask = HistoryColumns(entity: object.entity).mask(attributes: [], toOne: [], toMany: slots)
            out.append(
                PendingChange(type: .update, entity: Int64(object.entity.number), objectID: object.objectID, columns: mask, tombstones: []))
        }
        for o in deleted {
            var kept: [SQLValue] = []
            let preserved = o.entity.model.attributes.indices.filter { o.entity.model.attributes[$0].preservesAfterDeletion }
            if !preserved.isEmpty {
                if o.isFault { try fireFault(o) }
                kept = try preserved.map { try attributeValue(o, $0) }
            }
            out.append(PendingChange(type: .delete, entity: Int64(o.entity.number), objectID: o.objectID, columns: .null, tombstones: kept))
        }
        return out
    }

    /// Writes one transaction row and its change rows (inside the save's transaction).
    func writeHistory(_ changes: [PendingChange]) throws {
        guard !changes.isEmpty else { return }
        let transaction = try writeTransactionRow()
        let tombstones = objectModel.model.tombstoneCount
        var pk = try allocateKeys(number: HistorySQL.changeEntity, name: "CHANGE", count: Int64(changes.count))
        let s = try db.statement(HistorySQL.insertChange(tombstones: tombstones))
        for c in changes {
            pk += 1
            try s.bind(pk, at: 1)
            try s.bind(HistorySQL.changeEntity, at: 2)
            try s.bind(Int64(1), at: 3)
            try s.bind(c.type.rawValue, at: 4)
            try s.bind(c.entity, at: 5)
            try s.bind(c.objectID, at: 6)
            try s.bind(transaction, at: 7)
            try s.bind(c.columns, at: 8)
            for i in 0..<tombstones { try s.bind(i < c.tombstones.count ? c.tombstones[i] : .null, at: Int32(9 + i)) }
            while try s.step() {}
            s.reset()
        }
    }

    /// The transaction row: its key from Z_PRIMARYKEY, the context's author and name and the
    /// lab's bundle ID and process name interned as transaction strings, and the time (seconds
    /// since 2001-01-01). Returns its Z_PK (the transaction's token).
    func writeTransactionRow() throws -> Int64 {
        let author = try internedString(transactionAuthor)
        let contextName = try internedString(name)
        let bundle = try internedString(HistorySQL.bundleID)
        let process = try internedString(HistorySQL.processID)
        let pk = try allocateKeys(number: HistorySQL.transactionEntity, name: "TRANSACTION", count: 1) + 1
        try db.execute(
            HistorySQL.insertTransaction,
            [
                .integer(pk), .integer(HistorySQL.transactionEntity), .integer(1), author, bundle, contextName, process,
                .real(Date().timeIntervalSinceReferenceDate),
            ])
        return pk
    }

    /// The key of `text` in ATRANSACTIONSTRING, written the first time it is used; NULL for none.
    func internedString(_ text: String?) throws -> SQLValue {
        guard let text else { return .null }
        if case .integer(let pk) = try db.scalar(HistorySQL.selectString, [.text(text)]) { return .integer(pk) }
        let pk = try allocateKeys(number: HistorySQL.stringEntity, name: "TRANSACTIONSTRING", count: 1) + 1
        try db.execute(HistorySQL.insertString, [.integer(pk), .integer(HistorySQL.stringEntity), .integer(1), .text(text)])
        return .integer(pk)
    }

    /// Runs a batch request's statements (`body`, inside its transaction) with history recorded
    /// the way Core Data records it: temporary triggers on the written table collect one change
    /// per row into a per-connection table; after the statement, one transaction row, the
    /// collected changes copied into ACHANGE with their keys, the triggers dropped. Without
    /// history, just `body`.
    func recordingBatchHistory(_ triggers: [(create: String, drop: String)?], _ body: () throws -> Void) throws {
        let triggers = triggers.compactMap { $0 }
        guard objectModel.model.persistentHistory, !triggers.isEmpty else { return try body() }
        let tombstones = objectModel.model.tombstoneCount
        try db.execute(HistorySQL.createPending(tombstones: tombstones))
        try db.execute(HistorySQL.clearPending)
        for t in triggers { try db.execute(t.create) }
        try body()
        for t in triggers { try db.execute(t.drop) }
        let count = try db.scalar(HistorySQL.countPending).integerValue ?? 0
        guard count > 0 else { return }
        let transaction = try writeTransactionRow()
        // The collected rows take the key block after Z_MAX, in the order the triggers wrote them.
        let old = try allocateKeys(number: HistorySQL.changeEntity, name: "CHANGE", count: count)
        try db.execute(HistorySQL.copyPending(tombstones: tombstones), [.integer(old), .integer(transaction)])
        try db.execute(HistorySQL.clearPending)
    }

    /// The history trigger for a batch request of `type` on `entity`'s table: for an update, the
    /// mask of the attributes it sets; for a delete, the attributes preserved after deletion.
    func historyTrigger(_ type: HistorySQL.ChangeType, entity: EntityDescription, attributes: [Int] = []) -> (create: String, drop: String)?
    {
        guard objectModel.model.persistentHistory else { return nil }
        let table = entity.model.table
        // The rows the request reaches: the entity's and its sub-entities' (one table), each
        // with its own slots and preserved attributes, chosen by the row's Z_ENT.
        let concrete = [entity] + entity.model.subentityNumbers.map { objectModel.entities[$0 - 1] }
        switch type {
        case .insert:
            return HistorySQL.batchTrigger(.insert, table: table)
        case .update:
            let names = attributes.map { entity.model.attributes[$0].name }
            let masks = concrete.map { e -> (Int, String) in
                let indexes = names.compactMap { name in e.model.attributes.firstIndex { $0.name == name } }
                guard case .blob(let bytes) = HistoryColumns(entity: e).mask(attributes: indexes, toOne: [], toMany: []) else {
                    return (e.number, "NULL")
                }
                return (e.number, "X'" + bytes.map { String(format: "%02X", $0) }.joined() + "'")
            }
            return HistorySQL.batchTrigger(
                .update, table: table, columns: Self.byEntity(masks, row: "NEW"),
                updatedColumns: attributes.map { entity.model.attributes[$0].column })
        case .delete:
            let kept = concrete.map { e in (e.number, e.model.attributes.filter(\.preservesAfterDeletion).map { "OLD." + $0.column }) }
            let slots = kept.map(\.1.count).max() ?? 0
            let tombstones = (0..<slots).map { i in Self.byEntity(kept.map { ($0.0, i < $0.1.count ? $0.1[i] : "NULL") }, row: "OLD") }
            return HistorySQL.batchTrigger(.delete, table: table, tombstones: tombstones)
        }
    }

    /// One SQL expression per entity number: the expression when all agree, else `CASE
    /// <row>.Z_ENT WHEN <n> THEN <expression> … ELSE NULL END` (the framework's form for
    /// sub-entities whose tombstones differ).
    private static func byEntity(_ expressions: [(Int, String)], row: String) -> String {
        guard let first = expressions.first?.1 else { return "NULL" }
        if expressions.allSatisfy({ $0.1 == first }) { return first }
        return "CASE \(row).Z_ENT " + expressions.map { "WHEN \($0.0) THEN \($0.1)" }.joined(separator: " ") + " ELSE NULL END"
    }
}

/// The ZCOLUMNS mask of an entity's updated properties: a bit vector of one bit per slot, bit
/// 0 the most significant bit of the first byte (CFBitVector's order), the slots in the
/// framework's order: to-one keys, their entity columns, their order columns, attributes, then
/// to-many relationships ([I]: the order inside each group is the lab's, the entity's own).
struct HistoryColumns {
    let entity: EntityDescription

    /// The mask with the bits of `attributes`, to-one slots `toOne` and to-many `toMany` set.
    func mask(attributes: [Int], toOne: [Int], toMany: [Int]) -> SQLValue {
        let keys = entity.toOne.count
        let entityColumns = entity.toOneHasEntityColumn.filter { $0 }.count
        let orderColumns = entity.toOneHasOrderColumn.filter { $0 }.count
        let attributeBase = keys + entityColumns + orderColumns
        let toManyBase = attributeBase + entity.attributeCount
        let bits = toManyBase + entity.toMany.count
        var bytes = [UInt8](repeating: 0, count: (bits + 7) >> 3)
        func set(_ slot: Int) { bytes[slot >> 3] |= 1 << (7 - UInt8(slot & 7)) }
        for j in toOne { set(j) }
        for a in attributes { set(attributeBase + a) }
        for m in toMany { set(toManyBase + m) }
        return .blob(bytes)
    }

    /// The attribute indexes whose bits `mask` has set.
    func attributes(in mask: [UInt8]) -> [Int] {
        let base = entity.toOne.count + entity.toOneHasEntityColumn.filter { $0 }.count + entity.toOneHasOrderColumn.filter { $0 }.count
        return (0..<entity.attributeCount).filter { a in
            let slot = base + a
            return slot >> 3 < mask.count && mask[slot >> 3] & (1 << (7 - UInt8(slot & 7))) != 0
        }
    }
}
