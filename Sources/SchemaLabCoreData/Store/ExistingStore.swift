import Foundation
import SchemaLabSQLite

/// A Core Data SQLite store the user brings (`run --store`, `import STORE.sqlite`): copied,
/// checked against a variant, and given the variant's indexes on the copy.
///
/// The original is never opened by SQLite: its files (the database and, when there is
/// one, its `-wal`) are copied as files (``snapshot(_:to:)``), and SQLite opens the copy,
/// which takes in the WAL's content. So nothing is written beside the user's store, not
/// even a `-shm` file.
///
/// A variant matches the store when the store's entities (`Z_PRIMARYKEY`, but Core Data's
/// own: the persistent history's and CloudKit's, whose tables start with `A`) are the
/// variant's, and its `Z` tables, with their columns and declared types, are the tables the
/// variant's DDL makes (compared through `sqlite_master` and `PRAGMA table_info` against an
/// in-memory store made from the variant). Indexes may differ: they are what a variant
/// changes, by dropping the store's and creating its own on the copy.
package enum ExistingStore {
    /// Copies the store's files at `source` to `path`: the database, its external binary data
    /// (``Store/copy(from:to:)``) and its `-wal`; throws a clear error when there is no such file.
    package static func snapshot(_ source: String, to path: String) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: source, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw StoreMismatch(store: source, message: "no such file")
        }
        Store.remove(path: path)
        // The copy is from elsewhere: every connection to it gets SQLite's defensive settings.
        Database.markUntrusted(path)
        do {
            try Store.copy(from: source, to: path)
            if fm.fileExists(atPath: source + "-wal") { try fm.copyItem(atPath: source + "-wal", toPath: path + "-wal") }
        } catch {
            throw StoreMismatch(store: source, message: "cannot copy it: \(error.localizedDescription)")
        }
    }

    /// A copy of the store at `source` in a new temporary directory, open; the directory goes
    /// with the returned value. A clear error when it is not a Core Data store.
    package static func open(_ source: String) throws -> Snapshot {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("schemalab-store-" + UUID().uuidString).path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let snapshot = Snapshot(directory: dir)
        let path = dir + "/store.sqlite"
        try Self.snapshot(source, to: path)
        let db: Database
        do { db = try Database(path: path) } catch { throw StoreMismatch(store: source, message: "cannot open it: \(error)") }
        let hasKeys: Bool
        do { hasKeys = try !db.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'Z_PRIMARYKEY'").isEmpty } catch {
            throw StoreMismatch(store: source, message: "not a SQLite database (\(error))")
        }
        guard hasKeys else { throw StoreMismatch(store: source, message: "not a Core Data store: it has no Z_PRIMARYKEY table") }
        try checkBounds(db, store: source)
        snapshot.db = db
        return snapshot
    }

    /// The most schema objects (tables, indexes, views, triggers) and entities a store from
    /// elsewhere may have: the largest real apps' models have hundreds; a store past these is
    /// refused before the lab reads its schema table by table.
    package static let maxSchemaObjects = 10_000
    package static let maxEntities = 5_000

    /// Refuses a store whose schema is too large to be a Core Data model's (with two COUNTs, so
    /// the refusal takes as long as reading the schema once).
    static func checkBounds(_ db: Database, store: String) throws {
        let objects: Int, entities: Int
        do {
            objects = Int(try db.scalar("SELECT COUNT(*) FROM sqlite_master").integerValue ?? 0)
            entities = Int(try db.scalar("SELECT COUNT(*) FROM Z_PRIMARYKEY").integerValue ?? 0)
        } catch {
            throw StoreMismatch(store: store, message: "cannot read its schema (\(error))")
        }
        guard objects <= maxSchemaObjects else {
            throw StoreMismatch(
                store: store,
                message: "\(objects) tables, indexes, views and triggers: more than the \(maxSchemaObjects) a store from elsewhere may have"
            )
        }
        guard entities <= maxEntities else {
            throw StoreMismatch(
                store: store, message: "\(entities) entities in Z_PRIMARYKEY: more than the \(maxEntities) a store from elsewhere may have")
        }
    }

    /// A temporary copy of a store, open; removed when it goes.
    package final class Snapshot {
        let directory: String
        package fileprivate(set) var db: Database!
        init(directory: String) { self.directory = directory }
        deinit {
            db = nil
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Objects of `entity` in the store (rows of its table).
    package static func rowCount(_ db: Database, model: ResolvedModel, entity: String) throws -> Int {
        guard let e = model.entity(entity) else { return 0 }
        return Int(try db.scalar("SELECT COUNT(*) FROM \(e.table)").integerValue ?? 0)
    }

    /// The rows of `Z_PRIMARYKEY` that are Core Data's own entities (persistent history,
    /// CloudKit mirroring): their table is `A<NAME>`, not `Z<NAME>`.
    package static func internalEntities(_ db: Database) throws -> Set<String> {
        let tables = Set(try db.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0[0].textValue })
        let names = try db.rows("SELECT Z_NAME FROM Z_PRIMARYKEY").compactMap { $0[0].textValue }
        return Set(
            names.filter { !tables.contains(StoreLayout.table(root: $0)) && tables.contains(StoreLayout.internalTable(entity: $0)) })
    }

    /// The store's own tables: those starting with `Z` (entities, join tables, Core Data's
    /// metadata), without R-tree tables and their shadow tables.
    static func userTables(_ db: Database) throws -> Set<String> {
        let rows = try db.rows("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
        let virtual = rows.filter { ($0[1].textValue ?? "").uppercased().hasPrefix("CREATE VIRTUAL TABLE") }.compactMap { $0[0].textValue }
        let shadows = Set(virtual.flatMap { v in ["_node", "_rowid", "_parent"].map { v + $0 } })
        return Set(
            rows.compactMap { $0[0].textValue }.filter { StoreLayout.isStoreTable($0) && !virtual.contains($0) && !shadows.contains($0) })
    }

    /// Throws a `StoreMismatch` naming every difference between the store's tables and the variant's.
    package static func check(_ db: Database, store: String, model: ResolvedModel) throws {
        let expected = try Database(path: ":memory:")
        for sql in SchemaDDL(model: model).statements { try expected.executeScript(sql) }
        var problems: [String] = []
        let own = try internalEntities(db)
        let storeEntities = try db.rows("SELECT Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT").filter {
            !own.contains($0[0].textValue ?? "")
        }
        for row in storeEntities where (row[1].integerValue ?? 0) != 0 {
            problems.append(
                "entity \(row[0].textValue ?? "?") is a sub-entity (Z_SUPER \(row[1].integerValue!)): entity inheritance is not supported")
        }
        let have = Set(storeEntities.compactMap { $0[0].textValue }), want = Set(model.entities.map(\.name))
        if !want.subtracting(have).isEmpty {
            problems.append("Z_PRIMARYKEY lacks the entities \(want.subtracting(have).sorted().joined(separator: ", "))")
        }
        if !have.subtracting(want).isEmpty {
            problems.append("Z_PRIMARYKEY has entities the variant does not: \(have.subtracting(want).sorted().joined(separator: ", "))")
        }
        let storeTables = try userTables(db), modelTables = try userTables(expected)
        for t in modelTables.subtracting(storeTables).sorted() { problems.append("the store has no table \(t)") }
        for t in storeTables.subtracting(modelTables).sorted() { problems.append("the store has a table the variant does not make: \(t)") }
        for t in modelTables.intersection(storeTables).sorted() {
            let columns = { (d: Database) in
                Dictionary(
                    try d.rows("SELECT name, type FROM pragma_table_info(?)", [.text(t)]).map {
                        ($0[0].textValue ?? "", ($0[1].textValue ?? "").uppercased())
                    },
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
            throw StoreMismatch(
                store: store, message: "its tables do not match variant \(model.variant):\n  " + problems.joined(separator: "\n  "))
        }
    }

    /// How an index is defined: unique or not, its columns with their order and collation
    /// (or an R-tree's columns), for telling a same-named index of another definition.
    static func definition(_ db: Database, index name: String, table: String?) throws -> String {
        if let table {
            let unique =
                try db.rows("SELECT \"unique\" FROM pragma_index_list(?) WHERE name = ?", [.text(table), .text(name)]).first?[0]
                .integerValue ?? 0
            let cols = try db.rows("SELECT name, desc, coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno", [.text(name)])
                .map { "\($0[0].textValue ?? "?") \($0[1].integerValue ?? 0) \($0[2].textValue ?? "")" }
            return "\(unique) " + cols.joined(separator: ", ")
        }
        return "rtree "
            + (try db.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(name)]).compactMap { $0[0].textValue }.joined(
                separator: ", "))
    }

    /// Copies the store's files at `source` to `path`, then makes the copy's indexes the
    /// variant's: drops the store's others (and those of the same name but another
    /// definition), creates the missing ones (an R-tree index is created and filled from its
    /// table). Returns the index names dropped and created.
    @discardableResult
    package static func copy(_ source: String, to path: String, model: ResolvedModel) throws -> (dropped: [String], created: [String]) {
        try snapshot(source, to: path)
        let db = try Database(path: path)
        let expected = try Database(path: ":memory:")
        let ddl = SchemaDDL(model: model)
        for sql in ddl.statements { try expected.executeScript(sql) }
        var wanted: [String: (statements: [String], fill: String?, table: String?)] = [:]
        for e in model.entities {
            for r in e.toOneRelationships {
                let index = SchemaDDL.foreignKeyIndex(table: e.table, column: r.foreignKeyColumn!)
                wanted[index.name] = ([index.statement], nil, e.table)
            }
            for ix in e.indexes {
                var fill: String?
                if ix.kind == .rtree {
                    let cols = ix.elements.map { StoreLayout.rtreeColumns(column: $0.column) }.flatMap { [$0.min, $0.max] }
                    let values = ix.elements.flatMap { [$0.column, $0.column] }
                    fill =
                        "INSERT INTO \(ix.sqlName) (Z_PK, \(cols.joined(separator: ", "))) SELECT Z_PK, \(values.joined(separator: ", ")) FROM \(e.table)"
                }
                wanted[ix.sqlName] = (ddl.indexStatements(ix, entity: e), fill, ix.kind == .rtree ? nil : e.table)
            }
        }
        for join in ddl.joinTables() { wanted[join.indexName] = ([join.index], nil, join.table) }
        // The store's own indexes and R-tree tables (their triggers go with them).
        let present = try db.rows(
            "SELECT type, name, tbl_name FROM sqlite_master WHERE (type = 'index' AND sql IS NOT NULL) OR (type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%RTREE%') ORDER BY name"
        )
        var dropped: [String] = [], created: [String] = []
        var kept = Set<String>()
        for row in present {
            guard let type = row[0].textValue, let name = row[1].textValue else { continue }
            if let w = wanted[name],
                try definition(db, index: name, table: type == "index" ? row[2].textValue : nil)
                    == definition(expected, index: name, table: w.table)
            {
                kept.insert(name)
                continue
            }
            if type == "table" {
                for suffix in ["_INSERT", "_UPDATE", "_DELETE"] {
                    try db.executeScript("DROP TRIGGER IF EXISTS " + StoreLayout.quoted(name + suffix))
                }
                try db.executeScript("DROP TABLE " + StoreLayout.quoted(name))
            } else {
                try db.executeScript("DROP INDEX " + StoreLayout.quoted(name))
            }
            dropped.append(name)
        }
        for (name, w) in wanted.sorted(by: { $0.key < $1.key }) where !kept.contains(name) {
            for s in w.statements { try db.executeScript(s) }
            if let fill = w.fill { try db.executeScript(fill) }
            created.append(name)
        }
        _ = try db.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        return (dropped, created)
    }
}

/// A store that cannot be used for a variant: which store, and every difference.
package struct StoreMismatch: Error, CustomStringConvertible, Sendable {
    package let store: String
    package let message: String
    package var description: String { "\(store): \(message)" }
}
