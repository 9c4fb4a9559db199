import SchemaLabSQLite

/// A predicate compiled to SQL: the WHERE expression (without `WHERE`) and the values
/// for its `?` parameters, in the order they appear in `sql`.
public struct CompiledPredicate: Sendable, Equatable {
    /// The WHERE expression, using `t0` and the planner's aliases.
    public let sql: String
    /// One value per `?` in `sql`, in order.
    public let bindings: [SQLValue]

    /// A compiled predicate from its parts.
    public init(sql: String, bindings: [SQLValue]) {
        self.sql = sql
        self.bindings = bindings
    }
}

/// Compiles a ``Predicate`` to the WHERE expression Core Data's SQLite store would issue
/// for a fetch of `entity`, using `joins` for the aliases (`t0` is the fetched entity;
/// to-one key paths get plain `JOIN`s, `outer: false`; correlated subqueries take
/// fresh aliases from ``JoinPlanner/subqueryAlias()``).
///
/// Constants are always bound as `?`; identifiers come only from the resolved model.
///
/// Shapes. Those marked (CD) are recorded from Core Data's SQL debug logs;
/// those marked [I] are this lab's own choices where it has no observation.
/// - (CD) `likes > 100` → `t0.ZLIKES > ?`; `(A AND B)`, `(A OR B)`, `NOT (A)`;
///   `== nil` → `IS NULL`, `!= nil` → `IS NOT NULL`; `x != 5` → `(t0.ZX <> ? OR t0.ZX IS NULL)`;
///   `BETWEEN` → `t0.ZX BETWEEN ? AND ?`; `IN` → `t0.ZX IN (?,?,?)`; booleans bound as 0/1,
///   dates as seconds since 2001; a constant on the left is flipped (`100 < x` is `x > ?`).
/// - (CD) through to-one relationships: `t1.ZLIKES > ?` with `JOIN ZPHOTOMETA t1 ON t0.ZMETA = t1.Z_PK`.
/// - (CD) `CONTAINS`/`BEGINSWITH`/`ENDSWITH` → `NSCoreDataStringSearch(col, ?, options, 0)`,
///   options = [c] 257, [d] 384, [cd] 385, OR'ed with BEGINSWITH 8 / ENDSWITH 12;
///   `LIKE` → `NSCoreDataLike(col, ?, flags)`, `MATCHES` → `NSCoreDataMatches(col, ?, flags)`,
///   flags [c] 1, [d] 2, [cd] 3, [n] 4; `==[c]` etc. → `NSCoreDataStringCompare(col, ?, options, 0) = 0`
///   (`<> 0`, `< 0`, ...); `BEGINSWITH[n] 'ab'` → `(col >= ? AND col < ?)` binding 'ab' and 'ac'.
/// - (CD) `books.@count` → `(SELECT COUNT(t1.Z_PK) FROM ZBOOK t1 WHERE t0.Z_PK = t1.ZAUTHOR)`;
///   over a many-to-many `(SELECT COUNT(t1.Z_3TAGS) FROM Z_2TAGS t1 WHERE t0.Z_PK = t1.Z_2BOOKS)`.
/// - (CD) `ANY books.year > ?` → `t0.Z_PK IN (SELECT t1.ZAUTHOR FROM ZBOOK t1 WHERE t1.ZYEAR > ?)`;
///   a many-to-many joins the join table to the destination inside the subquery.
/// - [I] `NONE x` → `t0.Z_PK NOT IN (SELECT ... WHERE owner IS NOT NULL AND x)`; `ALL x` →
///   `t0.Z_PK NOT IN (SELECT ... WHERE owner IS NOT NULL AND NOT COALESCE(x, 0))`: the
///   IS NOT NULL keeps a NULL foreign key from making NOT IN unknown for every row, and the
///   COALESCE makes an element whose value is NULL fail `x` (NSPredicate: nil > 5 is false),
///   so it counts against ALL. ALL over an empty collection is true, as in NSPredicate.
/// - [I] `SUBQUERY(books, $b, P).@count` → `(SELECT COUNT(t1.Z_PK) FROM ZBOOK t1 WHERE t0.Z_PK = t1.ZAUTHOR AND (P))`;
///   `@avg/@min/@max.k` → `(SELECT AVG(t1.ZK) ...)`; `@sum.k` → `(SELECT COALESCE(SUM(t1.ZK), 0) ...)` (an empty sum is 0).
/// - [I] inside `SUBQUERY(books, $b, P)`, a bare key path (and `SELF`) in P names the element,
///   like `$b` (we take the subquery predicate to be evaluated on each element; unverified).
///   To-one key paths inside a subquery join inside it (`JOIN ZAUTHOR t3 ON t2.ZAUTHOR = t3.Z_PK`).
/// - [I] a to-many key path without a quantifier (`books.year > 2000`) is ANY.
/// - [I] `SELF == ?` → `t0.Z_PK = ?`, `SELF IN {...}` → `t0.Z_PK IN (?,...)`; a to-one
///   relationship compares its foreign key: `author == nil` → `t0.ZAUTHOR IS NULL`, `author == ?` → `t0.ZAUTHOR = ?`.
/// - [I] key path against key path: `=`, `<`, ... as written, and `!=` → `a IS NOT b` (nil != 5 true, nil != nil false).
/// - [I] `!=` on an aggregate → `(SELECT ...) IS NOT ?`, to avoid repeating the subquery.
/// - [I] `IN {}` → `0`; `TRUEPREDICATE` → `1`; `FALSEPREDICATE` → `0`; `==[n]` and `<[n]` are plain
///   comparisons; `CONTAINS[n]`/`ENDSWITH[n]` use the search function with no modifier bits (0 / 12);
///   `BEGINSWITH[n] ''` → `0`, as `BEGINSWITH ''` finds nothing in the search function.
/// - Caveat (as Core Data): `NOT (x > 5)` is SQL's three-valued NOT, so a NULL x matches neither side.
public struct PredicateCompiler {
    /// The variant the key paths resolve in.
    public let model: ResolvedModel
    /// The fetched entity (`t0`).
    public let entity: EntityModel
    /// Where to-one joins and subquery aliases come from; compiling adds to it.
    public let joins: JoinPlanner

