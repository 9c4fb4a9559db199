import SchemaLabSQLite

/// Compiling predicates, key paths and expressions into fragments of SQL within a scope.
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
            // A chain of ANDs is one flat group, as Core Data writes it: `(a AND b AND c)`.
            var f = Fragment("(")
            for (k, t) in terms.enumerated() { f = f + (k == 0 ? "" : " AND ") + (try predicate(t, in: scope)) }
            return f + ")"
        case .or:
            // And a chain of ORs ([I]: no log of three ORs was found; the same rule as AND).
            var f = Fragment("(")
            for (k, t) in Self.disjuncts(p).enumerated() { f = f + (k == 0 ? "" : " OR ") + (try predicate(t, in: scope)) }
            return f + ")"
        case .not(let a, _): return "NOT (" + (try predicate(a, in: scope)) + ")"
        case .comparison(let c): return try comparison(c, in: scope)
        }
    }

    /// Resolves a key path expression's root and components to a scope and what they name.
    /// A key path written without a variable starts at the scope's `Scope/objectScope`;
    /// `relative` starts it at `scope` itself (the rest of `ANY books.year`, the key after `@avg`).
    func resolve(
        root: KeyPathRoot, components: [String], column: Int, in scope: Scope, relative: Bool = false
    ) throws(PredicateError) -> (Scope, ResolvedPredicatePath) {
        var base = relative ? scope : scope.objectScope
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
        case .arithmetic(let op, let a, let b, let c):
            return .value(try arithmetic(op, a, b, in: scope), attribute: nil, object: false, nullable: true, text: describe(e), column: c)
        }
    }

    /// `(l + r)`: arithmetic on numbers, dates and aggregates, as Core Data's generator writes
    /// `add:to:`, `from:subtract:`, `multiply:by:` and `divide:by:`. `/` is SQLite's: two
    /// integers divide as integers (7 / 2 is 3), where NSExpression in memory gives 3.5.
    func arithmetic(
        _ op: ArithmeticOperator, _ left: PredicateExpression, _ right: PredicateExpression, in scope: Scope
    ) throws(PredicateError) -> Fragment {
        var parts: [Fragment] = []
        for side in [left, right] {
            switch try operand(side, in: scope) {
            case .constant(let v, let c): parts.append(try bound(v, column: c, op: .equal))
            case .value(let f, let a, let object, _, let text, let c):
                if object
                    || (a.map { ![.integer16, .integer32, .integer64, .double, .float, .decimal, .date, .bool].contains($0.type) } ?? false)
                {
                    throw PredicateError(
                        column: c, message: "'\(op.rawValue)' needs numbers or dates; '\(text)' is \(a?.type.rawValue ?? "an object")")
                }
                parts.append(f)
            }
        }
        if op == .power {
            throw PredicateError(
                column: left.column,
                message:
                    "'**' of a key path is not supported: Core Data's SQL store refuses it (\"Unsupported function type passed to SQL store\")"
            )
        }
        return "(" + parts[0] + " \(op.rawValue) " + parts[1] + ")"
    }

    func describe(_ e: PredicateExpression) -> String {
        switch e {
        case .constant: return "value"
        case .keyPath: return e.keyPathText!
        case .aggregate(let f, let coll, let kp, _): return ([describe(coll), f.rawValue] + kp).joined(separator: ".")
        case .subquery: return "SUBQUERY(...)"
        case .indexed(let k, let index, _): return "indexed:by:(\(describe(k)), \"\(index)\")"
        case .arithmetic(let op, let a, let b, _): return "\(describe(a)) \(op.rawValue) \(describe(b))"
        }
    }
}
