import Foundation

/// A Core Data SQLite store the user brings (`run --store`): checked against a variant,
/// copied (the original is only ever opened read-only), and given another variant's indexes.
///
/// A variant matches the store when the store's entities (`Z_PRIMARYKEY`) are the
/// variant's, and its tables, with their columns and declared types, are the tables the
/// variant's DDL makes (compared through `sqlite_master` and `PRAGMA table_info` against an
/// in-memory store made from the variant). Indexes may differ: they are what a variant
/// changes, by dropping the store's and creating its own on the copy.
public enum ExistingStore {
    /// The store at `path` opened for reading only; a clear error when it is not a Core Data store.
    public static func open(_ path: String) throws -> Database {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreMismatch(store: path, message: "no such file")
        }
        let db: Database
        do { db = try Database(path: path, readOnly: true) } catch {
            throw StoreMismatch(store: path, message: "cannot open it read-only: \(error)")
        }
        let hasKeys: Bool
        do { hasKeys = try !db.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'Z_PRIMARYKEY'").isEmpty } catch {
            throw StoreMismatch(store: path, message: "not a SQLite database (\(error))")
        }
        guard hasKeys else { throw StoreMismatch(store: path, message: "not a Core Data store: it has no Z_PRIMARYKEY table") }
        return db
    }

    /// Objects of `entity` in the store (rows of its table with its Z_ENT).
    public static func rowCount(_ db: Database, model: ObjectModel, entity: String) throws -> Int {
        guard let e = model.entity(entity) else { return 0 }
        return Int(try db.scalar("SELECT COUNT(*) FROM \(e.table)").integerValue ?? 0)
    }

    /// Throws a ``StoreMismatch`` naming every difference between the store's tables and the variant's.
    public static func check(_ db: Database, store: String, model: ObjectModel) throws {
        let expected = try Database(path: ":memory:")
        for sql in SchemaDDL(model: model).statements { try expected.executeScript(sql) }
        var problems: [String] = []
        let storeEntities = try db.rows("SELECT Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        for row in storeEntities where (row[1].integerValue ?? 0) != 0 {
            problems.append("entity \(row[0].textValue ?? "?") is a sub-entity (Z_SUPER \(row[1].integerValue!)): entity inheritance is not supported")
        }
        let have = Set(storeEntities.compactMap { $0[0].textValue }), want = Set(model.entities.map(\.name))
        if !want.subtracting(have).isEmpty { problems.append("Z_PRIMARYKEY lacks the entities \(want.subtracting(have).sorted().joined(separator: ", "))") }
        if !have.subtracting(want).isEmpty { problems.append("Z_PRIMARYKEY has entities the variant does not: \(have.subtracting(want).sorted().joined(separator: ", "))") }
        let tablesSQL = "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_node' AND name NOT LIKE '%_rowid' AND name NOT LIKE '%_parent' ORDER BY name"
        let storeTables = Set(try db.rows(tablesSQL).compactMap { $0[0].textValue })
        let modelTables = Set(try expected.rows(tablesSQL).compactMap { $0[0].textValue })
        for t in modelTables.subtracting(storeTables).sorted() { problems.append("the store has no table \(t)") }
        for t in storeTables.subtracting(modelTables).sorted() where !t.hasPrefix("ACH") && !t.hasPrefix("ATRANSACTION") {
            problems.append("the store has a table the variant does not make: \(t)")
        }
        for t in modelTables.intersection(storeTables).sorted() {
            let columns = { (d: Database) in
                Dictionary(try d.rows("SELECT name, type FROM pragma_table_info(?)", [.text(t)]).map { ($0[0].textValue ?? "", ($0[1].textValue ?? "").uppercased()) },
                           uniquingKeysWith: { a, _ in a })
            }
            let s = try columns(db), m = try columns(expected)
            for c in m.keys.sorted() {
                if let st = s[c] {
                    if st != m[c]! { problems.append("\(t).\(c) is \(st) in the store, \(m[c]!) in the variant") }
                } else {
                    problems.append("\(t) has no column \(c) (\(m[c]!))")
                }
            }
            for c in s.keys.sorted() where m[c] == nil { problems.append("\(t) has a column the variant does not: \(c) (\(s[c]!))") }
        }
        if !problems.isEmpty {
            throw StoreMismatch(store: store, message: "its tables do not match variant \(model.variant):\n  " + problems.joined(separator: "\n  "))
        }
    }

    /// Copies the store at `source` (read-only) to `path` with the backup API, then makes the
    /// copy's indexes the variant's: drops the store's others, creates the missing ones (an
    /// R-tree index is created and filled from its table). Returns the index names dropped and created.
    @discardableResult
    public static func copy(_ source: Database, to path: String, model: ObjectModel) throws -> (dropped: [String], created: [String]) {
        Store.remove(path: path)
        try source.backup(to: path)
        let db = try Database(path: path)
        let ddl = SchemaDDL(model: model)
        var wanted: [String: (statements: [String], fill: String?)] = [:]
        for e in model.entities {
            for r in e.toOneRelationships {
                let c = r.foreignKeyColumn!
                wanted["\(e.table)_\(c)_INDEX"] = (["CREATE INDEX IF NOT EXISTS \(e.table)_\(c)_INDEX ON \(e.table) (\(c))"], nil)
            }
            for ix in e.indexes {
                var fill: String?
                if ix.kind == .rtree {
                    let cols = ix.elements.flatMap { ["\($0.attribute.column)_MIN", "\($0.attribute.column)_MAX"] }
                    let values = ix.elements.flatMap { [$0.attribute.column, $0.attribute.column] }
                    fill = "INSERT INTO \(ix.sqlName) (Z_PK, \(cols.joined(separator: ", "))) SELECT Z_PK, \(values.joined(separator: ", ")) FROM \(e.table)"
                }
                wanted[ix.sqlName] = (ddl.indexStatements(ix, entity: e), fill)
            }
        }
        for s in ddl.joinTables() where s.hasPrefix("CREATE INDEX") {
            let name = String(s.split(separator: " ")[5])
            wanted[name] = ([s], nil)
        }
        // The store's own indexes and R-tree tables (their triggers go with them).
        let present = try db.rows("SELECT type, name FROM sqlite_master WHERE (type = 'index' AND sql IS NOT NULL) OR (type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%RTREE%') ORDER BY name")
        var dropped: [String] = [], created: [String] = []
        let names = Set(present.compactMap { $0[1].textValue })
        for row in present {
            guard let type = row[0].textValue, let name = row[1].textValue, wanted[name] == nil else { continue }
            let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            if type == "table" {
                for t in try db.rows("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE ? ESCAPE '\\'", [.text(name.replacingOccurrences(of: "_", with: "\\_") + "\\_%")]) {
                    try db.executeScript("DROP TRIGGER \"\(t[0].textValue!.replacingOccurrences(of: "\"", with: "\"\""))\"")
                }
                try db.executeScript("DROP TABLE \(quoted)")
            } else {
                try db.executeScript("DROP INDEX \(quoted)")
            }
            dropped.append(name)
        }
        for (name, w) in wanted.sorted(by: { $0.key < $1.key }) where !names.contains(name) {
            for s in w.statements { try db.executeScript(s) }
            if let fill = w.fill { try db.executeScript(fill) }
            created.append(name)
        }
        _ = try db.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        return (dropped, created)
    }
}

/// A store that cannot be used for a variant: which store, and every difference.
public struct StoreMismatch: Error, CustomStringConvertible, Sendable {
    public let store: String
    public let message: String
    public var description: String { "\(store): \(message)" }
}
