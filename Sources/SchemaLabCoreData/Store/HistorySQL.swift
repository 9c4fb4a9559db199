import SchemaLabSQLite

/// Persistent history (`NSPersistentHistoryTrackingKey`): the tables of Core Data's
/// ancillary history model and the statements that write and read them (docs/coredata.md,
/// "Persistent history", gives the evidence for each, and says which parts are inferred).
///
/// The history model is a model of its own, numbered from 16000: `CHANGE` (16001),
/// `TRANSACTION` (16002) and `TRANSACTIONSTRING` (16003), whose tables take an `A` prefix
/// (`ACHANGE`), as rows read from a real store show. A transaction's author, context name,
/// bundle ID and process ID are interned in `ATRANSACTIONSTRING` and pointed at by the
/// `…TS` columns; the inline text columns beside them stay NULL, as in real stores.
package enum HistorySQL {
    /// `Z_ENT` of a change row, a transaction row and a transaction string.
    package static let changeEntity: Int64 = 16001
    package static let transactionEntity: Int64 = 16002
    package static let stringEntity: Int64 = 16003
    /// The history entities' names in `Z_PRIMARYKEY`, by number.
    package static let entityNames: [(number: Int64, name: String)] = [
        (changeEntity, "CHANGE"), (transactionEntity, "TRANSACTION"), (stringEntity, "TRANSACTIONSTRING"),
    ]
    package static let changeTable = "ACHANGE"
    package static let transactionTable = "ATRANSACTION"
    package static let stringTable = "ATRANSACTIONSTRING"
    /// The per-connection table the batch requests' triggers collect their changes in, before
    /// they are copied into ACHANGE with their transaction ([I]: the framework's name for it was
    /// not found).
    package static let pendingTable = "ZQ_PENDING_ACHANGE"

    /// `ZCHANGETYPE`: what happened to the object.
    package enum ChangeType: Int64, Sendable {
        case insert = 0
        case update = 1
        case delete = 2
    }

    /// The bundle ID and process name the lab's transactions carry (an app's would be its own).
    package static let bundleID = "org.schemalab.lab"
    package static let processID = "schemalab"

    /// The tables and indexes, in the order a new store creates them; `tombstones` is the
    /// largest number of attributes one entity keeps after deletion (`ZTOMBSTONE0…`).
    package static func statements(tombstones: Int) -> [String] {
        let tombstoneColumns = (0..<tombstones).map { ", ZTOMBSTONE\($0) BLOB" }.joined()
        var out = [
            "CREATE TABLE \(changeTable) ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, "
                + "ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB\(tombstoneColumns) )",
            "CREATE TABLE \(transactionTable) ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, "
                + "ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, "
                + "ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
            "CREATE TABLE \(stringTable) ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
        ]
        // Core Data's rule for every to-one's key (`<TABLE>_<COLUMN>_INDEX`), then the history
        // model's two fetch indexes and the strings' uniqueness constraint.
        for (table, column) in [
            (changeTable, "ZTRANSACTIONID"), (transactionTable, "ZAUTHORTS"), (transactionTable, "ZBUNDLEIDTS"),
            (transactionTable, "ZCONTEXTNAMETS"), (transactionTable, "ZPROCESSIDTS"),
        ] {
            out.append("CREATE INDEX IF NOT EXISTS \(StoreLayout.columnIndex(table: table, column: column)) ON \(table) (\(column))")
        }
        out.append(
            "CREATE INDEX IF NOT EXISTS Z_TRANSACTION_TransactionTimestampIndex ON \(transactionTable) (ZTIMESTAMP COLLATE BINARY ASC)")
        out.append("CREATE INDEX IF NOT EXISTS Z_TRANSACTION_TransactionAuthorIndex ON \(transactionTable) (ZAUTHOR COLLATE BINARY ASC)")
        out.append("CREATE UNIQUE INDEX IF NOT EXISTS Z_TRANSACTIONSTRING_UNIQUE_NAME ON \(stringTable) (ZNAME COLLATE BINARY ASC)")
        return out
    }

    // MARK: Writing

    package static let selectString = "SELECT Z_PK FROM \(stringTable) WHERE ZNAME = ?"
    package static let insertString = "INSERT INTO \(stringTable)(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)"
    package static let insertTransaction =
        "INSERT INTO \(transactionTable)(Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP, "
        + "ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID, ZQUERYGEN) VALUES(?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, NULL, NULL)"

    /// `INSERT INTO ACHANGE(Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS[, ZTOMBSTONE0…]) VALUES(?, …)`.
    package static func insertChange(tombstones: Int) -> String {
        let columns =
            ["Z_PK", "Z_ENT", "Z_OPT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS"]
            + (0..<tombstones).map { "ZTOMBSTONE\($0)" }
        return
            "INSERT INTO \(changeTable)(\(columns.joined(separator: ", "))) VALUES(\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
    }

    /// The per-connection table the batch triggers write: a change row without its key and
    /// transaction, one per object (`UNIQUE (ZENTITYPK, ZENTITY)`).
    package static func createPending(tombstones: Int) -> String {
        let tombstoneColumns = (0..<tombstones).map { ", ZTOMBSTONE\($0) BLOB" }.joined()
        return "CREATE TEMP TABLE IF NOT EXISTS \(pendingTable) ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZCHANGETYPE INTEGER, "
            + "ZENTITY INTEGER, ZENTITYPK INTEGER, ZCOLUMNS BLOB\(tombstoneColumns), UNIQUE (ZENTITYPK, ZENTITY) )"
    }

    package static let countPending = "SELECT COUNT(*) FROM \(pendingTable)"
    package static let clearPending = "DELETE FROM \(pendingTable)"

    /// Copies the collected changes into ACHANGE, numbered after the bound Z_MAX in the order
    /// they were collected, with the bound transaction ([I]: the framework's copy was not found).
    package static func copyPending(tombstones: Int) -> String {
        let tombstoneColumns = (0..<tombstones).map { ", ZTOMBSTONE\($0)" }.joined()
        return
            "INSERT INTO \(changeTable)(Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(tombstoneColumns)) "
            + "SELECT ? + ROW_NUMBER() OVER (ORDER BY Z_PK), \(changeEntity), 1, ZCHANGETYPE, ZENTITY, ZENTITYPK, ?, ZCOLUMNS\(tombstoneColumns) FROM \(pendingTable) ORDER BY Z_PK"
    }

    /// The temporary trigger that records a batch request's changes on `table`: Core Data's
    /// batch-delete template (`ZQ_<TABLE>_HISTORYBATCHDELETE_TRIGGER BEFORE DELETE … INSERT OR
    /// REPLACE INTO <temp> … SELECT 16001, Z_PK, Z_ENT, 2[, OLD.<tombstone>…] FROM <TABLE> WHERE
    /// Z_PK = OLD.Z_PK`), and the lab's insert and update triggers in the same shape ([I]).
    /// `columns` is the update's ZCOLUMNS mask as an SQL expression of blob literals (from the
    /// model, never from a value: `X'40'`, or a `CASE NEW.Z_ENT …` over sub-entities); `tombstones`
    /// the deleted row's values kept, one expression per slot (`OLD.ZREMOTEID`, or a `CASE`).
    package static func batchTrigger(
        _ type: ChangeType, table: String, columns: String = "NULL", updatedColumns: [String] = [], tombstones: [String] = []
    ) -> (create: String, drop: String) {
        let name: String
        let body: String
        switch type {
        case .insert:
            name = "ZQ_\(table)_HISTORYBATCHINSERT_TRIGGER"
            body =
                "INSERT OR REPLACE INTO \(pendingTable) (Z_ENT, ZENTITYPK, ZENTITY, ZCHANGETYPE) VALUES (\(changeEntity), NEW.Z_PK, NEW.Z_ENT, 0) ;"
            return (
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS \(name) AFTER INSERT ON \(table) FOR EACH ROW BEGIN \(body) END",
                "DROP TRIGGER IF EXISTS \(name)"
            )
        case .update:
            name = "ZQ_\(table)_HISTORYBATCHUPDATE_TRIGGER"
            body =
                "INSERT OR IGNORE INTO \(pendingTable) (Z_ENT, ZENTITYPK, ZENTITY, ZCHANGETYPE, ZCOLUMNS) VALUES (\(changeEntity), NEW.Z_PK, NEW.Z_ENT, 1, \(columns)) ;"
            let of = updatedColumns.isEmpty ? "" : " OF " + updatedColumns.joined(separator: ", ")
            return (
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS \(name) AFTER UPDATE\(of) ON \(table) FOR EACH ROW BEGIN \(body) END",
                "DROP TRIGGER IF EXISTS \(name)"
            )
        case .delete:
            name = "ZQ_\(table)_HISTORYBATCHDELETE_TRIGGER"
            let kept = tombstones.indices.map { ", ZTOMBSTONE\($0)" }.joined()
            let values = tombstones.map { ", \($0)" }.joined()
            body =
                "INSERT OR REPLACE INTO \(pendingTable) (Z_ENT, ZENTITYPK, ZENTITY, ZCHANGETYPE\(kept)) SELECT \(changeEntity), Z_PK, Z_ENT, 2\(values) FROM \(table) WHERE Z_PK = OLD.Z_PK;"
            return (
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS \(name) BEFORE DELETE ON \(table) FOR EACH ROW BEGIN \(body) END",
                "DROP TRIGGER IF EXISTS \(name)"
            )
        }
    }

    // MARK: Reading and purging

    /// How far back a history request goes: after a transaction (a token: its Z_PK), after a
    /// date (seconds since 2001-01-01), or from the start.
    package enum Start: Sendable, Equatable {
        case all
        case token(Int64)
        case date(Double)

        /// The value its comparison binds (none from the start).
        package var bindings: [SQLValue] {
            switch self {
            case .all: return []
            case .token(let token): return [.integer(token)]
            case .date(let seconds): return [.real(seconds)]
            }
        }
    }

    /// The transactions after `start`, with their author and context name (Core Data's fetch of
    /// the TRANSACTION entity, its strings read through the `…TS` keys).
    package static func fetchTransactions(after start: Start, author: Bool) -> String {
        var whereParts: [String] = []
        switch start {
        case .all: break
        case .token: whereParts.append("t0.Z_PK > ?")
        case .date: whereParts.append("t0.ZTIMESTAMP > ?")
        }
        if author { whereParts.append("t1.ZNAME = ?") }
        return
            "SELECT 0, t0.Z_PK, t0.ZTIMESTAMP, t1.ZNAME, t2.ZNAME FROM \(transactionTable) t0 LEFT OUTER JOIN \(stringTable) t1 ON t0.ZAUTHORTS = t1.Z_PK "
            + "LEFT OUTER JOIN \(stringTable) t2 ON t0.ZCONTEXTNAMETS = t2.Z_PK"
            + (whereParts.isEmpty ? "" : " WHERE ( " + whereParts.joined(separator: " AND ") + ")") + " ORDER BY t0.Z_PK"
    }

    /// The changes of those transactions (the prefetch of their CHANGES), or, for a tailored
    /// request on the CHANGE entity, only the changes of the `entities` (and one object, `object`).
    package static func fetchChanges(after start: Start, entities: Int, object: Bool, author: Bool) -> String {
        var whereParts: [String] = []
        var joins = ""
        switch start {
        case .all: break
        case .token: whereParts.append("t0.ZTRANSACTIONID > ?")
        case .date:
            joins += " JOIN \(transactionTable) t1 ON t0.ZTRANSACTIONID = t1.Z_PK"
            whereParts.append("t1.ZTIMESTAMP > ?")
        }
        if author {
            if !joins.contains(" t1 ") { joins += " JOIN \(transactionTable) t1 ON t0.ZTRANSACTIONID = t1.Z_PK" }
            joins += " JOIN \(stringTable) t2 ON t1.ZAUTHORTS = t2.Z_PK"
            whereParts.append("t2.ZNAME = ?")
        }
        if entities == 1 {
            whereParts.append("t0.ZENTITY = ?")
        } else if entities > 1 {
            whereParts.append("t0.ZENTITY IN (" + Array(repeating: "?", count: entities).joined(separator: ",") + ")")
        }
        if object { whereParts.append("t0.ZENTITYPK = ?") }
        return "SELECT 0, t0.Z_PK, t0.ZCHANGETYPE, t0.ZENTITY, t0.ZENTITYPK, t0.ZTRANSACTIONID, t0.ZCOLUMNS FROM \(changeTable) t0" + joins
            + (whereParts.isEmpty ? "" : " WHERE ( " + whereParts.joined(separator: " AND ") + ")") + " ORDER BY t0.ZTRANSACTIONID, t0.Z_PK"
    }

    /// `deleteHistory(before:)`: a batch delete of the TRANSACTION entity, whose CHANGES
    /// cascade (the delete rule of the history model), through the batch delete's temporary
    /// trigger.
    package static func purge(before start: Start) -> (create: String, delete: String, drop: String) {
        let name = "ZQ_\(transactionTable)_TRIGGER"
        let condition: String
        switch start {
        case .all: condition = ""
        case .token: condition = " WHERE  t0.Z_PK < ?"
        case .date: condition = " WHERE  t0.ZTIMESTAMP < ?"
        }
        return (
            "CREATE TEMPORARY TRIGGER IF NOT EXISTS \(name) AFTER DELETE ON \(transactionTable) FOR EACH ROW BEGIN DELETE FROM \(changeTable) WHERE ZTRANSACTIONID = OLD.Z_PK ; END",
            "DELETE FROM \(transactionTable) WHERE Z_PK IN (SELECT t0.Z_PK FROM \(transactionTable) t0\(condition))",
            "DROP TRIGGER IF EXISTS \(name)"
        )
    }
}