    /// Names that stand for SQL expressions (a HAVING predicate naming the fetch's
    /// aggregate expressions: `n > 10` where `n` is `COUNT( t0.ZCOUNTRY)`). Checked first.
    public var expressionAliases: [String: String] = [:]

    /// A compiler for fetches of `entity`, adding its joins to `joins`.
    public init(model: ResolvedModel, entity: EntityModel, joins: JoinPlanner) {
        self.model = model
        self.entity = entity
        self.joins = joins
    }

    /// Compiles `p`. Throws a ``PredicateError`` at the column of the node that does not fit
    /// the model (an unknown key path carries the resolver's message).
    public func compile(_ predicate: Predicate) throws(PredicateError) -> CompiledPredicate {
        if let column = Self.negatedIndexed(predicate, negated: false) {
            throw PredicateError(
                column: column,
                message:
                    "indexed:by:(...) cannot be under NOT: an R-tree stores a nil value as 0, so the negation would select rows whose value is nil; write the complement as ranges"
            )
        }
        let scope = Scope(entity: entity, alias: "t0", planner: joins, isTop: true, parent: nil, variable: nil, model: model)
        let f = try self.predicate(predicate, in: scope)
        return CompiledPredicate(sql: f.sql, bindings: f.bindings)
    }

    /// The terms of an AND chain, in order (`a AND (b AND c)` is a, b, c).
    static func conjuncts(_ p: Predicate) -> [Predicate] {
        if case .and(let a, let b, _) = p { return conjuncts(a) + conjuncts(b) }
        return [p]
    }

    /// The index names `indexed:by:` uses in `p`, with their columns.
    public static func indexedNames(_ predicate: Predicate) -> [(name: String, column: Int)] {
        func inExpression(_ e: PredicateExpression) -> [(name: String, column: Int)] {
            switch e {
            case .indexed(_, let name, let c): return [(name, c)]
            case .subquery(let coll, _, let inner, _): return inExpression(coll) + indexedNames(inner)
            case .aggregate(_, let coll, _, _): return inExpression(coll)
            case .constant, .keyPath: return []
            }
        }
        switch predicate {
        case .truePredicate, .falsePredicate: return []
        case .and(let a, let b, _), .or(let a, let b, _): return indexedNames(a) + indexedNames(b)
        case .not(let a, _): return indexedNames(a)
        case .comparison(let c): return inExpression(c.left) + inExpression(c.right)
        }
    }

    /// The column of an `indexed:by:` under a NOT, if any (SUBQUERY predicates included).
    static func negatedIndexed(_ p: Predicate, negated: Bool) -> Int? {
        func inExpression(_ e: PredicateExpression) -> Int? {
            switch e {
            case .indexed(_, _, let c): return negated ? c : nil
            case .subquery(let coll, _, let inner, _): return inExpression(coll) ?? negatedIndexed(inner, negated: negated)
            case .aggregate(_, let coll, _, _): return inExpression(coll)
            case .constant, .keyPath: return nil
            }
        }
        switch p {
        case .truePredicate, .falsePredicate: return nil
        case .and(let a, let b, _), .or(let a, let b, _):
            return negatedIndexed(a, negated: negated) ?? negatedIndexed(b, negated: negated)
        case .not(let a, _): return negatedIndexed(a, negated: true)
        case .comparison(let c): return inExpression(c.left) ?? inExpression(c.right)
        }
    }

    /// Parses `text` with `arguments` and compiles it.
    public func compile(_ text: String, arguments: [PredicateValue] = []) throws(PredicateError) -> CompiledPredicate {
        try compile(PredicateParser.parse(text, arguments: arguments))
    }

    /// The smallest string greater than every string that starts with `prefix` (in SQLite's
    /// BINARY order, which is Unicode scalar order): the last scalar incremented (skipping
    /// the surrogate range), dropping trailing U+10FFFF. Nil when there is none (`""`, or all U+10FFFF).
    public static func prefixUpperBound(_ prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var v = last.value + 1
            if v == 0xD800 { v = 0xE000 }
            if v <= 0x10FFFF, let u = Unicode.Scalar(v) {
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                view.append(u)
                return String(view)
            }
        }
        return nil
    }
}

// MARK: - fragments and scopes

/// SQL text with the values of its `?`s, in order.
struct Fragment {
    var sql: String
    var bindings: [SQLValue]

    init(_ sql: String, _ bindings: [SQLValue] = []) {
        self.sql = sql
        self.bindings = bindings
    }

