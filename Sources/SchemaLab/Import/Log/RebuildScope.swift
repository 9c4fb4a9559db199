import SchemaLabCoreData
import SchemaLabEngine

/// The state of rebuilding one statement: what each table alias stands for (the fetched
/// entity, or the destination of a to-one path joined to it), the logged values, and the
/// arguments of the predicate being written.
struct RebuildScope {
    typealias Unsupported = RequestRebuilder.Unsupported

    let rebuilder: RequestRebuilder
    let binds: [LoggedValue]
    /// alias -> (its entity, the key path that reaches it from the fetched entity, "" for t0).
    var aliases: [String: (EntityModel, String)]
    /// The arguments of the predicate written so far, in `%@` order.
    var arguments: [PredicateValue] = []
    /// The select list's `AS` names (`__var0`) and the expression names the request gives them.
    var expressionNames: [String: String] = [:]

    /// The markers compared for equality (`==`, `IN`) with an attribute: `Entity.attribute` by
    /// marker, where the log's values become the attribute's value pool.
    var equalityTargets: [Int: String] = [:]

    /// A key path, with the attribute it ends at (nil for an object: a to-one or the object itself).
    struct Resolved {
        var text: String
        var type: AttributeType?
        /// `Entity.attribute` when the path ends at an attribute.
        var owner: String? = nil
    }

    /// `[LEFT OUTER] JOIN ZMETA t1 ON t0.ZMETA = t1.Z_PK`: t1 is the destination of a to-one;
    /// `LEFT OUTER JOIN ZATTACHMENT t1 ON t0.Z_PK = t1.ZITEM`: t1 is the destination of a
    /// to-many (a dictionary fetch's `count:(attachments)`).
    mutating func addJoin(_ join: LoggedSelect.Join) throws(Unsupported) {
        guard case .column(let la?, let lc) = join.left, case .column(let ra?, let rc) = join.right else {
            throw Unsupported("a join on something other than two columns")
        }
        let (outer, outerColumn, innerColumn) = ra == join.alias ? ((la, lc), lc, rc) : ((ra, rc), rc, lc)
        guard let (source, prefix) = aliases[outer.0] else { throw Unsupported("a join from an unknown alias \(outer.0)") }
        func path(_ name: String) -> String { prefix.isEmpty ? name : prefix + "." + name }
        let relationships = family(of: source).flatMap(\.relationships)
        if innerColumn == "Z_PK",
            let relationship = relationships.first(where: { $0.foreignKeyColumn == outerColumn }),
            let destination = rebuilder.model.entity(relationship.destination), destination.table == join.table
        {
            aliases[join.alias] = (destination, path(relationship.name))
            return
        }
        if outerColumn == "Z_PK",
            let relationship = relationships.first(where: { r in
                guard r.toMany, case .inverseForeignKey(innerColumn) = r.storage else { return false }
                return rebuilder.model.entity(r.destination)?.table == join.table
            }), let destination = rebuilder.model.entity(relationship.destination)
        {
            aliases[join.alias] = (destination, path(relationship.name))
            return
        }
        throw Unsupported("a join the lab does not read back (through \(join.table), a join table or an unknown key)")
    }

    /// The entity and its ancestors and descendants: the columns of one table.
    func family(of entity: EntityModel) -> [EntityModel] {
        rebuilder.model.entities.filter { $0.table == entity.table }
    }

    /// The key path a column stands for.
    func keyPath(_ expression: LoggedExpression) throws(Unsupported) -> String { try resolve(expression).text }

    func resolve(_ expression: LoggedExpression) throws(Unsupported) -> Resolved {
        guard case .column(let alias, let column) = expression else { throw Unsupported("\(expression) is not a column") }
        if alias == nil, let name = expressionNames[column] { return Resolved(text: name, type: nil) }
        guard let (entity, prefix) = aliases[alias ?? ""] ?? (alias == nil ? aliases.first { $0.value.1.isEmpty }?.value : nil) else {
            throw Unsupported("unknown table alias \(alias ?? "")")
        }
        func path(_ name: String) -> String { prefix.isEmpty ? name : prefix + "." + name }
        if column == "Z_PK" { return Resolved(text: prefix.isEmpty ? "self" : prefix, type: nil) }
        for member in family(of: entity) {
            if let attribute = member.attributes.first(where: { $0.column == column }) {
                return Resolved(text: path(attribute.name), type: attribute.type, owner: member.name + "." + attribute.name)
            }
            if let relationship = member.relationships.first(where: { $0.foreignKeyColumn == column }) {
                return Resolved(text: path(relationship.name), type: nil)
            }
        }
        if column.hasPrefix("Z_FOK_") {
            throw Unsupported("the order key \(column) of an ordered to-many: its fault or prefetch, fired by reading the relationship")
        }
        throw Unsupported("column \(column) of \(entity.table) is not an attribute or a to-one relationship of \(entity.name)")
    }

