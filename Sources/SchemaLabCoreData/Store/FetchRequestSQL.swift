import SchemaLabSQLite

/// Every statement one fetch request can issue, rendered once when the request is
/// built (never in a timed region), with the values each binds.
///
/// Shapes (docs: statement shapes §4-§6):
/// - objects: `SELECT 0, t0.Z_PK, t0.Z_OPT, … FROM … [WHERE …] [ORDER BY …] [LIMIT n [OFFSET m]]`
/// - object IDs (also the first query of a batched fetch, and includesPropertyValues = NO):
///   `SELECT 0, t0.Z_PK FROM …`
/// - count: `SELECT COUNT(*) FROM ZPHOTO` without a predicate, `SELECT COUNT( DISTINCT t0.Z_PK)
///   FROM ZPHOTO t0 … WHERE …` with one
/// - dictionaries: `SELECT [DISTINCT] t0.ZCOUNTRY, COUNT( t0.ZCOUNTRY) FROM … [WHERE …]
///   [GROUP BY …] [HAVING …] [ORDER BY …]`; `@sum` is SQLite's `total()`
/// - section counts: `SELECT key, COUNT (DISTINCT t0.Z_PK) FROM … [WHERE …] GROUP BY key ORDER BY key`
///
/// fetchLimit and fetchOffset are written as numbers (`LIMIT 100`, `LIMIT 20 OFFSET 40`), as
/// Core Data writes them.
package struct FetchRequestSQL: Sendable {
    package struct Query: Sendable, Equatable {
        package var sql: String
        package var bindings: [SQLValue]
    }

    package let objects: Query
    /// The objects query without its LIMIT, for ``page(limit:offset:)``.
    let objectsStem: String
    package let ids: Query
    package let count: Query
    package let sectionCounts: Query?
    package let dictionaries: Query?

    /// Builds the statements; `having` may name propertiesToFetch expressions (its compiler gets them).
    package init(
        fetch: FetchSQL, sorts: [(ResolvedKeyPath, Bool)], predicate: PredicateCompilation?,
        limit: Int, offset: Int, section: (ResolvedKeyPath, ascending: Bool)? = nil,
        dictionary: DictionaryShape? = nil, objectColumns: String? = nil
    ) throws {
        let e = fetch.entity
        let limitSQL = FetchSQL.limitClause(limit: limit, offset: offset)
        let main = try fetch.clauses(sorts: sorts, predicate: predicate)
        objectsStem = "SELECT \(objectColumns ?? FetchSQL.objectColumns(e, in: fetch.model)) \(main.from)\(main.whereSQL)\(main.orderBy)"
        objects = Query(sql: objectsStem + limitSQL, bindings: main.bindings)
        ids = Query(
            sql: "SELECT \(FetchSQL.entityColumn(e)), t0.Z_PK \(main.from)\(main.whereSQL)\(main.orderBy)\(limitSQL)",
            bindings: main.bindings)
        if predicate == nil && e.entityRestriction() == nil {
            count = Query(sql: "SELECT COUNT(*) FROM \(e.table)", bindings: [])
        } else {
            let c = try fetch.clauses(sorts: [], predicate: predicate)
            count = Query(sql: "SELECT COUNT( DISTINCT t0.Z_PK) \(c.from)\(c.whereSQL)", bindings: c.bindings)
        }
        if let (key, ascending) = section {
            let c = try fetch.clauses(sorts: [], extra: [key], predicate: predicate)
            let col = c.extraColumns[0]
            sectionCounts = Query(
                sql:
                    "SELECT \(col), COUNT (DISTINCT t0.Z_PK) \(c.from)\(c.whereSQL) GROUP BY \(col) ORDER BY \(col)\(ascending ? "" : " DESC")",
                bindings: c.bindings)
        } else {
            sectionCounts = nil
        }
        if let d = dictionary {
            let planner = JoinPlanner(model: fetch.model, entity: e)
            var selected: [String] = []
            var named: [String: String] = [:]
            var aliased = 0
            for p in d.properties {
                let col: String
                if let r = p.toMany {
                    let joined = planner.toManyAlias(r)
                    col = joined.alias + "." + (p.keyPath.attribute == .objectID ? joined.keyColumn : p.keyPath.attribute.column)
                } else {
                    col = planner.column(p.keyPath, outer: true)
                }
                let expr: String
                switch p.function {
                case nil: expr = col
                case .min?: expr = "min( \(col))"
                case .max?: expr = "max( \(col))"
                case .avg?: expr = "avg( \(col))"
                case .sum?: expr = "total( \(col))"
                case .count?: expr = "COUNT( \(col))"
                }
                if d.having != nil, p.function != nil {
                    // With a HAVING, Core Data names each expression and the HAVING uses the name:
                    // `COUNT( t0.ZBIRTHOFYEAR) AS __var0 … HAVING __var0 > ?`.
                    let alias = "__var\(aliased)"
                    aliased += 1
                    selected.append(expr + " AS " + alias)
                    named[p.name] = alias
                } else {
                    selected.append(expr)
                    named[p.name] = expr
                }
            }
            let groupColumns = d.groupBy.map { planner.column($0, outer: true) }
            let sortColumns = sorts.map { planner.column($0.0, outer: true) }
            let compiled = FetchSQL.restricted(try predicate?(planner), to: e)
            let having = try d.having?(planner, named)
            var sql = "SELECT \(d.distinct ? "DISTINCT " : "")\(selected.joined(separator: ", ")) \(planner.fromClause)"
            if let compiled { sql += " WHERE " + compiled.sql }
            if !groupColumns.isEmpty { sql += " GROUP BY " + groupColumns.joined(separator: ", ") }
            if let having { sql += " HAVING " + having.sql }
            if !sorts.isEmpty {
                sql += " ORDER BY " + zip(sorts, sortColumns).map { $0.0.0.orderTerm($0.1, ascending: $0.0.1) }.joined(separator: ", ")
            }
            sql += limitSQL
            dictionaries = Query(sql: sql, bindings: (compiled?.bindings ?? []) + (having?.bindings ?? []))
        } else {
            dictionaries = nil
        }
    }
}