    static func + (a: Fragment, b: Fragment) -> Fragment { Fragment(a.sql + b.sql, a.bindings + b.bindings) }
    static func + (a: Fragment, b: String) -> Fragment { Fragment(a.sql + b, a.bindings) }
    static func + (a: String, b: Fragment) -> Fragment { Fragment(a + b.sql, b.bindings) }
}

/// The rows a key path starts from: the fetched entity (`t0`, joins through the planner)
/// or the elements of a correlated subquery (own joins, aliases from the planner).
final class Scope {
    let entity: EntityModel
    let alias: String
    let planner: JoinPlanner
    let isTop: Bool
    let parent: Scope?
    /// The `$variable` naming this scope's element, for SUBQUERY.
    let variable: String?
    let model: ResolvedModel
    /// ` JOIN ZX tN ON tM.ZFK = tN.Z_PK` for the to-one paths used inside a subquery.
    private(set) var joinClauses = ""
    private var aliases: [String: String] = [:]

    init(entity: EntityModel, alias: String, planner: JoinPlanner, isTop: Bool, parent: Scope?, variable: String?, model: ResolvedModel) {
        self.entity = entity
        self.alias = alias
        self.planner = planner
        self.isTop = isTop
        self.parent = parent
        self.variable = variable
        self.model = model
    }

    func alias(for relationships: [RelationshipModel]) -> String {
        if isTop { return planner.alias(for: relationships, outer: false) }
        var path = ""
        var current = alias
        for r in relationships {
            path += "." + r.name
            if let a = aliases[path] {
                current = a
                continue
            }
            let a = planner.subqueryAlias()
            joinClauses += " JOIN \(model.entity(r.destination)!.table) \(a) ON \(current).\(r.foreignKeyColumn!) = \(a).Z_PK"
            aliases[path] = a
            current = a
        }
        return current
    }

    func lookup(_ variable: String) -> Scope? {
        self.variable == variable ? self : parent?.lookup(variable)
    }
}

/// What a key path names, relative to a scope's entity.
enum ResolvedPredicatePath {
    /// An attribute, through to-one relationships.
    case attribute([RelationshipModel], AttributeModel)
    /// An object: the scope's row (no relationships) or the end of a to-one chain.
    case object([RelationshipModel])
    /// A to-many relationship after to-one ones, and the key path after it.
    case toMany(prefix: [RelationshipModel], relationship: RelationshipModel, rest: [String])
}

/// One side of a comparison, compiled.
enum Operand {
    case constant(PredicateValue, column: Int)
    /// A column or scalar subquery. `attribute`: its attribute when it is one (for type checks);
    /// `object`: a primary or foreign key; `nullable`: it can be NULL where NSPredicate sees nil.
    case value(Fragment, attribute: AttributeModel?, object: Bool, nullable: Bool, text: String, column: Int)

    var column: Int {
        switch self {
        case .constant(_, let c), .value(_, _, _, _, _, let c): return c
        }
    }
}

// MARK: - compiling

extension PredicateCompiler {
    func predicate(_ p: Predicate, in scope: Scope) throws(PredicateError) -> Fragment {
        switch p {
        case .truePredicate: return Fragment("1")
        case .falsePredicate: return Fragment("0")
        case .and(let a, let b, _):
            if let combined = try combinedIndexed(a, b, in: scope) { return combined }
            // In a longer AND chain, the first pair an R-tree can answer together, then the rest.
            let terms = Self.conjuncts(p)
            if terms.count > 2 {
                for i in terms.indices {
                    for j in terms.indices where j > i {
                        guard let pair = try combinedIndexed(terms[i], terms[j], in: scope) else { continue }
                        var f = "(" + pair
                        for (k, t) in terms.enumerated() where k != i && k != j { f = f + " AND " + (try predicate(t, in: scope)) }
                        return f + ")"
                    }
                }
            }
            return "(" + (try predicate(a, in: scope)) + " AND " + (try predicate(b, in: scope)) + ")"
        case .or(let a, let b, _): return "(" + (try predicate(a, in: scope)) + " OR " + (try predicate(b, in: scope)) + ")"
        case .not(let a, _): return "NOT (" + (try predicate(a, in: scope)) + ")"
        case .comparison(let c): return try comparison(c, in: scope)
        }
    }

    /// Resolves a key path expression's root and components to a scope and what they name.
    func resolve(root: KeyPathRoot, components: [String], column: Int, in scope: Scope) throws(PredicateError) -> (
        Scope, ResolvedPredicatePath
    ) {
        var base = scope
        if case .variable(let v) = root {
            guard let s = scope.lookup(v) else {
                throw PredicateError(column: column, message: "unknown variable '$\(v)' (only SUBQUERY defines variables)")
            }
            base = s
        }
        if components.isEmpty { return (base, .object([])) }
        var current = base.entity
        var rels: [RelationshipModel] = []
        for (i, name) in components.enumerated() {
            let isLast = i == components.count - 1
            if let r = current.relationship(name) {
                if r.toMany { return (base, .toMany(prefix: rels, relationship: r, rest: Array(components[(i + 1)...]))) }
                rels.append(r)
                current = model.entity(r.destination)!
                continue
            }
            if isLast, let a = current.attribute(name) { return (base, .attribute(rels, a)) }
            if components.count == 1 { break }  // the resolver looks through to-one relationships
            return (base, try resolverPath(components, column: column, from: base.entity))
        }
        if !rels.isEmpty { return (base, .object(rels)) }
        return (base, try resolverPath(components, column: column, from: base.entity))
    }