    /// The value of marker `index`, as an argument for a key path of `type` (the logged value,
    /// or at level 1 a stand-in of the type).
    func argument(_ index: Int, type: AttributeType?) throws(Unsupported) -> PredicateValue {
        guard index < binds.count else { return standIn(type) }
        let value = binds[index]
        switch (value, type) {
        case (.real(let v), .date?): return .date(v)
        case (.integer(let v), .date?): return .date(Double(v))
        case (.integer(let v), .bool?): return .bool(v != 0)
        case (.integer(let v), .double?), (.integer(let v), .float?): return .real(Double(v))
        default:
            guard let converted = value.predicateValue else { throw Unsupported("bound value \(index) is not a value a predicate takes") }
            return converted
        }
    }

    func standIn(_ type: AttributeType?) -> PredicateValue {
        switch type {
        case .string?: return .string("a")
        case .double?, .float?, .decimal?: return .real(1)
        case .bool?: return .bool(true)
        case .date?: return .date(rebuilder.dateStandIn)
        default: return .integer(1)
        }
    }

    /// Finds `t0.Z_ENT = ?` or `( t0.Z_ENT >= ? AND t0.Z_ENT <= ?)`, alone or ANDed last,
    /// and returns the entity it selects with the rest of the clause.
    /// At level 1 the numbers are not logged: the entity is the candidate whose columns are
    /// the select list's (`columns`, without Core Data's own), else the first candidate.
    func entityRestriction(_ clause: LoggedExpression, stored: [EntityModel], columns: Set<String>) throws(Unsupported) -> (
        EntityModel, LoggedExpression?
    )? {
        func restriction(_ e: LoggedExpression) -> [Int]? {
            switch e {
            case .binary("=", .column(_, "Z_ENT"), .parameter(let i)): return [i]
            case .parenthesized(
                .binary("AND", .binary(">=", .column(_, "Z_ENT"), .parameter(let i)), .binary("<=", .column(_, "Z_ENT"), .parameter(let j)))
            ):
                return [i, j]
            default: return nil
            }
        }
        var markers: [Int]?
        var rest: LoggedExpression?
        if let m = restriction(clause) {
            markers = m
        } else if case .parenthesized(.binary("AND", let p, let r)) = clause, let m = restriction(r) {
            (markers, rest) = (m, p)
        }
        guard let markers else { return nil }
        if markers.count == 1, markers[0] < binds.count, case .integer(let n) = binds[markers[0]],
            let entity = stored.first(where: { $0.number == Int(n) })
        {
            return (entity, rest)
        }
        if markers.count == 2, markers[0] < binds.count, case .integer(let n) = binds[markers[0]],
            let entity = stored.first(where: { $0.number == Int(n) })
        {
            return (entity, rest)
        }
        let candidates = stored.filter { $0.parent != nil && (markers.count == 1) == $0.subentityNumbers.isEmpty }
        let matching = candidates.first { Set($0.attributes.map(\.column) + $0.toOneKeyColumns) == columns }
        guard let guess = matching ?? candidates.first else {
            throw Unsupported("a Z_ENT restriction that matches no entity of \(stored[0].table)")
        }
        return (guess, rest)
    }

