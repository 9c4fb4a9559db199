import SchemaLabSQLite

/// A predicate compiled to SQL: the WHERE expression (without `WHERE`) and the values
/// for its `?` parameters, in the order they appear in `sql`.
package struct CompiledPredicate: Sendable, Equatable {
    /// The WHERE expression, using `t0` and the planner's aliases.
    package let sql: String
    /// One value per `?` in `sql`, in order.
    package let bindings: [SQLValue]

    /// A compiled predicate from its parts.
    package init(sql: String, bindings: [SQLValue]) {
        self.sql = sql
        self.bindings = bindings
    }
}

/// Compiles a `Predicate` to the WHERE expression Core Data's SQLite store would issue
/// for a fetch of `entity`, using `joins` for the aliases (`t0` is the fetched entity;
/// to-one key paths get plain `JOIN`s, `outer: false`; correlated subqueries take
/// fresh aliases from `JoinPlanner/subqueryAlias()`).
///
/// Constants are always bound as `?`; identifiers come only from the resolved model.
///
/// Shapes. Those marked (CD) are recorded from Core Data's SQL debug logs, (code) read from
/// Core Data's generator; those marked [I] are this lab's own choices where it has no observation.
/// - (CD) `likes > 100` → `t0.ZLIKES > ?`; `(A AND B AND C)` for a chain, `((A AND B) AND C)`
///   when the inner compound was written in parentheses; `(A OR B)` likewise; `NOT (A)`;
///   `== nil` → `IS NULL`, `!= nil` → `IS NOT NULL`; `x != 5` → `(t0.ZX <> ? OR t0.ZX IS NULL)`;
///   `BETWEEN` → `t0.ZX BETWEEN ? AND ?`; `IN` → `t0.ZX IN (?,?,?)`; booleans bound as 0/1,
///   dates as seconds since 2001; a constant on the left stays there (`100 < x` is `? < t0.ZX`).
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
/// - (code) inside `SUBQUERY(books, $b, P)`, a key path without `$b` (and `SELF`) names the
///   outer object, `t0` (see `Scope/objectScope`). `$b` to-one paths join inside the
///   subquery (`JOIN ZAUTHOR t3 ON t2.ZAUTHOR = t3.Z_PK`).
/// - (code) nil: `x IN {nil, 'a'}` binds NULL into the list; an ordering with nil, nil on the left,
///   and `BEGINSWITH`/`ENDSWITH nil` are refused with Core Data's reasons; an option on a number
///   comparison goes to `NSCoreDataStringCompare`; `x IN 'abc'` is `'abc' CONTAINS x`; `IN ''` → `1`.
///   (code) marks rules taken from Apple's shipped frameworks; docs/predicates.md gives each
///   rule with its evidence.
/// - (code) `(a + b)`, `-`, `*`, `/`, `modulus:by:` → `%`, as Core Data writes `add:to:` etc.
/// - [I] a to-many key path without a quantifier (`books.year > 2000`) is ANY.
/// - [I] `SELF == ?` → `t0.Z_PK = ?`, `SELF IN {...}` → `t0.Z_PK IN (?,...)`; a to-one
///   relationship compares its foreign key: `author == nil` → `t0.ZAUTHOR IS NULL`, `author == ?` → `t0.ZAUTHOR = ?`.
/// - [I] key path against key path: `=`, `<`, ... as written, and `!=` → `a IS NOT b` (nil != 5 true, nil != nil false).
/// - [I] `!=` on an aggregate → `(SELECT ...) IS NOT ?`, to avoid repeating the subquery.
/// - [I] `IN {}` → `0`; `TRUEPREDICATE` → `1`; `FALSEPREDICATE` → `0`; `==[n]` and `<[n]` are plain
///   comparisons; `CONTAINS[n]`/`ENDSWITH[n]` use the search function with no modifier bits (0 / 12);
///   `BEGINSWITH[n] ''` → `0`, as `BEGINSWITH ''` finds nothing in the search function.
/// - Caveat (as Core Data): `NOT (x > 5)` is SQL's three-valued NOT, so a NULL x matches neither side.
package struct PredicateCompiler {
    /// The variant the key paths resolve in.
    package let model: ResolvedModel
    /// The fetched entity (`t0`).
    package let entity: EntityModel
    /// Where to-one joins and subquery aliases come from; compiling adds to it.
    package let joins: JoinPlanner

    /// Names that stand for SQL expressions (a HAVING predicate naming the fetch's
    /// aggregate expressions: `n > 10` where `n` is `COUNT( t0.ZCOUNTRY)`). Checked first.
    package var expressionAliases: [String: String] = [:]

    /// A compiler for fetches of `entity`, adding its joins to `joins`.
    package init(model: ResolvedModel, entity: EntityModel, joins: JoinPlanner) {
        self.model = model
        self.entity = entity
        self.joins = joins
    }

    /// Compiles `p`. Throws a `PredicateError` at the column of the node that does not fit
    /// the model (an unknown key path carries the resolver's message).
    package func compile(_ predicate: Predicate) throws(PredicateError) -> CompiledPredicate {
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

    /// The terms of an AND chain, in order: `a AND b AND c` is a, b, c; a compound written in
    /// parentheses is one term (`(a AND b) AND c` is `(a AND b)`, c).
    static func conjuncts(_ p: Predicate) -> [Predicate] {
        chain(p) { if case .and(let a, let b, _) = $0 { (a, b) } else { nil } }
    }

    /// The terms of an OR chain, in order.
    static func disjuncts(_ p: Predicate) -> [Predicate] {
        chain(p) { if case .or(let a, let b, _) = $0 { (a, b) } else { nil } }
    }

    /// The terms of a chain of one compound kind (`split` gives a node's two sides, nil for
    /// another kind): the root's sides, and below them every compound of that kind not
    /// written in parentheses.
    private static func chain(_ p: Predicate, _ split: (Predicate) -> (Predicate, Predicate)?) -> [Predicate] {
        guard let (a, b) = split(p) else { return [p] }
        func terms(_ q: Predicate) -> [Predicate] {
            guard !q.isParenthesized, let (x, y) = split(q) else { return [q] }
            return terms(x) + terms(y)
        }
        return terms(a) + terms(b)
    }

    /// The index names `indexed:by:` uses in `p`, with their columns.
    package static func indexedNames(_ predicate: Predicate) -> [(name: String, column: Int)] {
        func inExpression(_ e: PredicateExpression) -> [(name: String, column: Int)] {
            switch e {
            case .indexed(_, let name, let c): return [(name, c)]
            case .subquery(let coll, _, let inner, _): return inExpression(coll) + indexedNames(inner)
            case .aggregate(_, let coll, _, _): return inExpression(coll)
            case .arithmetic(_, let a, let b, _): return inExpression(a) + inExpression(b)
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
            case .arithmetic(_, let a, let b, _): return inExpression(a) ?? inExpression(b)
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
    package func compile(_ text: String, arguments: [PredicateValue] = []) throws(PredicateError) -> CompiledPredicate {
        try compile(PredicateParser.parse(text, arguments: arguments))
    }

    /// The smallest string greater than every string that starts with `prefix` (in SQLite's
    /// BINARY order, which is Unicode scalar order): the last scalar incremented (skipping
    /// the surrogate range), dropping trailing U+10FFFF. Nil when there is none (`""`, or all U+10FFFF).
    package static func prefixUpperBound(_ prefix: String) -> String? {
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
