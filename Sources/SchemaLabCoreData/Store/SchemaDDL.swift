/// The DDL Core Data executes for a model, as its SQL debug logs show it: tables, indexes,
/// fetch indexes and R-tree indexes (see docs/coredata.md).
///
/// Column order inside CREATE TABLE follows Core Data's schema dumps ([I]): Z_PK,
/// Z_ENT, Z_OPT, then integer attributes, foreign keys, floats and timestamps,
/// decimals, strings, blobs, each group alphabetical.
public struct SchemaDDL {
    public let model: ResolvedModel

    public init(model: ResolvedModel) { self.model = model }

    /// Every statement, in the order the store runs them when it is created.
    public var statements: [String] {
        var out: [String] = []
        for e in model.entities where e.parent == nil { out.append(createTable(e)) }
        out += joinTables()
        var indexed = Set<String>()
        for e in model.entities {
            if e.parent == nil && e.hasSubentities {
                out.append("CREATE INDEX IF NOT EXISTS \(e.table)_Z_ENT_INDEX ON \(e.table) (Z_ENT)")
            }
            for r in e.toOneRelationships {
                let c = r.foreignKeyColumn!
                guard indexed.insert(e.table + "." + c).inserted else { continue }  // inherited: indexed once
                out.append("CREATE INDEX IF NOT EXISTS \(e.table)_\(c)_INDEX ON \(e.table) (\(c))")
            }
            for ix in e.indexes {
                // One non-unique element on a to-one: its foreign key's own index is that index.
                if ix.kind == .binary && ix.elements.count == 1 && ix.elements[0].attribute == nil && !ix.unique { continue }
                out += indexStatements(ix, entity: e)
            }
        }
        out.append("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        for e in model.entities {
            let superNumber = e.parent.flatMap { model.entity($0)?.number } ?? 0
            out.append("INSERT INTO Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES(\(e.number), '\(e.name)', \(superNumber), 0)")
        }
        out.append("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        out.append("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
        return out
    }

    /// The table of `root`'s hierarchy: the columns of every entity in it, in entity-number
    /// order (each entity's own attributes alphabetically, then its own to-one keys), then
    /// sorted by type, keeping that order within a type, as Core Data's `sortColumnsByType`
    /// does (a store dump with a hierarchy shows the root's integers, the root's keys, then
    /// each sub-entity's integers).
    func createTable(_ root: EntityModel) -> String {
        var columns: [(name: String, group: Int, type: String)] = []
        func add(_ name: String, _ group: Int, _ type: String) {
            if !columns.contains(where: { $0.name == name }) { columns.append((name, group, type)) }
        }
        for e in model.entities where e.root == root.name {
            for a in e.attributes.sorted(by: { $0.column < $1.column }) { add(a.column, a.type.columnGroup, a.type.columnType) }
            for c in e.toOneKeyColumns { add(c, 0, "INTEGER") }
        }
        let sorted = columns.enumerated().sorted { ($0.element.group, $0.offset) < ($1.element.group, $1.offset) }.map(\.element)
        let cols = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"] + sorted.map { "\($0.name) \($0.type)" }
        return "CREATE TABLE \(root.table) ( " + cols.joined(separator: ", ") + " )"
    }

    func joinTables() -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for e in model.entities {
            for r in e.relationships {
                // Written by the side that names the table (the lower entity number), its own
                // column first: `Z_5TAGS ( Z_5NOTES INTEGER, Z_13TAGS INTEGER, PRIMARY KEY (Z_5NOTES, Z_13TAGS) )`.
                guard case .joinTable(let table, let own, let other) = r.storage, table == "Z_\(e.number)\(r.name.uppercased())",
                    seen.insert(table).inserted
                else { continue }
                let (a, b) = (own, other)
                // An ordered side keeps its order keys here, before the key (Core Data's template).
                let orders = ([r] + (model.entity(r.destination)?.relationship(r.inverse ?? "").map { [$0] } ?? []))
                    .compactMap(\.orderColumn).map { "\($0) INTEGER, " }.joined()
                out.append("CREATE TABLE \(table) ( \(a) INTEGER, \(b) INTEGER, \(orders)PRIMARY KEY (\(a), \(b)) )")
                out.append("CREATE INDEX IF NOT EXISTS \(table)_\(b)_INDEX ON \(table) (\(b), \(a))")
            }
        }
        return out
    }

    func indexStatements(_ ix: IndexModel, entity e: EntityModel) -> [String] {
        switch ix.kind {
        case .binary:
            let unique = ix.unique ? "UNIQUE " : ""
            if ix.attributeStyle {
                return ["CREATE \(unique)INDEX IF NOT EXISTS \(ix.sqlName) ON \(e.table) (\(ix.elements[0].column))"]
            }
            let cols = ix.elements.map { "\($0.column) COLLATE BINARY \($0.descending ? "DESC" : "ASC")" }
            return ["CREATE \(unique)INDEX IF NOT EXISTS \(ix.sqlName) ON \(e.table) (\(cols.joined(separator: ", ")))"]
        case .rtree:
            let cols = ix.elements.flatMap { ["\($0.column)_MIN", "\($0.column)_MAX"] }
            let values = { (row: String) in
                ix.elements.flatMap { ["\(row).\($0.column)", "\(row).\($0.column)"] }.joined(separator: ", ")
            }
            let colList = (["Z_PK"] + cols).joined(separator: ", ")
            let t = ix.sqlName
            return [
                "CREATE VIRTUAL TABLE IF NOT EXISTS \(t) USING RTREE (Z_PK INTEGER PRIMARY KEY, \(cols.joined(separator: ", ")))",
                "CREATE TRIGGER IF NOT EXISTS \(t)_INSERT AFTER INSERT ON \(e.table) FOR EACH ROW BEGIN INSERT OR REPLACE INTO \(t) (\(colList)) VALUES (NEW.Z_PK, \(values("NEW"))) ; END",
                "CREATE TRIGGER IF NOT EXISTS \(t)_UPDATE AFTER UPDATE ON \(e.table) FOR EACH ROW BEGIN DELETE FROM \(t) WHERE Z_PK = NEW.Z_PK ; INSERT INTO \(t) (\(colList)) VALUES (NEW.Z_PK, \(values("NEW"))) ; END",
                "CREATE TRIGGER IF NOT EXISTS \(t)_DELETE AFTER DELETE ON \(e.table) FOR EACH ROW BEGIN DELETE FROM \(t) WHERE Z_PK = OLD.Z_PK ; END",
            ]
        }
    }
}