    /// The NSPredicate format text of a WHERE (or HAVING) clause; its values go to `arguments`.
    mutating func predicate(_ e: LoggedExpression) throws(Unsupported) -> String {
        switch e {
        case .parenthesized(let inner): return "(" + (try predicate(inner)) + ")"
        case .binary(let op, let l, let r) where op == "AND" || op == "OR":
            return (try predicate(l)) + " \(op) " + (try predicate(r))
        case .not(let inner): return "NOT " + (try predicate(inner))
        case .isNull(let inner, let negated): return (try keyPath(inner)) + (negated ? " != nil" : " == nil")
        case .binary(let op, .function(let f, let args, false), .integer(0)) where f == "NSCoreDataStringCompare" && args.count == 4:
            guard case .integer(let options) = args[2], case .integer(let locale) = args[3] else {
                throw Unsupported("NSCoreDataStringCompare without literal options")
            }
            let left = try resolve(args[0])
            return left.text + " " + symbol(op) + Self.modifiers(search: options, locale: locale) + " "
                + (try operand(args[1], type: left.type))
        case .binary(let op, let l, let r) where ["=", "==", "!=", "<>", "<", "<=", ">", ">="].contains(op):
            if op == "=" || op == "==" { noteEquality(l, r) }
            let (left, right) = try comparisonSides(l, r)
            return left + " " + symbol(op) + " " + right
        case .inList(let inner, let items, let negated):
            let left = try resolve(inner)
            var values: [PredicateValue] = []
            for item in items {
                guard case .parameter(let i) = item else { throw Unsupported("an IN list of literals") }
                if let owner = left.owner { equalityTargets[i] = owner }
                values.append(try argument(i, type: left.type))
            }
            arguments.append(.array(values))
            return (negated ? "NOT " : "") + left.text + " IN %@"
        case .between(let inner, .parameter(let lo), .parameter(let hi)):
            let left = try resolve(inner)
            arguments.append(.array([try argument(lo, type: left.type), try argument(hi, type: left.type)]))
            return left.text + " BETWEEN %@"
        case .function(let f, let args, false) where (f == "NSCoreDataLike" || f == "NSCoreDataMatches") && args.count == 3:
            guard case .integer(let flags) = args[2] else { throw Unsupported("\(f) without literal flags") }
            let left = try resolve(args[0])
            var mods = ""
            if flags & 1 != 0 { mods += "c" }
            if flags & 2 != 0 { mods += "d" }
            if flags & 4 != 0 { mods += "n" }
            let name = f == "NSCoreDataLike" ? "LIKE" : "MATCHES"
            return left.text + " " + name + (mods.isEmpty ? "" : "[\(mods)]") + " " + (try operand(args[1], type: left.type))
        case .function("NSCoreDataStringSearch", let args, false) where args.count == 4:
            guard case .integer(let options) = args[2], case .integer(let locale) = args[3] else {
                throw Unsupported("NSCoreDataStringSearch without literal options")
            }
            let left = try resolve(args[0])
            let name = options & 12 == 12 ? "ENDSWITH" : options & 8 != 0 ? "BEGINSWITH" : "CONTAINS"
            return left.text + " " + name + Self.modifiers(search: options, locale: locale) + " " + (try operand(args[1], type: left.type))
        default:
            throw Unsupported("a condition the import does not read back: \(Self.describe(e))")
        }
    }

    /// Records a marker compared for equality with an attribute.
    mutating func noteEquality(_ l: LoggedExpression, _ r: LoggedExpression) {
        switch (l, r) {
        case (.column, .parameter(let i)), (.parameter(let i), .column):
            if let owner = try? resolve(l == .parameter(i) ? r : l).owner { equalityTargets[i] = owner }
        default: break
        }
    }

    /// `[cdl]` from NSCoreDataStringSearch's and NSCoreDataStringCompare's option bits.
    static func modifiers(search options: Int64, locale: Int64) -> String {
        var mods = ""
        if options & 1 != 0 { mods += "c" }
        if options & 128 != 0 { mods += "d" }
        if locale != 0 || options & 32 != 0 { mods += "l" }
        return mods.isEmpty ? "" : "[\(mods)]"
    }

    func symbol(_ op: String) -> String {
        switch op {
        case "=", "==": return "=="
        case "<>", "!=": return "!="
        default: return op
        }
    }

    /// Both sides of a comparison: a key path (or a to-many aggregate) on either side, the
    /// other a value of its type.
    mutating func comparisonSides(_ l: LoggedExpression, _ r: LoggedExpression) throws(Unsupported) -> (String, String) {
        if case .subquery(let inner) = l { return (try aggregate(inner).text, try operand(r, type: nil)) }
        if case .subquery(let inner) = r { return (try operand(l, type: nil), try aggregate(inner).text) }
        if case .column = l {
            let left = try resolve(l)
            return (left.text, try operand(r, type: left.type))
        }
        let right = try resolve(r)
        return (try operand(l, type: right.type), right.text)
    }

