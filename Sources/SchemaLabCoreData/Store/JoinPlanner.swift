/// Assigns table aliases to the to-one relationship paths a fetch needs, and
/// renders the FROM clause with one join per distinct path.
///
/// A path used by a sort or a section key is joined with `LEFT OUTER JOIN` (a
/// photo without meta still sorts, as NULL); a path used only by a predicate
/// with a plain `JOIN`. A path both use gets one shared join, promoted to
/// `LEFT OUTER JOIN` (docs: "If a predicate and a sort both use the same key
/// path, expect one shared join"). Aliases are `t1`, `t2`, ... in order of
/// first request; the fetched entity is `t0`.
package final class JoinPlanner {
    package let model: ResolvedModel
    package let entity: EntityModel

    private struct Join {
        var path: String
        var parentAlias: String
        var foreignKey: String
        var table: String
        var alias: String
        var outer: Bool
        /// The ON condition when it is not `parent.FK = alias.Z_PK` (a to-many's join).
        var condition: String? = nil
    }
    private var joins: [Join] = []
    private var aliases: [String: String] = ["": "t0"]

    package init(model: ResolvedModel, entity: EntityModel) {
        self.model = model
        self.entity = entity
    }

    /// The alias of the table reached by following `relationships` (to-one only) from t0,
    /// adding joins as needed. `outer`: the caller needs a LEFT OUTER JOIN (sorts).
    package func alias(for relationships: [RelationshipModel], outer: Bool) -> String {
        var path = ""
        for r in relationships {
            let parentAlias = aliases[path]!
            path += (path.isEmpty ? "" : ".") + r.name
            if let i = joins.firstIndex(where: { $0.path == path }) {
                if outer { joins[i].outer = true }
                continue
            }
            guard let fk = r.foreignKeyColumn, let dest = model.entity(r.destination) else {
                preconditionFailure("JoinPlanner follows to-one relationships only; \(r.name) was resolved as one")
            }
            let alias = "t\(aliases.count)"
            aliases[path] = alias
            joins.append(Join(path: path, parentAlias: parentAlias, foreignKey: fk, table: dest.table, alias: alias, outer: outer))
        }
        return aliases[path]!
    }

    /// The alias of a to-many relationship's rows joined to t0 with `LEFT OUTER JOIN`, as a
    /// dictionary fetch's `count:(attachments)` joins them: `LEFT OUTER JOIN ZATTACHMENT t1 ON
    /// t0.Z_PK = t1.ZITEM`; a many-to-many joins its join table (`… Z_1TAGS t1 ON t0.Z_PK = t1.Z_1ITEMS`,
    /// [I]), whose other column holds the members' keys. One join per relationship.
    package func toManyAlias(_ relationship: RelationshipModel) -> (alias: String, table: String, keyColumn: String) {
        let path = "*" + relationship.name
        let table: String, owner: String, key: String
        switch relationship.storage {
        case .inverseForeignKey(let column):
            table = model.entity(relationship.destination)!.table
            owner = column
            key = "Z_PK"
        case .joinTable(let t, let own, let other):
            (table, owner, key) = (t, own, other)
        case .foreignKey:
            preconditionFailure("toManyAlias takes a to-many relationship")
        }
        if let alias = aliases[path] { return (alias, table, key) }
        let alias = "t\(aliases.count)"
        aliases[path] = alias
        joins.append(
            Join(
                path: path, parentAlias: "t0", foreignKey: "", table: table, alias: alias, outer: true,
                condition: "t0.Z_PK = \(alias).\(owner)"))
        return (alias, table, key)
    }

    /// The column expression of a resolved key path (`t0.ZLIKES`, `t1.ZLIKES`).
    package func column(_ keyPath: ResolvedKeyPath, outer: Bool) -> String {
        alias(for: keyPath.relationships, outer: outer) + "." + keyPath.attribute.column
    }

    /// A fresh alias for a correlated subquery's own table (`t1`, `t2`, ...), never joined.
    package func subqueryAlias() -> String {
        let alias = "t\(aliases.count)"
        aliases["#sub\(aliases.count)"] = alias
        return alias
    }

    private var indexAliases = 0

    /// A fresh alias for an R-tree sub-select over the rows of `alias` (`n1_t0`, `n2_t0`, ...).
    package func indexAlias(for alias: String) -> String {
        indexAliases += 1
        return "n\(indexAliases)_\(alias)"
    }

    /// `FROM ZPHOTO t0 [LEFT OUTER] JOIN ZPHOTOMETA t1 ON t0.ZMETA = t1.Z_PK ...`
    package var fromClause: String {
        var clause = "FROM \(entity.table) t0"
        for j in joins {
            let on = j.condition ?? "\(j.parentAlias).\(j.foreignKey) = \(j.alias).Z_PK"
            clause += " \(j.outer ? "LEFT OUTER JOIN" : "JOIN") \(j.table) \(j.alias) ON \(on)"
        }
        return clause
    }

    /// True when any join was added.
    package var hasJoins: Bool { !joins.isEmpty }
}