    /// The model's resolver: an attribute through to-one relationships, or its message as a PredicateError.
    func resolverPath(_ components: [String], column: Int, from entity: EntityModel) throws(PredicateError) -> ResolvedPredicatePath {
        let text = components.joined(separator: ".")
        do {
            let r = try model.resolve(keyPath: text, from: entity.name)
            return .attribute(r.relationships, r.attribute)
        } catch {
            throw PredicateError(column: column, message: error.message)
        }
    }

    /// A key path that is an attribute or an object, as an operand.
    func operand(_ path: ResolvedPredicatePath, scope: Scope, text: String, column: Int) throws(PredicateError) -> Operand {
        switch path {
        case .attribute(let rels, let a):
            let sql = scope.alias(for: rels) + "." + a.column
            return .value(Fragment(sql), attribute: a, object: false, nullable: true, text: text, column: column)
        case .object(let rels):
            guard let last = rels.last else {
                return .value(Fragment(scope.alias + ".Z_PK"), attribute: nil, object: true, nullable: false, text: text, column: column)
            }
            let sql = scope.alias(for: Array(rels.dropLast())) + "." + last.foreignKeyColumn!
            return .value(Fragment(sql), attribute: nil, object: true, nullable: true, text: text, column: column)
        case .toMany(_, let r, _):
            throw PredicateError(
                column: column,
                message: "'\(text)' goes through the to-many relationship '\(r.name)': use ANY, ALL, NONE, @count or SUBQUERY")
        }
    }

    /// True when a key path is one of ``expressionAliases``.
    func isAlias(_ root: KeyPathRoot, _ comps: [String]) -> Bool {
        if case .object = root, comps.count == 1 { return expressionAliases[comps[0]] != nil }
        return false
    }

    func operand(_ e: PredicateExpression, in scope: Scope) throws(PredicateError) -> Operand {
        switch e {
        case .constant(let v, let c): return .constant(v, column: c)
        case .keyPath(let root, let comps, let c):
            if case .object = root, comps.count == 1, let sql = expressionAliases[comps[0]] {
                return .value(Fragment(sql), attribute: nil, object: false, nullable: true, text: comps[0], column: c)
            }
            let (s, path) = try resolve(root: root, components: comps, column: c, in: scope)
            return try operand(path, scope: s, text: e.keyPathText!, column: c)
        case .aggregate(let f, let collection, let keyPath, let c):
            return .value(
                try aggregate(f, collection: collection, keyPath: keyPath, column: c, in: scope),
                attribute: nil, object: false, nullable: f != .count && f != .sum,
                text: describe(e), column: c)
        case .subquery(_, _, _, let c):
            throw PredicateError(column: c, message: "a SUBQUERY is a collection: compare SUBQUERY(...).@count")
        case .indexed(_, _, let c):
            throw PredicateError(column: c, message: "indexed:by:(...) can only be the left side of BETWEEN")
        }
    }

    func describe(_ e: PredicateExpression) -> String {
        switch e {
        case .constant: return "value"
        case .keyPath: return e.keyPathText!
        case .aggregate(let f, let coll, let kp, _): return ([describe(coll), f.rawValue] + kp).joined(separator: ".")
        case .subquery: return "SUBQUERY(...)"
        case .indexed(let k, let index, _): return "indexed:by:(\(describe(k)), \"\(index)\")"
        }
    }

    // MARK: collections

    /// The FROM clause over the elements of the to-many `r` of the row `parent`.
    struct CollectionSource {
        /// `ZBOOK t1`, or `Z_2TAGS t1 [JOIN ZTAG t2 ON t1.Z_3TAGS = t2.Z_PK]`.
        var from: String
        /// The column holding the parent's primary key (`t1.ZAUTHOR`, `t1.Z_2BOOKS`).
        var owner: String
        /// The column holding each element's primary key (`t1.Z_PK`, `t1.Z_3TAGS`).
        var elementKey: String
        /// The elements' scope, when the destination table is in `from`.
        var elements: Scope?
    }

    func collectionSource(_ r: RelationshipModel, parent: Scope, destination needed: Bool, variable: String?) -> CollectionSource {
        let dest = model.entity(r.destination)!
        func scope(_ alias: String) -> Scope {
            Scope(entity: dest, alias: alias, planner: joins, isTop: false, parent: parent, variable: variable, model: model)
        }
        switch r.storage {
        case .inverseForeignKey(let column):
            let a = joins.subqueryAlias()
            return CollectionSource(from: "\(dest.table) \(a)", owner: "\(a).\(column)", elementKey: "\(a).Z_PK", elements: scope(a))
        case .joinTable(let table, let own, let other):
            let j = joins.subqueryAlias()
            guard needed else {
                return CollectionSource(from: "\(table) \(j)", owner: "\(j).\(own)", elementKey: "\(j).\(other)", elements: nil)
            }
            let a = joins.subqueryAlias()
            return CollectionSource(
                from: "\(table) \(j) JOIN \(dest.table) \(a) ON \(j).\(other) = \(a).Z_PK",
                owner: "\(j).\(own)", elementKey: "\(a).Z_PK", elements: scope(a))
        case .foreignKey:
            preconditionFailure("\(r.name) is a to-one relationship")
        }
    }

