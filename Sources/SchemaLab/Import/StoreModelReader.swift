import Foundation
import SchemaLabSQLite
import SchemaLabCoreData
import SchemaLabEngine

/// Reads a ``ImportedModel`` from a Core Data SQLite store's own tables, for
/// `schemalab import STORE.sqlite` when no model file is at hand. The store is opened
/// read-only.
///
/// - Entities: the rows of `Z_PRIMARYKEY` (their names keep their case); `Z_SUPER` gives a
///   sub-entity's parent (which the importer then refuses).
/// - Attributes: the columns of `Z<ENTITY>` but Z_PK, Z_ENT and Z_OPT, typed from the
///   declared type (INTEGER as Integer 64, FLOAT as Double, TIMESTAMP as Date, VARCHAR as
///   String, BLOB as Binary, DECIMAL as Decimal), named by the column lower-cased.
/// - To-one relationships: an INTEGER column with Core Data's `<TABLE>_<COLUMN>_INDEX` whose
///   name (without its `Z`) is an entity's, or that a column of another table points back
///   at (a one-to-one pair, which are then each other's inverse).
/// - Many-to-many relationships: the join tables `Z_<n><NAME>` and their two columns.
/// - Indexes: `<TABLE>_<COLUMN>_INDEX` on an attribute is an indexed attribute;
///   `Z_<Entity>_<name>` is a fetch index (its columns' order from `PRAGMA index_xinfo`);
///   a unique index is a uniqueness constraint; an R-tree table `Z_<Entity>_<name>` is an
///   R-tree fetch index.
///
/// What a store cannot tell is listed in ``ImportedModel/unknowns``: names' original case,
/// the inverse of a to-one whose other side is a to-many, the exact types behind SQLite's
/// (Integer 16/32/64 or Boolean; Double or Float; String or URI; Binary, UUID or
/// Transformable), optionality, default values and delete rules.
public enum StoreModelReader {
    public static func read(path: String) throws -> ImportedModel {
        func fail(_ message: String) -> ModelImportError { ModelImportError(file: path, line: 0, element: "", message: message) }
        let snapshot: ExistingStore.Snapshot
        do { snapshot = try ExistingStore.open(path) } catch let e as StoreMismatch { throw fail(e.message) }
        do {
            return try read(snapshot.db, path: path)
        } catch let e as SQLiteError {
            throw fail("cannot read its tables as a Core Data store's: \(e)")
        }
    }

