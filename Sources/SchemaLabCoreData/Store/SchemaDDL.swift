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
        for e in model.entities { out.append(createTable(e)) }
        out += joinTables()
        for e in model.entities {
            for r in e.toOneRelationships {
                let c = r.foreignKeyColumn!
                out.append("CREATE INDEX IF NOT EXISTS \(e.table)_\(c)_INDEX ON \(e.table) (\(c))")
            }
            for ix in e.indexes { out += indexStatements(ix, entity: e) }
        }
        out.append("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        for e in model.entities {
            out.append("INSERT INTO Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES(\(e.number), '\(e.name)', 0, 0)")
        }
        out.append("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        out.append("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
        return out
    }

    func createTable(_ e: EntityModel) -> String {
        var cols = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
        let byGroup = e.attributes.sorted { ($0.type.columnGroup, $0.column) < ($1.type.columnGroup, $1.column) }
        cols += byGroup.filter { $0.type.columnGroup == 0 }.map { "\($0.column) \($0.type.columnType)" }
        cols += e.toOneRelationships.map(\.foreignKeyColumn!).sorted().map { "\($0) INTEGER" }
        cols += byGroup.filter { $0.type.columnGroup > 0 }.map { "\($0.column) \($0.type.columnType)" }
        return "CREATE TABLE \(e.table) ( " + cols.joined(separator: ", ") + " )"
    }

    func joinTables() -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for e in model.entities {
            for r in e.relationships {
                guard case .joinTable(let table, let own, let other) = r.storage, seen.insert(table).inserted else { continue }
                let (a, b) = own < other ? (own, other) : (other, own)
                out.append("CREATE TABLE \(table) ( \(a) INTEGER, \(b) INTEGER, PRIMARY KEY (\(a), \(b)) )")
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
                return ["CREATE \(unique)INDEX IF NOT EXISTS \(ix.sqlName) ON \(e.table) (\(ix.elements[0].attribute.column))"]
            }
            let cols = ix.elements.map { "\($0.attribute.column) COLLATE BINARY \($0.descending ? "DESC" : "ASC")" }
            return ["CREATE \(unique)INDEX IF NOT EXISTS \(ix.sqlName) ON \(e.table) (\(cols.joined(separator: ", ")))"]
        case .rtree:
            let cols = ix.elements.flatMap { ["\($0.attribute.column)_MIN", "\($0.attribute.column)_MAX"] }
            let values = { (row: String) in
                ix.elements.flatMap { ["\(row).\($0.attribute.column)", "\(row).\($0.attribute.column)"] }.joined(separator: ", ")
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