    /// Resolves a collection expression (a to-many key path) to its parent scope and relationship.
    func toMany(_ e: PredicateExpression, in scope: Scope, for what: String) throws(PredicateError) -> (Scope, RelationshipModel) {
        guard case .keyPath(let root, let comps, let c) = e else {
            throw PredicateError(column: e.column, message: "\(what) needs a to-many relationship key path")
        }
        let (s, path) = try resolve(root: root, components: comps, column: c, in: scope)
        guard case .toMany(let prefix, let r, let rest) = path else {
            throw PredicateError(column: c, message: "\(what) needs a to-many relationship; '\(e.keyPathText!)' is not one")
        }
        guard rest.isEmpty else {
            throw PredicateError(
                column: c,
                message: "\(what) needs a key path that ends at a to-many relationship; '\(e.keyPathText!)' goes on after '\(r.name)'")
        }
        let parent =
            prefix.isEmpty
            ? s
            : Scope(
                entity: model.entity(prefix.last!.destination)!, alias: s.alias(for: prefix),
                planner: joins, isTop: false, parent: s, variable: nil, model: model)
        return (parent, r)
    }

    /// `(SELECT COUNT(...) FROM ... WHERE parent.Z_PK = owner [AND (P)])` and the other aggregates.
    func aggregate(
        _ f: CollectionFunction, collection: PredicateExpression, keyPath: [String], column: Int,
        in scope: Scope
    ) throws(PredicateError) -> Fragment {
        var filter: (variable: String, predicate: Predicate)?
        var collectionExpr = collection
        if case .subquery(let coll, let v, let p, _) = collection {
            filter = (v, p)
            collectionExpr = coll
        }
        let (parent, r) = try toMany(collectionExpr, in: scope, for: filter == nil ? f.rawValue : "SUBQUERY")
        let src = collectionSource(r, parent: parent, destination: filter != nil || f != .count, variable: filter?.variable)
        var selected: String
        if f == .count {
            selected = "COUNT(\(src.elementKey))"
        } else {
            let elements = src.elements!
            let (s, path) = try resolve(root: .object, components: keyPath, column: column, in: elements)
            guard case .attribute = path else {
                throw PredicateError(
                    column: column,
                    message:
                        "\(f.rawValue) needs an attribute after it; '\(keyPath.joined(separator: "."))' is not one of \(elements.entity.name)"
                )
            }
            let op = try operand(path, scope: s, text: keyPath.joined(separator: "."), column: column)
            guard case .value(let frag, _, _, _, _, _) = op else { preconditionFailure() }
            let fn = ["@avg": "AVG", "@sum": "SUM", "@min": "MIN", "@max": "MAX"][f.rawValue]!
            selected = f == .sum ? "COALESCE(SUM(\(frag.sql)), 0)" : "\(fn)(\(frag.sql))"
        }
        var whereClause = Fragment("\(parent.alias).Z_PK = \(src.owner)")
        if let filter {
            whereClause = whereClause + " AND (" + (try predicate(filter.predicate, in: src.elements!)) + ")"
        }
        let localJoins = src.elements?.joinClauses ?? ""
        return "(SELECT \(selected) FROM \(src.from)\(localJoins) WHERE " + whereClause + ")"
    }

    // MARK: comparisons

    func comparison(_ c: PredicateComparison, in scope: Scope) throws(PredicateError) -> Fragment {
        var c = c
        // A constant on the left is flipped: `100 < likes` is `likes > 100`.
        if case .constant = c.left, !isConstant(c.right), let m = c.op.mirrored {
            (c.left, c.right, c.op) = (c.right, c.left, m)
        }
        if case .indexed(let key, let index, let col) = c.left {
            return try indexed(c, key: key, index: index, column: col, in: scope)
        }
        if case .keyPath(let root, let comps, let col) = c.left, !isAlias(root, comps) {
            let (s, path) = try resolve(root: root, components: comps, column: col, in: scope)
            if case .toMany(let prefix, let r, let rest) = path {
                if c.quantifier == .direct && rest.isEmpty {
                    throw PredicateError(
                        column: col,
                        message: "'\(c.left.keyPathText!)' is a to-many relationship: compare its @count, or use ANY, ALL, NONE or SUBQUERY"
                    )
                }
                return try quantified(c, parent: s, prefix: prefix, relationship: r, rest: rest, in: scope)
            }
            if c.quantifier != .direct {
                throw PredicateError(
                    column: c.column,
                    message:
                        "\(c.quantifier.rawValue) needs a key path through a to-many relationship, but '\(c.left.keyPathText!)' has none")
            }
            let left = try operand(path, scope: s, text: c.left.keyPathText!, column: col)
            return try scalar(left, c, right: try operand(c.right, in: scope))
        }
        if c.quantifier != .direct {
            throw PredicateError(
                column: c.column, message: "\(c.quantifier.rawValue) needs a key path through a to-many relationship on the left")
        }
        return try scalar(try operand(c.left, in: scope), c, right: try operand(c.right, in: scope))
    }

