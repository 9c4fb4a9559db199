/// The DDL Core Data executes for a model, as its SQL debug logs show it: tables, indexes,
/// fetch indexes and R-tree indexes (see docs/coredata.md).
///
/// Column order inside CREATE TABLE follows Core Data's schema dumps ([I]): Z_PK,
/// Z_ENT, Z_OPT, then integer attributes, foreign keys, floats and timestamps,
/// decimals, strings, blobs, each group alphabetical.
package struct SchemaDDL {
    package let model: ResolvedModel

    package init(model: ResolvedModel) { self.model = model }

    /// Every statement, in the order the store runs them when it is created.
    package var statements: [String] {
        var out: [String] = []
        for e in model.entities where e.parent == nil { out.append(createTable(e)) }
        out += joinTables().flatMap { [$0.create, $0.index] }
        var indexed = Set<String>()
        for e in model.entities {
            if e.parent == nil && e.hasSubentities {
                out.append("CREATE INDEX IF NOT EXISTS \(StoreLayout.entityIndex(table: e.table)) ON \(e.table) (Z_ENT)")
            }
            for r in e.toOneRelationships {
                let c = r.foreignKeyColumn!
                guard indexed.insert(e.table + "." + c).inserted else { continue }  // inherited: indexed once
                out.append(Self.foreignKeyIndex(table: e.table, column: c).statement)
            }
            for ix in e.indexes {
                // One non-unique element on a to-one: its foreign key's own index is that index.
                if ix.kind == .binary && ix.elements.count == 1 && ix.elements[0].attribute == nil && !ix.unique { continue }
                out += indexStatements(ix, entity: e)
            }
        }
        for e in model.entities { out += derivedAttributeTriggers(e) }
        out.append("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        for e in model.entities {
            let superNumber = e.parent.flatMap { model.entity($0)?.number } ?? 0
            out.append("INSERT INTO Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES(\(e.number), '\(e.name)', \(superNumber), 0)")
        }
        if model.persistentHistory {
            out += HistorySQL.statements(tombstones: model.tombstoneCount)
            for (number, name) in HistorySQL.entityNames {
                out.append("INSERT INTO Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES(\(number), '\(name)', 0, 0)")
            }
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

    /// The index Core Data gives every to-one's key column: its name and its statement.
    static func foreignKeyIndex(table: String, column: String) -> (name: String, statement: String) {
        let name = StoreLayout.columnIndex(table: table, column: column)
        return (name, "CREATE INDEX IF NOT EXISTS \(name) ON \(table) (\(column))")
    }

    /// A join table's statements: its CREATE TABLE, and the index on its second column (named,
    /// for `ExistingStore` to make on a store's copy).
    struct JoinTable {
        let table: String
        let create: String
        let indexName: String
        let index: String
    }

    /// Each many-to-many's join table, once.
    func joinTables() -> [JoinTable] {
        var seen = Set<String>()
        var out: [JoinTable] = []
        for e in model.entities {
            for r in e.relationships {
                // Written by the side that names the table (the lower entity number), its own
                // column first: `Z_5TAGS ( Z_5NOTES INTEGER, Z_13TAGS INTEGER, PRIMARY KEY (Z_5NOTES, Z_13TAGS) )`.
                guard case .joinTable(let table, let own, let other) = r.storage,
                    StoreLayout.namesJoinTable(table, entityNumber: e.number, relationship: r.name), seen.insert(table).inserted
                else { continue }
                let (a, b) = (own, other)
                // An ordered side keeps its order keys here, before the key (Core Data's template).
                let orders = ([r] + (model.entity(r.destination)?.relationship(r.inverse ?? "").map { [$0] } ?? []))
                    .compactMap(\.orderColumn).map { "\($0) INTEGER, " }.joined()
                let index = StoreLayout.columnIndex(table: table, column: b)
                out.append(
                    JoinTable(
                        table: table, create: "CREATE TABLE \(table) ( \(a) INTEGER, \(b) INTEGER, \(orders)PRIMARY KEY (\(a), \(b)) )",
                        indexName: index, index: "CREATE INDEX IF NOT EXISTS \(index) ON \(table) (\(b), \(a))"))
            }
        }
        return out
    }

    /// The triggers that keep an entity's derived attributes (those it declares, not inherits),
    /// named and shaped as Core Data's (`Z_DA_<TABLE>_<Entity>_<attribute>[_SOURCE|_PARAMETER]_<EVENT>`;
    /// docs/coredata.md, "Derived attributes"): each updates the column, then calls the
    /// callback through which Core Data refreshes objects in memory.
    func derivedAttributeTriggers(_ e: EntityModel) -> [String] {
        let inherited = Set(e.parent.flatMap { model.entity($0) }?.attributes.map(\.name) ?? [])
        var out: [String] = []
        let t = e.table
        // A shared table: only this entity's rows (and those below it).
        let guardClause: (String) -> String = { row in
            guard e.sharesTable else { return "" }
            guard let last = e.subentityNumbers.max() else { return " WHEN \(e.number) = \(row).Z_ENT" }
            return " WHEN \(e.number) <= \(row).Z_ENT AND \(row).Z_ENT <= \(last)"
        }
        for a in e.attributes where !inherited.contains(a.name) {
            guard let derivation = a.derivation else { continue }
            let base = "Z_DA_\(t)_\(e.name)_\(a.name)"
            let c = a.column
            func notify(_ function: String, _ key: String) -> String {
                "SELECT \(function)('\(t)', Z_ENT, Z_PK, '\(a.name)', \(c)) FROM \(t) WHERE Z_PK = \(key);"
            }
            let inserted = "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"
            let updated = "NSCoreDataDATriggerUpdatedAffectedObjectValue"
            switch derivation {
            case .function, .attribute, .now:
                let value: String
                let sources: String
                switch derivation {
                case .function(let f, let source): value = "\(f)(NEW.\(source))"; sources = source
                case .attribute(let source): value = "NEW.\(source)"; sources = source
                default: value = "NSCoreDataNow()"; sources = "Z_OPT"
                }
                let set = "UPDATE \(t) SET \(c) = \(value) WHERE Z_PK = NEW.Z_PK;"
                out.append(
                    "CREATE TRIGGER IF NOT EXISTS \(base)_INSERT AFTER INSERT ON \(t) FOR EACH ROW\(guardClause("NEW")) BEGIN \(set) \(notify(inserted, "NEW.Z_PK")) END"
                )
                out.append(
                    "CREATE TRIGGER IF NOT EXISTS \(base)_UPDATE AFTER UPDATE OF \(sources) ON \(t) FOR EACH ROW\(guardClause("NEW")) BEGIN \(set) \(notify(updated, "NEW.Z_PK")) END"
                )
            case .toOne(let fk, let destination, let column):
                let set = "UPDATE \(t) SET \(c) = (SELECT \(column) FROM \(destination) WHERE Z_PK = NEW.\(fk)) WHERE Z_PK = NEW.Z_PK;"
                out.append(
                    "CREATE TRIGGER IF NOT EXISTS \(base)_SOURCE_INSERT AFTER INSERT ON \(t) FOR EACH ROW\(guardClause("NEW")) BEGIN \(set) \(notify(inserted, "NEW.Z_PK")) END"
                )
                out.append(
                    "CREATE TRIGGER IF NOT EXISTS \(base)_SOURCE_UPDATE AFTER UPDATE OF \(fk) ON \(t) FOR EACH ROW\(guardClause("NEW")) BEGIN \(set) \(notify(updated, "NEW.Z_PK")) END"
                )
                let parameter = "Z_DA_\(destination)_\(e.name)_\(a.name)_PARAMETER"
                // In a shared table, only this entity's rows (`AND 6 = Z_ENT`).
                let rows: String
                if !e.sharesTable {
                    rows = ""
                } else if let last = e.subentityNumbers.max() {
                    rows = " AND \(e.number) <= Z_ENT AND Z_ENT <= \(last)"
                } else {
                    rows = " AND \(e.number) = Z_ENT"
                }
                let copy = "UPDATE \(t) SET \(c) = NEW.\(column) WHERE \(fk) = NEW.Z_PK\(rows);"
                let each = "SELECT \(updated)('\(t)', Z_ENT, Z_PK, '\(a.name)', \(c)) FROM \(t) WHERE \(fk) = NEW.Z_PK\(rows);"
                out.append(
                    "CREATE TRIGGER IF NOT EXISTS \(parameter)_INSERT AFTER INSERT ON \(destination) FOR EACH ROW BEGIN \(copy) \(each) END"
                )
                out.append(
                    "CREATE TRIGGER IF NOT EXISTS \(parameter)_UPDATE AFTER UPDATE OF \(column) ON \(destination) FOR EACH ROW BEGIN \(copy) \(each) END"
                )
            case .count(let table, let key):
                let parameter = "Z_DA_\(table)_\(e.name)_\(a.name)_PARAMETER"
                out.append(
                    "CREATE TRIGGER IF NOT EXISTS \(parameter)_INSERT AFTER INSERT ON \(table) FOR EACH ROW BEGIN UPDATE \(t) SET \(c) = IFNULL(\(c), 0) + 1 WHERE Z_PK = NEW.\(key); \(notify(updated, "NEW.\(key)")) END"
                )
                out.append(
                    "CREATE TRIGGER IF NOT EXISTS \(parameter)_DELETE AFTER DELETE ON \(table) FOR EACH ROW BEGIN UPDATE \(t) SET \(c) = \(c) - 1 WHERE Z_PK = OLD.\(key); \(notify(updated, "OLD.\(key)")) END"
                )
                if StoreLayout.isEntityTable(table) {
                    // A member moved between parents (a join table's rows are deleted and inserted instead).
                    out.append(
                        "CREATE TRIGGER IF NOT EXISTS \(parameter)_UPDATE AFTER UPDATE OF \(key) ON \(table) FOR EACH ROW BEGIN UPDATE \(t) SET \(c) = \(c) - 1 WHERE Z_PK = OLD.\(key); UPDATE \(t) SET \(c) = IFNULL(\(c), 0) + 1 WHERE Z_PK = NEW.\(key); \(notify(updated, "NEW.\(key)")) END"
                    )
                }
                out.append(
                    "CREATE TRIGGER IF NOT EXISTS Z_DA_\(t)_\(e.name)_\(a.name)_SOURCE_INSERT AFTER INSERT ON \(t) FOR EACH ROW\(guardClause("NEW")) BEGIN UPDATE \(t) SET \(c) = (SELECT IFNULL(COUNT(\(key)), 0) FROM \(table) WHERE \(key) = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK; \(notify(inserted, "NEW.Z_PK")) END"
                )
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
            let cols = ix.elements.map { StoreLayout.rtreeColumns(column: $0.column) }.flatMap { [$0.min, $0.max] }
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
