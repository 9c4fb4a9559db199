import SchemaLabSQLite

/// Comparisons: operands, bound values, string operators, BETWEEN and IN.
extension PredicateCompiler {
    func comparison(_ c: PredicateComparison, in scope: Scope) throws(PredicateError) -> Fragment {
        var c = c
        if let membership = try collectionMembership(c, in: scope) { c = membership }
        // A constant on the left is read flipped (`100 < likes` is `likes > 100`) and written
        // back in the order of the text (`? < t0.ZLIKES`), as Core Data keeps it.
        if case .constant = c.left, !isConstant(c.right), let m = c.op.mirrored {
            (c.left, c.right, c.op) = (c.right, c.left, m)
            c.swapped = true
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
                // ANY through to-one relationships: the key path has one value, so "any of its
                // values" is that value, and the comparison is read as written without ANY. Core
                // Data's SQL store runs such a request (an app issues `ANY key IN %@`, `key` a
                // to-one, at every launch). ALL and NONE, and ANY over an attribute of the
                // fetched entity itself, stay refused: no evidence says what Core Data does.
                guard c.quantifier == .any, Self.goesThroughToOne(path) else {
                    throw PredicateError(
                        column: c.column,
                        message:
                            "\(c.quantifier.rawValue) needs a key path through a to-many relationship, but '\(c.left.keyPathText!)' has none"
                    )
                }
                c.quantifier = .direct
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

    /// True when `path` names a to-one relationship or goes through one.
    static func goesThroughToOne(_ path: ResolvedPredicatePath) -> Bool {
        switch path {
        case .object(let relationships), .attribute(let relationships, _): return !relationships.isEmpty
        case .toMany: return false
        }
    }

    /// Membership in a collection, as an ANY: `x IN books.year` and `books.year CONTAINS x` are
    /// `ANY books.year == x`; `%@ IN books` and `books CONTAINS %@` are `ANY books == %@`;
    /// `{1, 2} CONTAINS x` is `x IN {1, 2}`. Nil for other comparisons.
    func collectionMembership(_ c: PredicateComparison, in scope: Scope) throws(PredicateError) -> PredicateComparison? {
        guard c.quantifier == .direct, c.op == .in || c.op == .contains else { return nil }
        let (collection, member) = c.op == .in ? (c.right, c.left) : (c.left, c.right)
        if c.op == .contains, case .constant(.array, _) = collection {
            var m = c
            (m.left, m.op, m.right) = (member, .in, collection)
            return m
        }
        guard case .keyPath(let root, let comps, let col) = collection, !isAlias(root, comps) else { return nil }
        let (_, path) = try resolve(root: root, components: comps, column: col, in: scope)
        guard case .toMany = path else { return nil }
        var m = c
        (m.quantifier, m.left, m.op, m.right) = (.any, collection, .equal, member)
        return m
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
            let (s, path) = try resolve(root: .object, components: rest, column: c.left.column, in: elements, relative: true)
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
    /// `[l]` adds 32, and the function's last argument becomes 1 (``localeFlag(_:)``): SwiftData's
    /// `localizedStandardContains` is logged as `NSCoreDataStringSearch( t0.ZNAME, ?, 417, 1)`.
    func searchOptions(_ o: ComparisonOptions) -> Int {
        (o.contains(.caseInsensitive) ? 257 : 0) | (o.contains(.diacriticInsensitive) ? 384 : 0)
            | (o.contains(.localeSensitive) ? 32 : 0)
    }

    /// The last argument of NSCoreDataStringSearch and NSCoreDataStringCompare: 1 with `[l]`.
    func localeFlag(_ o: ComparisonOptions) -> Int { o.contains(.localeSensitive) ? 1 : 0 }

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
        try checkNil(left, c, right: right)
        let stringOptions = c.options.subtracting(.normalized)
        // (code) An option on ==, <, ... compares both sides as text with NSCoreDataStringCompare,
        // numbers too (`age ==[c] 41`), as Core Data's generator does; only the string operators
        // need strings.
        if op.isStringOperator {
            for side in [left, right] {
                if case .value(_, let a?, _, _, let text, let col) = side, a.type != .string {
                    throw PredicateError(
                        column: col, message: "\(op.rawValue)\(optionsText(c.options)) compares strings; '\(text)' is \(a.type.rawValue)")
                }
                if case .constant(let v, let col) = side {
                    switch v {
                    case .string, .null: break
                    default: throw PredicateError(column: col, message: "\(op.rawValue) needs a string, not \(v.phrase)")
                    }
                }
            }
            return try stringOperator(left, c, right: right)
        }
        switch op {
        case .between: return try between(left, c, right: right)
        case .in: return try membership(left, c, right: right)
        default: break
        }
        // ==, !=, <, <=, >, >=
        if case .constant(.null, _) = right {
            // (CD) `== nil` is IS NULL, `!= nil` IS NOT NULL (checkNil refused the orderings).
            return try sql(left, op: op) + (op == .equal ? " IS NULL" : " IS NOT NULL")
        }
        let l = try sql(left, op: op), r = try sql(right, op: op)
        let symbol = Self.sqlSymbol(op)
        if !stringOptions.isEmpty {
            let (first, second) = c.swapped ? (r, l) : (l, r)
            let written = c.swapped ? Self.sqlSymbol(op.mirrored ?? op) : symbol
            return "NSCoreDataStringCompare(" + first + ", " + second
                + ", \(searchOptions(stringOptions)), \(localeFlag(stringOptions))) \(written) 0"
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
        if c.swapped, let written = op.mirrored {
            return r + " \(Self.sqlSymbol(written)) " + l
        }
        return l + " \(symbol) " + r
    }

    /// Refuses nil where Core Data's SQL generator raises, with its reason: a constant nil on
    /// the left of any operator, a nil in an ordering (`<`, `<=`, `>`, `>=`), and a nil prefix or
    /// suffix (BEGINSWITH, ENDSWITH). A nil CONTAINS, LIKE or MATCHES pattern is bound as NULL
    /// (the functions answer 0, as NSPredicate answers NO).
    func checkNil(_ left: Operand, _ c: PredicateComparison, right: Operand) throws(PredicateError) {
        func isNil(_ o: Operand) -> Bool { if case .constant(.null, _) = o { true } else { false } }
        // The side written first in the text (the compiler swaps `5 < x` to read `x > 5`).
        let (written, other) = c.swapped ? (right, left) : (left, right)
        if isNil(written) {
            let op = c.swapped ? (c.op.mirrored ?? c.op) : c.op
            throw PredicateError(
                column: written.column,
                message: "nil on the left of \(op.rawValue): Core Data's SQL store refuses it (\"can't use NULL on left hand side\")")
        }
        guard isNil(other) else { return }
        let column = other.column
        switch c.op {
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            throw PredicateError(
                column: column, message: "\(c.op.rawValue) nil: Core Data's SQL store refuses it (\"illegal comparison with NULL\")")
        case .beginsWith, .endsWith:
            throw PredicateError(
                column: column,
                message:
                    "\(c.op.rawValue) nil: Core Data's SQL store refuses it (\"unimplemented SQL generation for predicate\"); NSPredicate answers NO"
            )
        default: return
        }
    }

    func isStringAttribute(_ o: Operand) -> Bool {
        if case .value(_, let a?, _, _, _, _) = o { return a.type == .string }
        return false
    }

    /// `x BETWEEN {low, high}` → `x BETWEEN ? AND ?`; [I] a nil bound is bound as NULL, so the
    /// comparison is never true (NSPredicate orders nothing against nil).
    func between(_ left: Operand, _ c: PredicateComparison, right: Operand) throws(PredicateError) -> Fragment {
        guard case .constant(let v, let col) = right, case .array(let bounds) = v, bounds.count == 2 else {
            throw PredicateError(
                column: right.column, message: "BETWEEN needs an array of 2 values on the right, like {1, 5}\(describeRight(right))")
        }
        for b in bounds where b.sqlValue == nil {
            throw PredicateError(column: col, message: "BETWEEN bounds must be values, not \(b.phrase)")
        }
        let onStrings = bounds.contains { if case .string = $0 { true } else { false } } || isStringAttribute(left)
        if !c.options.subtracting(.normalized).isEmpty, onStrings {
            throw PredicateError(
                column: c.operatorColumn, message: "BETWEEN\(optionsText(c.options)) on strings is not supported: write two comparisons")
        }
        let l = try sql(left, op: .between)
        return l + " BETWEEN " + (try bound(bounds[0], column: col, op: .between)) + " AND "
            + (try bound(bounds[1], column: col, op: .between))
    }

    /// `x IN {a, b}` → `x IN (?,?)`, a nil element bound as NULL and options ignored, as Core
    /// Data's generator does (so a nil x is never IN, as in NSPredicate); a string on the right is
    /// Apple's substring test (`x IN 'abc'` is `'abc' CONTAINS x`), and an empty one is true.
    func membership(_ left: Operand, _ c: PredicateComparison, right: Operand) throws(PredicateError) -> Fragment {
        let stringOnRight: Bool
        switch right {
        case .constant(.string, _): stringOnRight = true
        case .value(_, let a?, false, _, _, _): stringOnRight = a.type == .string
        default: stringOnRight = false
        }
        switch right {
        case .constant(.null, _):
            return Fragment("0")
        case .constant(.string(""), _):
            return Fragment("1")
        case _ where stringOnRight:
            if case .value(_, let la?, _, _, let text, let col) = left, la.type != .string {
                throw PredicateError(
                    column: col, message: "IN with a string on the right tests for a substring; '\(text)' is \(la.type.rawValue)")
            }
            if case .constant(let v, let col) = left {
                switch v {
                case .string, .null: break
                default: throw PredicateError(column: col, message: "IN with a string on the right needs a string, not \(v.phrase)")
                }
            }
            let substring = PredicateComparison(
                left: .constant(.null, column: 0), op: .contains, options: c.options, right: .constant(.null, column: 0),
                column: c.column, operatorColumn: c.operatorColumn)
            return try stringOperator(right, substring, right: left)
        case .constant(.array(let values), let col):
            let l = try sql(left, op: .in)
            let scalars = values.filter { $0.sqlValue != nil }  // a nested array never equals a scalar
            if scalars.isEmpty { return Fragment("0") }
            var list = Fragment("")
            for (i, value) in scalars.enumerated() {
                list = list + (i == 0 ? "" : ",") + (try bound(value, column: col, op: .in))
            }
            return l + " IN (" + list + ")"
        default:
            throw PredicateError(
                column: right.column,
                message: "IN needs an array, a to-many relationship or a string on the right, like {1, 2}\(describeRight(right))")
        }
    }

    /// SQL's symbol for a plain comparison operator (`==` is `=`, `!=` is `<>`).
    static func sqlSymbol(_ op: ComparisonOperator) -> String {
        ["==": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="][op.rawValue]!
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
        if o.contains(.localeSensitive) { s += "l" }
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
            return "NSCoreDataStringSearch(" + l + ", " + r + ", \(searchOptions(c.options) | anchor), \(localeFlag(c.options)))"
        }
    }
}