    /// `indexed:by:(key, "index") BETWEEN {lo, hi}`. With an R-tree fetch index of that name on
    /// the scope's entity, Core Data's sub-select over the index, with two departures that make
    /// it exact: the bounds are widened outward past the R-tree's 32-bit float rounding (the
    /// index stores a value's MIN rounded down and its MAX rounded up, so the literal bounds
    /// miss rows next to an edge), and the candidates are checked against the row's own
    /// column (the widened bounds let in rows just outside). Without such an index (another variant), the
    /// plain column comparison, so one workload runs, and is compared, in every variant.
    func indexed(
        _ c: PredicateComparison, key: PredicateExpression, index: String, column: Int,
        in scope: Scope
    ) throws(PredicateError) -> Fragment {
        guard c.quantifier == .direct else {
            throw PredicateError(column: c.column, message: "\(c.quantifier.rawValue) cannot quantify indexed:by:(...)")
        }
        guard c.op == .between else {
            throw PredicateError(
                column: c.operatorColumn, message: "indexed:by:(...) is answered with BETWEEN {lower, upper}, not \(c.op.rawValue)")
        }
        guard case .keyPath(let root, let comps, let kc) = key else { preconditionFailure("the parser takes key paths only") }
        let (s, path) = try resolve(root: root, components: comps, column: kc, in: scope)
        guard case .attribute(let rels, let attribute) = path, rels.isEmpty else {
            throw PredicateError(
                column: kc, message: "indexed:by: needs an attribute of \(s.entity.name) itself; '\(key.keyPathText!)' is not one")
        }
        var plain = c
        plain.left = key
        let recheck = try comparison(plain, in: scope)
        guard let (ix, lo, hi) = try rtreeBounds(c, attribute: attribute, entity: s.entity, index: index, column: kc) else {
            return recheck
        }
        let n = joins.indexAlias(for: s.alias)
        let col = attribute.column
        let candidates =
            "\(s.alias).Z_PK IN (SELECT \(n).Z_PK FROM \(ix.sqlName) \(n) WHERE (? <= \(n).\(col)_MIN AND \(n).\(col)_MAX <= ?))"
        return "(" + Fragment(candidates, [.real(lo), .real(hi)]) + " AND " + recheck + ")"
    }

    /// The R-tree index an `indexed:by:` comparison names, with its widened bounds; nil when
    /// the entity has no R-tree index of that name.
    func rtreeBounds(
        _ c: PredicateComparison, attribute: AttributeModel, entity: EntityModel, index: String,
        column kc: Int
    ) throws(PredicateError) -> (IndexModel, Double, Double)? {
        guard let ix = entity.indexes.first(where: { $0.name == index && $0.kind == .rtree }) else { return nil }
        guard ix.elements.contains(where: { $0.attribute.name == attribute.name }) else {
            throw PredicateError(column: kc, message: "the R-tree index '\(index)' of \(entity.name) does not index '\(attribute.name)'")
        }
        guard case .constant(.array(let bounds), _) = c.right, bounds.count == 2,
            let lo = bounds[0].sqlValue?.doubleValue, let hi = bounds[1].sqlValue?.doubleValue
        else {
            throw PredicateError(column: c.right.column, message: "indexed:by:(...) BETWEEN needs 2 numbers (or dates), like {%@, %@}")
        }
        return (ix, Self.float32Below(lo), Self.float32Above(hi))
    }

    /// `indexed:by:(a, "i") BETWEEN ... AND indexed:by:(b, "i") BETWEEN ...` over an R-tree
    /// index with `"query": "combined"`: one sub-select bounding both attributes, then both
    /// rechecks. Nil when the two sides are not such a pair.
    func combinedIndexed(_ a: Predicate, _ b: Predicate, in scope: Scope) throws(PredicateError) -> Fragment? {
        guard case .comparison(let ca) = a, case .comparison(let cb) = b,
            case .indexed(.keyPath(.object, let ka, let kca), let ia, _) = ca.left,
            case .indexed(.keyPath(.object, let kb, let kcb), let ib, _) = cb.left,
            ia == ib, ca.op == .between, cb.op == .between, ca.quantifier == .direct, cb.quantifier == .direct,
            let ix = scope.entity.indexes.first(where: { $0.name == ia && $0.kind == .rtree }), ix.combinedQuery,
            case .attribute([], let attrA) = try resolve(root: .object, components: ka, column: kca, in: scope).1,
            case .attribute([], let attrB) = try resolve(root: .object, components: kb, column: kcb, in: scope).1,
            attrA.name != attrB.name,
            let (_, loA, hiA) = try rtreeBounds(ca, attribute: attrA, entity: scope.entity, index: ia, column: kca),
            let (_, loB, hiB) = try rtreeBounds(cb, attribute: attrB, entity: scope.entity, index: ib, column: kcb)
        else { return nil }
        var plainA = ca, plainB = cb
        plainA.left = .keyPath(root: .object, components: ka, column: kca)
        plainB.left = .keyPath(root: .object, components: kb, column: kcb)
        let n = joins.indexAlias(for: scope.alias)
        let (colA, colB) = (attrA.column, attrB.column)
        let candidates =
            "\(scope.alias).Z_PK IN (SELECT \(n).Z_PK FROM \(ix.sqlName) \(n) WHERE (? <= \(n).\(colA)_MIN AND \(n).\(colA)_MAX <= ?"
            + " AND ? <= \(n).\(colB)_MIN AND \(n).\(colB)_MAX <= ?))"
        return "(" + Fragment(candidates, [.real(loA), .real(hiA), .real(loB), .real(hiB)]) + " AND "
            + (try comparison(plainA, in: scope)) + " AND " + (try comparison(plainB, in: scope)) + ")"
    }

