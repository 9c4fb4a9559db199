import SchemaLabSQLite

/// To-many key paths: the correlated sub-selects of ANY, ALL, NONE, SUBQUERY and aggregates.
extension PredicateCompiler {
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
            let (s, path) = try resolve(root: .object, components: keyPath, column: column, in: elements, relative: true)
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
        // The correlation in parentheses, as Core Data writes it: `WHERE (t0.Z_PK = t1.ZITEM) )`;
        // a SUBQUERY's predicate inside them: `WHERE (t0.Z_PK = t1.ZSTOP AND (<predicate>)) )`.
        var whereClause = Fragment("(\(parent.alias).Z_PK = \(src.owner)")
        if let filter {
            whereClause = whereClause + " AND (" + (try predicate(filter.predicate, in: src.elements!)) + ")"
        }
        whereClause = whereClause + ")"
        let localJoins = src.elements?.joinClauses ?? ""
        return "(SELECT \(selected) FROM \(src.from)\(localJoins) WHERE " + whereClause + " )"
    }
}
