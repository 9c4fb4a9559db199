/// A log's statements grouped by shape, in the order each shape first ran, with the batch
/// windows and faults that follow a keys-only fetch counted on that fetch: Core Data's first
/// pass of a batched fetch (`SELECT 0, t0.Z_PK … ORDER BY …`) is followed by a window per batch
/// read (`WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0) LIMIT 20`), and a fetch without
/// property values by a fault per object read (`WHERE t0.Z_PK = ?`).
///
/// It keeps one entry per shape, so a log of any length takes memory in proportion to its
/// distinct statements, not its lines.
package struct LogDigest: Sendable {
    /// The shapes, by first run.
    package private(set) var shapes: [LoggedShape] = []
    private var index: [String: Int] = [:]
    /// The most recent keys-only fetch per table, by shape index.
    private var keysOnlyFetch: [String: Int] = [:]
    /// The shape of the statement just before, when it was a fetch of objects or keys: a
    /// controller's section query right after it is its.
    private var previousFetch: (table: String, position: Int)?
    /// A controller's section query per table that came before its fetch.
    private var pendingSections: [String: LoggedStatement] = [:]
    /// Saves: statements between `BEGIN EXCLUSIVE` and `COMMIT`, counted per table and verb.
    package private(set) var writes: [String: [String: Int]] = [:]
    /// Each SELECT shape parsed once (nil: it does not parse): a log repeats its statements.
    private var parses: [String: LoggedSelect?] = [:]
    /// Saves seen (`COMMIT`s).
    package private(set) var saves = 0
    /// The write shapes of the save in progress (since `BEGIN`).
    private var currentSave: Set<Int> = []

    package init() {}

    /// Records the section queries no fetch followed as shapes of their own (the log ended first).
    package mutating func finish() {
        for (_, statement) in pendingSections.sorted(by: { $0.value.line < $1.value.line }) {
            record(statement, key: StatementShape.of(statement.sql), kind: .select)
        }
        pendingSections = [:]
    }

    /// Adds one statement.
    package mutating func add(_ statement: LoggedStatement) {
        let key = StatementShape.of(statement.sql)
        let verb = statement.sql.prefix { !$0.isWhitespace }.uppercased()
        switch verb {
        case "SELECT" where Self.isHousekeeping(statement.sql):
            // Core Data's own tables (the key counter during a save, the metadata on opening).
            record(statement, key: key, kind: .other)
        case "SELECT":
            let select = parsed(statement.sql, key: key)
            if let select, Self.isSectionQuery(select) {
                if let previous = previousFetch, previous.table == select.table {
                    shapes[previous.position].sectionQuery = statement.sql
                    shapes[previous.position].followers.insert(key)
                    shapes[previous.position].followerRuns += 1
                } else {
                    // A second section query before any fetch: the first one had none of its own.
                    if let earlier = pendingSections[select.table] { record(earlier, key: StatementShape.of(earlier.sql), kind: .select) }
                    pendingSections[select.table] = statement
                }
                previousFetch = nil
                return
            }
            if let select, absorb(select, key: key) { return }
            if let select, let previous = previousFetch, Self.isPrefetch(select, after: previous.table) {
                shapes[previous.position].prefetchQueries.insert(statement.sql)
                shapes[previous.position].followers.insert(key)
                shapes[previous.position].followerRuns += 1
                return
            }
            let position = record(statement, key: key, kind: .select)
            previousFetch = nil
            guard let select else { return }
            if Self.isKeysOnly(select) { keysOnlyFetch[select.table] = position }
            if Self.isObjectFetch(select) {
                previousFetch = (select.table, position)
                if let section = pendingSections.removeValue(forKey: select.table) {
                    shapes[position].sectionQuery = section.sql
                    shapes[position].followers.insert(StatementShape.of(section.sql))
                    shapes[position].followerRuns += 1
                    previousFetch = nil
                }
            }
        case "INSERT", "UPDATE", "DELETE":
            previousFetch = nil
            let table = Self.writtenTable(statement.sql)
            guard table != "Z_PRIMARYKEY" && table != "Z_METADATA" && table != "Z_MODELCACHE" else {
                record(statement, key: key, kind: .other)
                return
            }
            writes[table, default: [:]][verb, default: 0] += 1
            currentSave.insert(record(statement, key: key, kind: .write))
        default:
            if verb == "BEGIN" { currentSave = [] }
            if verb == "COMMIT" {
                saves += 1
                for position in currentSave { shapes[position].saves += 1 }
                currentSave = []
            }
            record(statement, key: key, kind: .other)
        }
    }

    /// `sql` parsed, by its shape: two statements of one shape differ in whitespace and `IN`
    /// lengths only, which the classification does not read.
    private mutating func parsed(_ sql: String, key: String) -> LoggedSelect? {
        if let known = parses[key] { return known }
        let select = try? LoggedSQLParser.select(sql)
        parses[key] = select
        return select
    }

    @discardableResult
    private mutating func record(_ statement: LoggedStatement, key: String, kind: LoggedShape.Kind) -> Int {
        if let position = index[key] {
            shapes[position].add(statement)
            return position
        }
        var shape = LoggedShape(key: key, kind: kind, first: statement)
        shape.add(statement)
        shapes.append(shape)
        index[key] = shapes.count - 1
        return shapes.count - 1
    }

    /// Counts a window or a fault on the keys-only fetch of its table before it.
    private mutating func absorb(_ select: LoggedSelect, key: String) -> Bool {
        guard let position = keysOnlyFetch[select.table], select.joins.isEmpty, select.orderBy.isEmpty,
            select.columns.count > 2, let clause = select.whereClause
        else { return false }
        let pk = LoggedExpression.column(alias: select.alias, name: "Z_PK")
        switch clause {
        case .inSelect(pk, let inner, false) where inner.table == "_Z_intarray0" && select.limit != nil:
            shapes[position].windows += 1
            shapes[position].windowSize = max(shapes[position].windowSize, select.limit!)
        case .inList(pk, let items, false)
        where select.limit != nil && items.allSatisfy({ if case .parameter = $0 { true } else { false } }):
            shapes[position].windows += 1
            shapes[position].windowSize = max(shapes[position].windowSize, select.limit!)
            shapes[position].windowsBindParameters = true
        case .binary("=", pk, .parameter) where select.limit == nil:
            shapes[position].faults += 1
        default:
            return false
        }
        shapes[position].followers.insert(key)
        shapes[position].followerRuns += 1
        return true
    }

    /// A statement on Core Data's own tables: `Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE`, the schema.
    static func isHousekeeping(_ sql: String) -> Bool {
        let upper = sql.uppercased()
        return ["FROM Z_PRIMARYKEY", "FROM Z_METADATA", "FROM Z_MODELCACHE", "FROM SQLITE_MASTER"].contains { upper.contains($0) }
    }

    /// A prefetch right after its fetch (of `table`): a to-many's destination rows whose
    /// foreign key (or join-table column) is among the fetched keys, sorted by it, `… WHERE
    /// t0.ZITEM IN (SELECT * FROM _Z_intarray0) ORDER BY t0.ZITEM`; or a to-one's destination
    /// rows by their keys in another table, `… FROM ZAUTHOR t0 WHERE t0.Z_PK IN (SELECT * FROM
    /// _Z_intarray0)` (the keys may be `IN (?,…)`).
    static func isPrefetch(_ select: LoggedSelect, after table: String) -> Bool {
        guard select.columns.count > 2, let clause = select.whereClause else { return false }
        let key: LoggedExpression
        switch clause {
        case .inSelect(let k, let inner, false) where inner.table == "_Z_intarray0": key = k
        case .inList(let k, _, false): key = k
        default: return false
        }
        if select.orderBy.count == 1, select.limit == nil, select.orderBy[0].expression == key { return true }
        return select.orderBy.isEmpty && select.table != table && key == .column(alias: select.alias, name: "Z_PK")
    }

    /// A fetched-results controller's section query: `SELECT t0.ZKEY, COUNT (DISTINCT t0.Z_PK)
    /// FROM … GROUP BY t0.ZKEY ORDER BY …`.
    static func isSectionQuery(_ select: LoggedSelect) -> Bool {
        guard select.columns.count == 2, select.groupBy.count == 1, select.columns[0] == select.groupBy[0] else { return false }
        return select.columns[1] == .function("COUNT", [.column(alias: select.alias, name: "Z_PK")], distinct: true)
    }

    /// A fetch of objects (or of their keys): `SELECT 0, t0.Z_PK …` or `SELECT t0.Z_ENT, t0.Z_PK …`.
    static func isObjectFetch(_ select: LoggedSelect) -> Bool {
        guard select.columns.count >= 2, select.columns[1] == .column(alias: select.alias, name: "Z_PK") else { return false }
        if case .integer = select.columns[0] { return true }
        return select.columns[0] == .column(alias: select.alias, name: "Z_ENT")
    }

    /// `SELECT 0, t0.Z_PK FROM …` (or `t0.Z_ENT, t0.Z_PK`): the keys of the objects only.
    static func isKeysOnly(_ select: LoggedSelect) -> Bool { select.columns.count == 2 && isObjectFetch(select) }

    /// The table an INSERT, UPDATE or DELETE writes.
    static func writtenTable(_ sql: String) -> String {
        let words = sql.split { $0.isWhitespace || $0 == "(" }.map(String.init)
        let upper = words.map { $0.uppercased() }
        if let into = upper.firstIndex(of: "INTO"), into + 1 < words.count { return words[into + 1] }
        if let from = upper.firstIndex(of: "FROM"), from + 1 < words.count { return words[from + 1] }
        if upper.first == "UPDATE" {
            var i = 1
            if i < upper.count, upper[i] == "OR" { i += 2 }
            if i < words.count { return words[i] }
        }
        return ""
    }
}