    /// A lower bound for the R-tree's MIN of every value at or above `x`: the largest 32-bit
    /// float at or below `x`, two float steps lower. SQLite rounds a MIN down by multiplying
    /// by (1 - 2^-23) before converting (rtreeValueDown), which can land one step below the
    /// nearest float under the value; the second step covers a power-of-two boundary.
    static func float32Below(_ x: Double) -> Double {
        var f = Float(x)
        if Double(f) > x { f = f.nextDown }
        return Double(f.nextDown.nextDown)
    }

    /// An upper bound for the R-tree's MAX of every value at or below `x` (mirror of
    /// ``float32Below(_:)``).
    static func float32Above(_ x: Double) -> Double {
        var f = Float(x)
        if Double(f) < x { f = f.nextUp }
        return Double(f.nextUp.nextUp)
    }

    func isConstant(_ e: PredicateExpression) -> Bool {
        if case .constant = e { return true }
        return false
    }

    /// ANY/ALL/NONE (and a to-many key path without a quantifier, which is ANY).
    func quantified(
        _ c: PredicateComparison, parent outer: Scope, prefix: [RelationshipModel], relationship r: RelationshipModel,
        rest: [String], in scope: Scope
    ) throws(PredicateError) -> Fragment {
        let parent =
            prefix.isEmpty
            ? outer
            : Scope(
                entity: model.entity(prefix.last!.destination)!, alias: outer.alias(for: prefix),
                planner: joins, isTop: false, parent: outer, variable: nil, model: model)
        let src = collectionSource(r, parent: parent, destination: !rest.isEmpty, variable: nil)
        let text = c.left.keyPathText!
        let left: Operand
        if let elements = src.elements {
            let (s, path) = try resolve(root: .object, components: rest, column: c.left.column, in: elements)
            if case .toMany(_, let inner, _) = path {
                throw PredicateError(
                    column: c.left.column,
                    message: "'\(text)' goes through two to-many relationships ('\(r.name)', '\(inner.name)'); use SUBQUERY")
            }
            left = try operand(path, scope: s, text: text, column: c.left.column)
        } else {
            left = .value(Fragment(src.elementKey), attribute: nil, object: true, nullable: false, text: text, column: c.left.column)
        }
        let right = try operand(c.right, in: scope)
        var test = try scalar(left, c, right: right)
        let localJoins = src.elements?.joinClauses ?? ""
        let select = "SELECT \(src.owner) FROM \(src.from)\(localJoins) WHERE "
        switch c.quantifier {
        case .any, .direct:
            return "\(parent.alias).Z_PK IN (\(select)" + test + ")"
        case .none:
            return "\(parent.alias).Z_PK NOT IN (\(select)\(src.owner) IS NOT NULL AND " + test + ")"
        case .all:
            test = "NOT COALESCE(" + test + ", 0)"
            return "\(parent.alias).Z_PK NOT IN (\(select)\(src.owner) IS NOT NULL AND " + test + ")"
        }
    }

    /// A bound scalar (not an array).
    func bound(_ v: PredicateValue, column: Int, op: ComparisonOperator) throws(PredicateError) -> Fragment {
        guard let s = v.sqlValue else {
            throw PredicateError(column: column, message: "an array can only be the right side of IN or BETWEEN, not of \(op.rawValue)")
        }
        return Fragment("?", [s])
    }

    func sql(_ o: Operand, op: ComparisonOperator) throws(PredicateError) -> Fragment {
        switch o {
        case .constant(let v, let c): return try bound(v, column: c, op: op)
        case .value(let f, _, _, _, _, _): return f
        }
    }

    /// The modifier bits of NSCoreDataStringSearch / NSCoreDataStringCompare.
    func searchOptions(_ o: ComparisonOptions) -> Int {
        (o.contains(.caseInsensitive) ? 257 : 0) | (o.contains(.diacriticInsensitive) ? 384 : 0)
    }

    /// The flags of NSCoreDataLike / NSCoreDataMatches.
    func likeFlags(_ o: ComparisonOptions) -> Int {
        (o.contains(.caseInsensitive) ? 1 : 0) | (o.contains(.diacriticInsensitive) ? 2 : 0) | (o.contains(.normalized) ? 4 : 0)
    }

