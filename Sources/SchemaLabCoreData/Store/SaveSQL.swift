/// The statements of a save, in the shapes Core Data's SQL debug logs show.
package enum SaveSQL {
    package static let beginExclusive = "BEGIN EXCLUSIVE"
    package static let commit = "COMMIT"
    package static let rollback = "ROLLBACK"
    package static let selectMax = "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?"
    package static let updateMax = "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?"

    /// `INSERT INTO ZPHOTO(Z_PK, Z_ENT, Z_OPT, <FKs>, <attributes>) VALUES(?, ...)`: foreign keys
    /// first, then attributes alphabetically, as Core Data's normalized inserts.
    package static func insert(_ entity: EntityModel) -> String {
        let cols = ["Z_PK", "Z_ENT", "Z_OPT"] + entity.toOneKeyColumns + entity.attributes.map(\.column)
        let marks = Array(repeating: "?", count: cols.count).joined(separator: ", ")
        return "INSERT INTO \(entity.table)(\(cols.joined(separator: ", "))) VALUES(\(marks))"
    }

    /// `UPDATE OR FAIL ZDAYCOUNT SET ZPOSTS = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?`: the
    /// changed columns (attributes, then foreign keys), the new version, and the
    /// optimistic-locking check (§3).
    package static func update(_ entity: EntityModel, columns: [String]) -> String {
        let sets = columns.map { "\($0) = ?" } + ["Z_OPT = ?"]
        return "UPDATE OR FAIL \(entity.table) SET \(sets.joined(separator: ", ")) WHERE Z_PK = ? AND Z_OPT = ?"
    }

    /// `DELETE FROM ZQUAKE WHERE Z_PK = ? AND Z_OPT = ?`: one deleted object (§3).
    package static func delete(_ entity: EntityModel) -> String {
        "DELETE FROM \(entity.table) WHERE Z_PK = ? AND Z_OPT = ?"
    }

    /// `DELETE FROM Z_2TAGS WHERE Z_2BOOKS = ? AND Z_3TAGS = ?`: one many-to-many link of a deleted object ([I]).
    package static func deleteLink(table: String, ownColumn: String, otherColumn: String) -> String {
        "DELETE FROM \(table) WHERE \(ownColumn) = ? AND \(otherColumn) = ?"
    }

    /// `INSERT INTO Z_2TAGS(Z_2BOOKS, Z_3TAGS) VALUES(?, ?)`: one many-to-many link, written
    /// from the side that names the join table (own Z_PK first).
    package static func insertLink(table: String, ownColumn: String, otherColumn: String, orderColumn: String? = nil) -> String {
        if let orderColumn { return "INSERT INTO \(table)(\(ownColumn), \(otherColumn), \(orderColumn)) VALUES(?, ?, ?)" }
        return "INSERT INTO \(table)(\(ownColumn), \(otherColumn)) VALUES(?, ?)"
    }

    /// `UPDATE ZITEM SET Z_FOK_PARENT = ? WHERE Z_PK = ?`: a member of an ordered one-to-many
    /// whose order key moved, without reading the member or checking its version: the
    /// framework writes order keys with statements of their own (its "correlation reorder"
    /// statements) ([I]: their text was not observed).
    package static func updateOrderKey(_ entity: EntityModel, column: String) -> String {
        "UPDATE \(entity.table) SET \(column) = ? WHERE Z_PK = ?"
    }

    /// `UPDATE Z_1ITEMS SET Z_FOK_2ITEMS = ? WHERE Z_1LISTS = ? AND Z_2ITEMS = ?`: a link of an
    /// ordered many-to-many whose order key moved ([I]).
    package static func updateLinkOrderKey(table: String, ownColumn: String, otherColumn: String, orderColumn: String) -> String {
        "UPDATE \(table) SET \(orderColumn) = ? WHERE \(ownColumn) = ? AND \(otherColumn) = ?"
    }
}
