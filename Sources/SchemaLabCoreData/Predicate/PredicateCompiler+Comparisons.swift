import SchemaLabSQLite

/// Comparisons: operands, bound values, string operators, BETWEEN and IN.
extension PredicateCompiler {
    func comparison(_ c: PredicateComparison, in scope: Scope) throws(PredicateError) -> Fragment {
        var c = c
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
        let symbol = Self.sqlSymbol(op)
        if !stringOptions.isEmpty {
            return "NSCoreDataStringCompare(" + l + ", " + r
                + ", \(searchOptions(stringOptions)), \(localeFlag(stringOptions))) \(symbol) 0"
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