    /// A comparison of two compiled operands.
    func scalar(_ left: Operand, _ c: PredicateComparison, right: Operand) throws(PredicateError) -> Fragment {
        let op = c.op
        // Object references (SELF, to-one relationships) compare primary keys only.
        for (index, side) in [left, right].enumerated() {
            guard case .value(_, _, true, _, let text, _) = side else { continue }
            guard [.equal, .notEqual, .in].contains(op) else {
                throw PredicateError(column: c.operatorColumn, message: "'\(text)' is an object: compare it with ==, != or IN")
            }
            let other = index == 0 ? right : left
            if case .constant(let v, let vc) = other {
                let values: [PredicateValue]
                if case .array(let a) = v { values = a } else { values = [v] }
                for value in values {
                    switch value {
                    case .integer, .null: continue
                    default:
                        throw PredicateError(
                            column: vc,
                            message: "'\(text)' is an object: compare it with nil or an integer primary key, not \(value.phrase)")
                    }
                }
            }
        }
        let stringOptions = c.options.subtracting(.normalized)
        if !stringOptions.isEmpty || op.isStringOperator {
            for side in [left, right] {
                if case .value(_, let a?, _, _, let text, let col) = side, a.type != .string {
                    throw PredicateError(
                        column: col, message: "\(op.rawValue)\(optionsText(c.options)) compares strings; '\(text)' is \(a.type.rawValue)")
                }
            }
        }
        if op.isStringOperator {
            for side in [left, right] {
                if case .constant(let v, let col) = side {
                    guard case .string = v else {
                        throw PredicateError(column: col, message: "\(op.rawValue) needs a string, not \(v.phrase)")
                    }
                }
            }
            return try stringOperator(left, c, right: right)
        }
        switch op {
        case .between:
            guard case .constant(let v, let col) = right, case .array(let bounds) = v, bounds.count == 2 else {
                throw PredicateError(
                    column: right.column, message: "BETWEEN needs an array of 2 values on the right, like {1, 5}\(describeRight(right))")
            }
            for b in bounds where b == .null || b.sqlValue == nil {
                throw PredicateError(column: col, message: "BETWEEN bounds must be values, not \(b.phrase)")
            }
            let l = try sql(left, op: op)
            return l + " BETWEEN " + (try bound(bounds[0], column: col, op: op)) + " AND " + (try bound(bounds[1], column: col, op: op))
        case .in:
            guard case .constant(let v, let col) = right, case .array(let values) = v else {
                throw PredicateError(column: right.column, message: "IN needs an array on the right, like {1, 2}\(describeRight(right))")
            }
            let l = try sql(left, op: op)
            if values.isEmpty { return Fragment("0") }
            var list = Fragment("")
            for (i, value) in values.enumerated() {
                list = list + (i == 0 ? "" : ",") + (try bound(value, column: col, op: op))
            }
            return l + " IN (" + list + ")"
        default: break
        }
        // ==, !=, <, <=, >, >=
        if case .constant(.null, _) = right {
            guard op == .equal || op == .notEqual else {
                throw PredicateError(column: right.column, message: "nil can only be compared with == or !=")
            }
            return try sql(left, op: op) + (op == .equal ? " IS NULL" : " IS NOT NULL")
        }
        if case .constant(.null, _) = left {
            guard op == .equal || op == .notEqual else {
                throw PredicateError(column: left.column, message: "nil can only be compared with == or !=")
            }
            return try sql(right, op: op) + (op == .equal ? " IS NULL" : " IS NOT NULL")
        }
        let l = try sql(left, op: op), r = try sql(right, op: op)
        let symbol = ["==": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="][op.rawValue]!
        if !stringOptions.isEmpty {
            return "NSCoreDataStringCompare(" + l + ", " + r + ", \(searchOptions(stringOptions)), 0) \(symbol) 0"
        }
        if op == .notEqual {
            switch (left, right) {
            case (.value(_, _, _, true, _, _), .constant):
                if case .value(_, .some, _, _, _, _) = left {
                    return "(" + l + " <> " + r + " OR " + l + " IS NULL)"
                }
                if case .value(_, nil, true, _, _, _) = left {
                    return "(" + l + " <> " + r + " OR " + l + " IS NULL)"
                }
                return l + " IS NOT " + r
            case (.value, .value):
                return l + " IS NOT " + r
            default:
                return l + " <> " + r
            }
        }
        return l + " \(symbol) " + r
    }

    func describeRight(_ o: Operand) -> String {
        if case .constant(let v, _) = o { return ", not \(v.phrase)" }
        return ""
    }

    func optionsText(_ o: ComparisonOptions) -> String {
        if o.isEmpty { return "" }
        var s = "["
        if o.contains(.caseInsensitive) { s += "c" }
        if o.contains(.diacriticInsensitive) { s += "d" }
        if o.contains(.normalized) { s += "n" }
        return s + "]"
    }

    /// BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES.
    func stringOperator(_ left: Operand, _ c: PredicateComparison, right: Operand) throws(PredicateError) -> Fragment {
        let l = try sql(left, op: c.op)
        if c.op == .beginsWith, c.options == .normalized, case .value = left, case .constant(.string(let prefix), _) = right {
            // Normalized strings compare bytewise: a prefix is a range an index can use. An
            // empty prefix finds nothing, as the search function's BEGINSWITH '' does.
            if prefix.isEmpty { return Fragment("0") }
            guard let upper = PredicateCompiler.prefixUpperBound(prefix) else {
                return l + " >= " + Fragment("?", [.text(prefix)])
            }
            return "(" + l + " >= " + Fragment("?", [.text(prefix)]) + " AND " + l + " < " + Fragment("?", [.text(upper)]) + ")"
        }
        let r = try sql(right, op: c.op)
        switch c.op {
        case .like: return "NSCoreDataLike(" + l + ", " + r + ", \(likeFlags(c.options)))"
        case .matches: return "NSCoreDataMatches(" + l + ", " + r + ", \(likeFlags(c.options)))"
        default:
            let anchor = c.op == .beginsWith ? 8 : c.op == .endsWith ? 12 : 0
            return "NSCoreDataStringSearch(" + l + ", " + r + ", \(searchOptions(c.options) | anchor), 0)"
        }
    }
}
