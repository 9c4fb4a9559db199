import SchemaLabSQLite

/// `indexed:by:` comparisons against an R-tree fetch index.
extension PredicateCompiler {
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
        let col = StoreLayout.rtreeColumns(column: attribute.column)
        let candidates =
            "\(s.alias).Z_PK IN (SELECT \(n).Z_PK FROM \(ix.sqlName) \(n) WHERE (? <= \(n).\(col.min) AND \(n).\(col.max) <= ?))"
        return "(" + Fragment(candidates, [.real(lo), .real(hi)]) + " AND " + recheck + ")"
    }

    /// The R-tree index an `indexed:by:` comparison names, with its widened bounds; nil when
    /// the entity has no R-tree index of that name.
    func rtreeBounds(
        _ c: PredicateComparison, attribute: AttributeModel, entity: EntityModel, index: String,
        column kc: Int
    ) throws(PredicateError) -> (IndexModel, Double, Double)? {
        guard let ix = entity.indexes.first(where: { $0.name == index && $0.kind == .rtree }) else { return nil }
        guard ix.elements.contains(where: { $0.name == attribute.name }) else {
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
        let (colA, colB) = (StoreLayout.rtreeColumns(column: attrA.column), StoreLayout.rtreeColumns(column: attrB.column))
        let candidates =
            "\(scope.alias).Z_PK IN (SELECT \(n).Z_PK FROM \(ix.sqlName) \(n) WHERE (? <= \(n).\(colA.min) AND \(n).\(colA.max) <= ?"
            + " AND ? <= \(n).\(colB.min) AND \(n).\(colB.max) <= ?))"
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
}
