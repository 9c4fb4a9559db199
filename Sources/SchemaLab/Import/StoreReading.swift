import Foundation
import SchemaLabCoreData
import SchemaLabEngine
import SchemaLabSQLite

/// `StoreModelReader`'s steps over one open store: the entities and the schema as read
/// first, then the foreign keys, the properties, the join tables and the indexes, each
/// adding to ``entities`` and to what the store cannot tell (``unknowns``).
struct StoreReading {
    /// One index of the store: its table, name, uniqueness and columns (name, descending).
    typealias Index = (table: String, name: String, unique: Bool, columns: [(String, Bool)])

    let db: Database
    /// The entities of `Z_PRIMARYKEY`, but Core Data's own, in number order.
    private(set) var entities: [ImportedModel.Entity] = []
    /// What the store cannot tell, in the order it was found.
    private(set) var unknowns: [String] = []
    /// The store has Core Data's persistent history tables (ACHANGE, ATRANSACTION).
    private(set) var hasPersistentHistory = false
    /// Each entity's name by its number.
    private var byNumber: [Int64: String] = [:]
    private let tableNames: Set<String>
    private let indexes: [Index]
    /// The columns of each entity's table but Z_PK, Z_ENT and Z_OPT, with their declared types.
    private var columnsByTable: [String: [(name: String, type: String)]] = [:]
    /// The foreign keys found: table -> column -> destination entity.
    private var foreignKeys: [String: [String: String]] = [:]
    /// INTEGER columns with a key's index whose destination the store does not tell.
    private var undecided: [String: Set<String>] = [:]

    /// Core Data's types by the declared type of a column.
    static let types = [
        "INTEGER": "Integer 64", "FLOAT": "Double", "TIMESTAMP": "Date", "VARCHAR": "String", "BLOB": "Binary", "DECIMAL": "Decimal",
    ]