    static func read(_ db: Database, path: String) throws -> ImportedModel {
        let own = try ExistingStore.internalEntities(db)
        let keys = try db.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT").filter {
            !own.contains($0[1].textValue ?? "")
        }
        var byNumber: [Int64: String] = [:]
        for k in keys { if let n = k[0].integerValue, let name = k[1].textValue { byNumber[n] = name } }
        var entities: [ImportedModel.Entity] = []
        let types = [
            "INTEGER": "Integer 64", "FLOAT": "Double", "TIMESTAMP": "Date", "VARCHAR": "String", "BLOB": "Binary", "DECIMAL": "Decimal",
        ]
        let tableNames = Set(try db.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0[0].textValue })
        // Every index with its table, name, uniqueness and columns.
        var indexes: [(table: String, name: String, unique: Bool, columns: [(String, Bool)])] = []
        for row in try db.rows("SELECT tbl_name, name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name") {
            guard let table = row[0].textValue, let name = row[1].textValue, let sql = row[2].textValue else { continue }
            let cols = try db.rows("SELECT name, desc FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno", [.text(name)])
                .map { ($0[0].textValue ?? "", ($0[1].integerValue ?? 0) != 0) }
            indexes.append((table, name, sql.uppercased().hasPrefix("CREATE UNIQUE"), cols))
        }
        var columnsByTable: [String: [(name: String, type: String)]] = [:]
        for k in keys {
            guard let name = k[1].textValue else { continue }
            var e = ImportedModel.Entity(name: name, line: 0)
            if let sup = k[2].integerValue, sup != 0 { e.parentEntity = byNumber[sup] ?? "entity \(sup)" }
            let table = "Z" + name.uppercased()
            if tableNames.contains(table) {
                columnsByTable[table] = try db.rows("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
                    .map { ($0[0].textValue ?? "", ($0[1].textValue ?? "").uppercased()) }
                    .filter { !["Z_PK", "Z_ENT", "Z_OPT"].contains($0.0) }
            }
            entities.append(e)
        }
        let entityByUpper = Dictionary(entities.map { ($0.name.uppercased(), $0.name) }, uniquingKeysWith: { a, _ in a })
        func hasFKIndex(_ table: String, _ column: String) -> Bool {
            indexes.contains { $0.table == table && $0.name == "\(table)_\(column)_INDEX" && $0.columns.map(\.0) == [column] }
        }
        func table(_ entity: String) -> String { "Z" + entity.uppercased() }
        func count(_ sql: String) throws -> Int64 { try db.scalar(sql).integerValue ?? 0 }
        // Foreign keys. Core Data indexes every to-one's column as <TABLE>_<COLUMN>_INDEX, as it
        // indexes an indexed attribute, so the index alone does not tell: a column is a key to
        // the entity its name names when every value is one of that entity's Z_PK.
        var foreignKeys: [String: [String: String]] = [:]  // table -> column -> destination entity
        var candidates: [(table: String, column: String)] = []
        for e in entities {
            let t = table(e.name)
            for c in columnsByTable[t] ?? [] where c.type == "INTEGER" && hasFKIndex(t, c.name) {
                if let d = entityByUpper[String(c.name.dropFirst())], tableNames.contains(table(d)),
                    try count("SELECT COUNT(*) FROM \(t) WHERE \(c.name) IS NOT NULL AND \(c.name) NOT IN (SELECT Z_PK FROM \(table(d)))")
                        == 0
                {
                    foreignKeys[t, default: [:]][c.name] = d
                } else {
                    candidates.append((t, c.name))
                }
            }
        }
        // The other side of a one-to-one: a column that points at the rows pointing back at it
        // (every non-NULL value, and at least one).
        func mutual(_ t: String, _ c: String, _ d: String, _ back: String) throws -> Bool {
            try count("SELECT COUNT(*) FROM \(t) WHERE \(c) IS NOT NULL") > 0
                && count(
                    "SELECT COUNT(*) FROM \(t) x WHERE x.\(c) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \(d) y WHERE y.Z_PK = x.\(c) AND y.\(back) = x.Z_PK)"
                ) == 0
        }
        var undecided: [String: Set<String>] = [:]
        for (t, c) in candidates {
            let entityName = entities.first { table($0.name) == t }!.name
            var found: [String] = []
            for (dt, keys) in foreignKeys {
                for (back, dest) in keys where dest == entityName && dt != t {
                    if try mutual(t, c, dt, back) { found.append(entities.first { table($0.name) == dt }!.name) }
                }
            }
            if found.count == 1 {
                foreignKeys[t, default: [:]][c] = found[0]
            } else {
                undecided[t, default: []].insert(c)
            }
        }
        var unknowns: [String] =
            own.isEmpty
            ? []
            : [
                "Core Data's own entities (\(own.sorted().joined(separator: ", ")): persistent history or CloudKit, tables A...) are left out"
            ]
        unknowns += [
            "names keep the case of the store's columns (lower-cased): a store does not keep the model's camelCase",
            "types are SQLite's: INTEGER read as Integer 64 (Integer 16, Integer 32 and Boolean look the same), FLOAT as Double (or Float), VARCHAR as String (or URI), BLOB as Binary (or UUID, Transformable)",
            "optionality, default values and delete rules are not in a store: every attribute is optional, every rule nullify",
        ]
        for i in entities.indices {
            let table = "Z" + entities[i].name.uppercased()
            guard let columns = columnsByTable[table] else {
                if entities[i].parentEntity == nil { unknowns.append("\(entities[i].name) has no table \(table)") }
                continue
            }
            for c in columns {
                if let d = foreignKeys[table]?[c.name] {
                    var r = ImportedModel.Relationship(name: String(c.name.dropFirst()).lowercased(), destination: d, line: 0)
                    r.maxCount = 1
                    // A one-to-one pair: a column of the destination's table whose rows point back at these.
                    let dt = "Z" + d.uppercased()
                    let backs = try (foreignKeys[dt] ?? [:]).filter { $0.value == entities[i].name && dt != table }.keys.sorted()
                        .filter { try mutual(dt, $0, table, c.name) }
                    if backs.count == 1 {
                        r.inverseName = String(backs[0].dropFirst()).lowercased()
                    } else {
                        unknowns.append(
                            "\(entities[i].name).\(r.name) is a to-one to \(d); its inverse (a to-many, if any) is not in the store")
                    }
                    entities[i].relationships.append(r)
                    continue
                }
                if c.name.hasPrefix("Z_") || c.name.range(of: "^Z[0-9]", options: .regularExpression) != nil {
                    unknowns.append(
                        "\(table).\(c.name) is a column of Core Data's own (ordered relationships, entity-typed keys): left out")
                    continue
                }
                guard let type = types[c.type] else {
                    unknowns.append("\(table).\(c.name) has the type \(c.type), which is not one of Core Data's: left out")
                    continue
                }
                var a = ImportedModel.Attribute(name: String(c.name.dropFirst()).lowercased(), type: type, line: 0)
                a.indexed = hasFKIndex(table, c.name)
                if undecided[table]?.contains(c.name) ?? false {
                    unknowns.append(
                        "\(table).\(c.name) may be a to-one relationship (Core Data indexes a foreign key as it indexes an attribute), but the store does not tell its destination: read as an indexed integer attribute, which makes the same table; rename and retype it in the scenario if you know better"
                    )
                }
                entities[i].attributes.append(a)
            }
        }
        // Many-to-many join tables: Z_<n><NAME> ( Z_<n><NAME>, Z_<m><NAME> ).
        for t in tableNames.sorted() where t.range(of: "^Z_[0-9]+[A-Z0-9_]+$", options: .regularExpression) != nil {
            let cols = try db.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(t)]).compactMap { $0[0].textValue }
            let parsed = cols.compactMap { c -> (Int64, String)? in
                guard let m = c.range(of: "^Z_[0-9]+", options: .regularExpression), let n = Int64(c[m].dropFirst(2)) else { return nil }
                return (n, String(c[m.upperBound...]).lowercased())
            }
            guard parsed.count == 2, let a = byNumber[parsed[0].0], let b = byNumber[parsed[1].0],
                let ia = entities.firstIndex(where: { $0.name == a }), let ib = entities.firstIndex(where: { $0.name == b })
            else {
                if t != "Z_PRIMARYKEY" && t != "Z_METADATA" && t != "Z_MODELCACHE" {
                    unknowns.append("\(t) looks like a join table but its columns are not two entities' keys: left out")
                }
                continue
            }
            // Column Z_<n><NAME> holds the key of entity n; NAME is the relationship of the other entity pointing to it.
            var ra = ImportedModel.Relationship(name: parsed[1].1, destination: b, line: 0)
            ra.toMany = true
            ra.inverseName = parsed[0].1
            var rb = ImportedModel.Relationship(name: parsed[0].1, destination: a, line: 0)
            rb.toMany = true
            rb.inverseName = parsed[1].1
            entities[ia].relationships.append(ra)
            entities[ib].relationships.append(rb)
        }
        // Fetch indexes and uniqueness constraints.
        for i in entities.indices {
            let table = "Z" + entities[i].name.uppercased()
            let prefix = "Z_\(entities[i].name)_"
            for ix in indexes where ix.table == table && ix.name != "\(table)_\(ix.columns.first?.0 ?? "")_INDEX" {
                let props = ix.columns.map { String($0.0.dropFirst()).lowercased() }
                if ix.unique {
                    entities[i].uniquenessConstraints.append(props)
                } else if ix.name.hasPrefix(prefix), Identifier.isPlainName(String(ix.name.dropFirst(prefix.count))) {
                    var f = ImportedModel.FetchIndex(name: String(ix.name.dropFirst(prefix.count)), line: 0)
                    f.elements = zip(props, ix.columns).map { .init(property: $0.0, type: "Binary", descending: $0.1.1, line: 0) }
                    entities[i].fetchIndexes.append(f)
                } else {
                    unknowns.append("the index \(ix.name) on \(table) is not named as Core Data names indexes: left out")
                }
            }
            for row in try db.rows(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ? ESCAPE '\\' AND sql LIKE 'CREATE VIRTUAL TABLE%RTREE%'",
                [.text(prefix.replacingOccurrences(of: "_", with: "\\_") + "%")])
            {
                guard let name = row[0].textValue else { continue }
                let cols = try db.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(name)]).compactMap { $0[0].textValue }
                var f = ImportedModel.FetchIndex(name: String(name.dropFirst(prefix.count)), line: 0)
                f.elements = cols.filter { $0.hasSuffix("_MIN") }.map {
                    .init(property: String($0.dropFirst().dropLast(4)).lowercased(), type: "RTree", descending: false, line: 0)
                }
                entities[i].fetchIndexes.append(f)
            }
        }
        var model = ImportedModel(source: path, entities: entities)
        model.unknowns = unknowns
        return model
    }
}