extension FetchRequestSQL {
    /// The objects query of one page: this request with fetchLimit `limit` and fetchOffset
    /// `offset` (a statement text per page, as Core Data's requests with different offsets).
    package func page(limit: Int, offset: Int) -> Query {
        Query(sql: objectsStem + FetchSQL.limitClause(limit: limit, offset: offset), bindings: objects.bindings)
    }
}

/// What a dictionary fetch selects: properties (key paths or aggregates), grouping, HAVING.
package struct DictionaryShape {
    package struct Property {
        package var name: String
        package var keyPath: ResolvedKeyPath
        package var function: AggregateFunction?
        /// An expression over a to-many relationship (`count:(attachments)`): its rows are
        /// joined, and `keyPath` is the destination's attribute (`objectID`, Z_PK: the members).
        package var toMany: RelationshipModel?

        package init(name: String, keyPath: ResolvedKeyPath, function: AggregateFunction?, toMany: RelationshipModel? = nil) {
            self.name = name
            self.keyPath = keyPath
            self.function = function
            self.toMany = toMany
        }
    }

    package var properties: [Property]
    package var groupBy: [ResolvedKeyPath]
    package var distinct: Bool
    /// Compiles the HAVING predicate; the dictionary maps expression names to their SQL.
    package var having: ((JoinPlanner, [String: String]) throws -> WhereClause)?

    package init(
        properties: [Property], groupBy: [ResolvedKeyPath], distinct: Bool,
        having: ((JoinPlanner, [String: String]) throws -> WhereClause)?
    ) {
        self.properties = properties
        self.groupBy = groupBy
        self.distinct = distinct
        self.having = having
    }
}