    /// Reads the entities, the tables, the indexes and each entity table's columns.
    init(_ db: Database) throws {
        self.db = db
        let own = try ExistingStore.internalEntities(db)
        tableNames = Set(try db.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0[0].textValue })
        indexes = try Self.indexes(db)
        try readEntities(leavingOut: own)
        hasPersistentHistory = own.contains("CHANGE") && own.contains("TRANSACTION")
        unknowns =
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
    }

    /// Every index with its table, name, uniqueness and columns.
    private static func indexes(_ db: Database) throws -> [Index] {
        var indexes: [Index] = []
        for row in try db.rows("SELECT tbl_name, name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name") {
            guard let table = row[0].textValue, let name = row[1].textValue, let sql = row[2].textValue else { continue }
            let cols = try db.rows("SELECT name, desc FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno", [.text(name)])
                .map { ($0[0].textValue ?? "", ($0[1].integerValue ?? 0) != 0) }
            indexes.append((table, name, sql.uppercased().hasPrefix("CREATE UNIQUE"), cols))
        }
        return indexes
    }

    /// The entities of `Z_PRIMARYKEY` but `own`, with their parents, and the columns of each
    /// one's table.
    private mutating func readEntities(leavingOut own: Set<String>) throws {
        let keys = try db.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT").filter {
            !own.contains($0[1].textValue ?? "")
        }
        for k in keys { if let n = k[0].integerValue, let name = k[1].textValue { byNumber[n] = name } }
        for k in keys {
            guard let name = k[1].textValue else { continue }
            var e = ImportedModel.Entity(name: name, line: 0)
            if let sup = k[2].integerValue, sup != 0 { e.parentEntity = byNumber[sup] ?? "entity \(sup)" }
            let table = StoreLayout.table(root: name)
            if tableNames.contains(table) {
                columnsByTable[table] = try db.rows("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
                    .map { ($0[0].textValue ?? "", ($0[1].textValue ?? "").uppercased()) }
                    .filter { !StoreLayout.rowColumns.contains($0.0) }
            }
            entities.append(e)
        }
    }

    /// True when `column` of `table` has the index Core Data gives a to-one's key (and an
    /// indexed attribute): `<TABLE>_<COLUMN>_INDEX` on it alone.
    private func hasKeyIndex(_ table: String, _ column: String) -> Bool {
        indexes.contains {
            $0.table == table && $0.name == StoreLayout.columnIndex(table: table, column: column) && $0.columns.map(\.0) == [column]
        }
    }

    private func count(_ sql: String) throws -> Int64 { try db.scalar(sql).integerValue ?? 0 }

    /// The entity whose table is `table`.
    private func entity(ofTable table: String) -> String { entities.first { StoreLayout.table(root: $0.name) == table }!.name }

    // MARK: Foreign keys

    /// Core Data indexes every to-one's column as `<TABLE>_<COLUMN>_INDEX`, as it indexes an
    /// indexed attribute, so the index alone does not tell: a column is a key to the entity
    /// its name names when every value is one of that entity's Z_PK; else it is the other
    /// side of a one-to-one when it points at the rows of exactly one key pointing back.
    mutating func findForeignKeys() throws {
        let entityByStoredName = Dictionary(entities.map { ($0.name.uppercased(), $0.name) }, uniquingKeysWith: { a, _ in a })
        var candidates: [(table: String, column: String)] = []
        for e in entities {
            let t = StoreLayout.table(root: e.name)
            for c in columnsByTable[t] ?? [] where c.type == "INTEGER" && hasKeyIndex(t, c.name) {
                if let d = entityByStoredName[StoreLayout.storedName(c.name)], case let dt = StoreLayout.table(root: d),
                    tableNames.contains(dt),
                    try count("SELECT COUNT(*) FROM \(t) WHERE \(c.name) IS NOT NULL AND \(c.name) NOT IN (SELECT Z_PK FROM \(dt))") == 0
                {
                    foreignKeys[t, default: [:]][c.name] = d
                } else {
                    candidates.append((t, c.name))
                }
            }
        }
        for (t, c) in candidates {
            let entityName = entity(ofTable: t)
            var found: [String] = []
            for (dt, keys) in foreignKeys {
                for (back, dest) in keys where dest == entityName && dt != t {
                    if try mutual(t, c, dt, back) { found.append(entity(ofTable: dt)) }
                }
            }
            if found.count == 1 {
                foreignKeys[t, default: [:]][c] = found[0]
            } else {
                undecided[t, default: []].insert(c)
            }
        }
    }

    /// The other side of a one-to-one: column `c` of `t` points at the rows of `d` whose
    /// `back` points back at it (every non-NULL value, and at least one).
    private func mutual(_ t: String, _ c: String, _ d: String, _ back: String) throws -> Bool {
        try count("SELECT COUNT(*) FROM \(t) WHERE \(c) IS NOT NULL") > 0
            && count(
                "SELECT COUNT(*) FROM \(t) x WHERE x.\(c) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \(d) y WHERE y.Z_PK = x.\(c) AND y.\(back) = x.Z_PK)"
            ) == 0
    }

    // MARK: Properties

    /// Each entity table's columns: a foreign key is a to-one, Core Data's own columns are
    /// left out, the others are attributes.
    mutating func readProperties() throws {
        for i in entities.indices {
            let table = StoreLayout.table(root: entities[i].name)
            guard let columns = columnsByTable[table] else {
                if entities[i].parentEntity == nil { unknowns.append("\(entities[i].name) has no table \(table)") }
                continue
            }
            let name = entities[i].name
            for c in columns {
                if let d = foreignKeys[table]?[c.name] {
                    let r = try toOne(c.name, of: name, table: table, destination: d)
                    entities[i].relationships.append(r)
                } else if let a = attribute(c, table: table) {
                    entities[i].attributes.append(a)
                }
            }
        }
    }

    /// The to-one whose key is `column`, with its inverse when it is one side of a one-to-one
    /// pair (a column of the destination's table whose rows point back at these).
    private mutating func toOne(_ column: String, of entity: String, table: String, destination d: String) throws
        -> ImportedModel.Relationship
    {
        var r = ImportedModel.Relationship(name: StoreLayout.propertyName(column: column), destination: d, line: 0)
        r.maxCount = 1
        let dt = StoreLayout.table(root: d)
        let backs = try (foreignKeys[dt] ?? [:]).filter { $0.value == entity && dt != table }.keys.sorted()
            .filter { try mutual(dt, $0, table, column) }
        if backs.count == 1 {
            r.inverseName = StoreLayout.propertyName(column: backs[0])
        } else {
            unknowns.append("\(entity).\(r.name) is a to-one to \(d); its inverse (a to-many, if any) is not in the store")
        }
        return r
    }

    /// The attribute a column that is not a key holds; nil (and why, in ``unknowns``) for
    /// one of Core Data's own columns or one of a type Core Data does not use.
    private mutating func attribute(_ c: (name: String, type: String), table: String) -> ImportedModel.Attribute? {
        if StoreLayout.isCoreDataColumn(c.name) {
            unknowns.append("\(table).\(c.name) is a column of Core Data's own (ordered relationships, entity-typed keys): left out")
            return nil
        }
        guard let type = Self.types[c.type] else {
            unknowns.append("\(table).\(c.name) has the type \(c.type), which is not one of Core Data's: left out")
            return nil
        }
        var a = ImportedModel.Attribute(name: StoreLayout.propertyName(column: c.name), type: type, line: 0)
        a.indexed = hasKeyIndex(table, c.name)
        if undecided[table]?.contains(c.name) ?? false {
            unknowns.append(
                "\(table).\(c.name) may be a to-one relationship (Core Data indexes a foreign key as it indexes an attribute), but the store does not tell its destination: read as an indexed integer attribute, which makes the same table; rename and retype it in the scenario if you know better"
            )
        }
        return a
    }

    // MARK: Join tables and indexes

    /// Many-to-many join tables: `Z_<n><NAME> ( Z_<n><NAME>, Z_<m><NAME> )`, a column
    /// `Z_<n><NAME>` holding the keys of entity n, NAME being the relationship of the other
    /// entity that points at it.
    mutating func readJoinTables() throws {
        for t in tableNames.sorted() where StoreLayout.looksLikeJoinTable(t) {
            let cols = try db.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(t)]).compactMap { $0[0].textValue }
            let parsed = cols.compactMap(StoreLayout.joinColumnParts)
            guard parsed.count == 2, let a = byNumber[parsed[0].entityNumber], let b = byNumber[parsed[1].entityNumber],
                let ia = entities.firstIndex(where: { $0.name == a }), let ib = entities.firstIndex(where: { $0.name == b })
            else {
                if !StoreLayout.metadataTables.contains(t) {
                    unknowns.append("\(t) looks like a join table but its columns are not two entities' keys: left out")
                }
                continue
            }
            var ra = ImportedModel.Relationship(name: parsed[1].relationship, destination: b, line: 0)
            ra.toMany = true
            ra.inverseName = parsed[0].relationship
            var rb = ImportedModel.Relationship(name: parsed[0].relationship, destination: a, line: 0)
            rb.toMany = true
            rb.inverseName = parsed[1].relationship
            entities[ia].relationships.append(ra)
            entities[ib].relationships.append(rb)
        }
    }

    /// Fetch indexes, uniqueness constraints (a unique index) and R-tree fetch indexes (a
    /// virtual table), each named `Z_<Entity>_<name>`; a key's or an indexed attribute's own
    /// index was read with its column.
    mutating func readIndexes() throws {
        for i in entities.indices {
            let table = StoreLayout.table(root: entities[i].name)
            let prefix = StoreLayout.fetchIndexPrefix(entity: entities[i].name)
            for ix in indexes
            where ix.table == table && ix.name != StoreLayout.columnIndex(table: table, column: ix.columns.first?.0 ?? "") {
                let props = ix.columns.map { StoreLayout.propertyName(column: $0.0) }
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
                f.elements = cols.compactMap(StoreLayout.rtreeAttribute).map {
                    .init(property: $0, type: "RTree", descending: false, line: 0)
                }
                entities[i].fetchIndexes.append(f)
            }
        }
    }
}
