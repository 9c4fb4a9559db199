/// The SELECT statements Core Data issues for one entity (docs/coredata-sql.md §4-§6).
///
/// Column list: `0` (no inheritance), Z_PK, Z_OPT, attributes alphabetically,
/// foreign keys last. A sort or section key through a to-one relationship adds
/// one `LEFT OUTER JOIN` per distinct relationship path, aliased t1, t2, ...
public struct FetchSQL: Sendable {
    public let model: ObjectModel
    public let entity: EntityModel

    public init(model: ObjectModel, entity: EntityModel) {
        self.model = model
        self.entity = entity
    }

    /// `0, t0.Z_PK, t0.Z_OPT, t0.ZA, ..., t0.ZFK` for `alias`.
    public static func objectColumns(_ e: EntityModel, alias: String = "t0") -> String {
        (["0", "\(alias).Z_PK", "\(alias).Z_OPT"] + e.attributes.map { "\(alias).\($0.column)" }
            + e.toOneRelationships.map { "\(alias).\($0.foreignKeyColumn!)" }).joined(separator: ", ")
    }

    /// The FROM clause with the joins needed by `keyPaths`, and each key path's column expression.
    public func from(joining keyPaths: [ResolvedKeyPath]) -> (clause: String, columns: [String]) {
        var aliases: [String: String] = ["": "t0"]
        var clause = "FROM \(entity.table) t0"
        var columns: [String] = []
        for kp in keyPaths {
            var path = ""
            var current = entity
            for r in kp.relationships {
                let parentAlias = aliases[path]!
                path += (path.isEmpty ? "" : ".") + r.name
                let dest = model.entity(r.destination)!
                if aliases[path] == nil {
                    let alias = "t\(aliases.count)"
                    aliases[path] = alias
                    clause += " LEFT OUTER JOIN \(dest.table) \(alias) ON \(parentAlias).\(r.foreignKeyColumn!) = \(alias).Z_PK"
                }
                current = dest
            }
            _ = current
            columns.append("\(aliases[path]!).\(kp.attribute.column)")
        }
        return (clause, columns)
    }

    func orderBy(_ sorts: [(ResolvedKeyPath, Bool)], columns: [String]) -> String {
        guard !sorts.isEmpty else { return "" }
        let terms = zip(sorts, columns).map { sort, col in sort.1 ? col : col + " DESC" }
        return " ORDER BY " + terms.joined(separator: ", ")
    }

    /// A fetch of whole objects, sorted.
    public func objects(sortedBy sorts: [(ResolvedKeyPath, Bool)]) -> String {
        let (from, cols) = from(joining: sorts.map(\.0))
        return "SELECT \(Self.objectColumns(entity)) \(from)\(orderBy(sorts, columns: cols))"
    }

    /// The IDs-first query of a batched fetch (objectIDResultType shape).
    public func ids(sortedBy sorts: [(ResolvedKeyPath, Bool)]) -> String {
        let (from, cols) = from(joining: sorts.map(\.0))
        return "SELECT 0, t0.Z_PK \(from)\(orderBy(sorts, columns: cols))"
    }

    /// The fetched-results controller's section-count query (§5), ordered like the first sort.
    public func sectionCounts(section: ResolvedKeyPath, ascending: Bool) -> String {
        let (from, cols) = from(joining: [section])
        let c = cols[0]
        return "SELECT \(c), COUNT (DISTINCT t0.Z_PK) \(from) GROUP BY \(c) ORDER BY \(c)\(ascending ? "" : " DESC")"
    }

    /// One window of a batched fetch: `count` primary keys bound as `IN (?,...)`, no ORDER BY.
    /// (Core Data binds them through the `_Z_intarray0` virtual table; we use `IN (?,...)`.)
    public func batch(count: Int) -> String {
        let marks = Array(repeating: "?", count: count).joined(separator: ",")
        return "SELECT \(Self.objectColumns(entity)) FROM \(entity.table) t0 WHERE t0.Z_PK IN (\(marks)) LIMIT \(count)"
    }

    /// Firing one fault: the object's row by primary key.
    public var fault: String {
        "SELECT \(Self.objectColumns(entity)) FROM \(entity.table) t0 WHERE t0.Z_PK = ?"
    }
}