    /// A correlated subquery over a to-many relationship, as Core Data writes `@count` and the
    /// other collection operators: `(SELECT COUNT(t1.Z_PK) FROM ZBOOK t1 WHERE (t0.Z_PK =
    /// t1.ZAUTHOR) )` is `books.@count`, `(SELECT AVG(t1.ZYEAR) …)` is `books.@avg.year`, and
    /// over a join table `(SELECT COUNT(t1.Z_3TAGS) FROM Z_2TAGS t1 WHERE (t0.Z_PK = t1.Z_2BOOKS) )`
    /// is `tags.@count`.
    func aggregate(_ inner: LoggedSelect) throws(Unsupported) -> Resolved {
        guard inner.columns.count == 1, case .function(let f, let args, false) = inner.columns[0], args.count == 1,
            case .column(let innerAlias?, let innerColumn) = args[0], innerAlias == inner.alias,
            inner.joins.isEmpty, inner.groupBy.isEmpty, inner.orderBy.isEmpty,
            case .parenthesized(.binary("=", .column(let outerAlias?, "Z_PK"), .column(_, let linkColumn)))? = inner.whereClause,
            let (source, prefix) = aliases[outerAlias]
        else { throw Unsupported("a subquery other than a to-many relationship's count or aggregate (a SUBQUERY or a restricted @count)") }
        let members = family(of: source).flatMap(\.relationships).filter { $0.toMany }
        for relationship in members {
            let path = prefix.isEmpty ? relationship.name : prefix + "." + relationship.name
            switch relationship.storage {
            case .inverseForeignKey(let column) where column == linkColumn:
                guard let destination = rebuilder.model.entity(relationship.destination), destination.table == inner.table else { continue }
                if f.uppercased() == "COUNT", innerColumn == "Z_PK" { return Resolved(text: path + ".@count", type: .integer64) }
                guard let attribute = family(of: destination).flatMap(\.attributes).first(where: { $0.column == innerColumn }),
                    let function = Self.collectionOperator(f)
                else { continue }
                return Resolved(text: path + ".@\(function)." + attribute.name, type: attribute.type)
            case .joinTable(let table, let own, let other) where table == inner.table && own == linkColumn:
                if f.uppercased() == "COUNT", innerColumn == other { return Resolved(text: path + ".@count", type: .integer64) }
            default: continue
            }
        }
        throw Unsupported("a subquery on \(inner.table) that is no to-many relationship of \(source.name)")
    }

    /// `AVG` → `avg`, `TOTAL` → `sum` (Core Data's SQL for @sum), `MIN`, `MAX`.
    static func collectionOperator(_ function: String) -> String? {
        switch function.uppercased() {
        case "AVG": return "avg"
        case "SUM", "TOTAL": return "sum"
        case "MIN": return "min"
        case "MAX": return "max"
        default: return nil
        }
    }

    /// A value (a marker's, a literal) or another key path.
    mutating func operand(_ e: LoggedExpression, type: AttributeType?) throws(Unsupported) -> String {
        switch e {
        case .parameter(let i):
            arguments.append(try argument(i, type: type))
            return "%@"
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        case .null: return "nil"
        case .string(let s):
            arguments.append(.string(s))
            return "%@"
        case .column: return try keyPath(e)
        default: throw Unsupported("an operand the import does not read back: \(Self.describe(e))")
        }
    }

    /// A short description of an expression for a reason.
    static func describe(_ e: LoggedExpression) -> String {
        switch e {
        case .subquery: return "a subquery (a to-many count or aggregate)"
        case .inSelect(_, let inner, _) where inner.table == "_Z_intarray0":
            return "keys bound through _Z_intarray0 (a batch window or a prefetch) without the fetch it follows"
        case .inSelect: return "IN (SELECT …)"
        case .function(let f, _, _): return "the function \(f)"
        case .binary(let op, _, _): return "the operator \(op)"
        default: return "\(e)".prefix(80).description
        }
    }
}
