import SchemaLabSQLite

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

    /// The scope a key path without a variable names (`age`, `SELF`): the object the predicate
    /// is evaluated on. Inside `SUBQUERY(friends, $f, $f.age > age)` that is still the fetched
    /// object, not the member (the member is reached through `$f` only), as NSPredicate
    /// evaluates a subquery's predicate with the outer object and Core Data's SQL generator
    /// scopes only `$f` key paths to the subquery.
    var objectScope: Scope { isTop ? self : parent!.objectScope }

    func lookup(_ variable: String) -> Scope? {
        self.variable == variable ? self : parent?.lookup(variable)
    }
}
