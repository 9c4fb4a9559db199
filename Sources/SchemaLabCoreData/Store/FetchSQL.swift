import SchemaLabSQLite

/// A WHERE expression and the values bound to its `?`s, in order.
package struct WhereClause: Sendable, Equatable {
    package var sql: String
    package var bindings: [SQLValue]

    package init(sql: String, bindings: [SQLValue]) {
        self.sql = sql
        self.bindings = bindings
    }
}

/// Compiles a predicate into a WHERE expression, adding the joins it needs to the planner.
package typealias PredicateCompilation = (JoinPlanner) throws -> WhereClause

/// The SELECT statements Core Data issues for one entity (docs: statement shapes §4-§6).
///
/// Column list: `0` (no inheritance), Z_PK, Z_OPT, attributes alphabetically,
/// foreign keys last. A sort or section key through a to-one relationship adds
/// one `LEFT OUTER JOIN` per distinct relationship path (t1, t2, ...); a path only a
/// predicate uses is a plain `JOIN`; a shared path is one `LEFT OUTER JOIN`.
package struct FetchSQL: Sendable {
    package let model: ResolvedModel
    package let entity: EntityModel

    package init(model: ResolvedModel, entity: EntityModel) {
        self.model = model
        self.entity = entity
    }

    /// `0, t0.Z_PK, t0.Z_OPT, t0.ZA, ..., t0.ZFK` for `alias`.
    package static func objectColumns(_ entity: EntityModel, in model: ResolvedModel, alias: String = "t0") -> String {
        ([entityColumn(entity, alias: alias), "\(alias).Z_PK", "\(alias).Z_OPT"]
            + selectedColumns(entity, in: model).map { "\(alias).\($0)" })
            .joined(separator: ", ")
    }

    /// The first column of an object or ID query: `0` for an entity without inheritance, as
    /// Core Data writes it; `t0.Z_ENT` for one whose table it shares with other entities,
    /// whose rows say which entity each is.
    package static func entityColumn(_ entity: EntityModel, alias: String = "t0") -> String {
        entity.sharesTable ? "\(alias).Z_ENT" : "0"
    }

    /// The columns of an object query after Z_PK and Z_OPT: the entity's attributes and to-one
    /// keys, then those every entity below it adds (each sub-entity in entity-number order,
    /// its own attributes then its own keys), so that a row of any of them can be read.
    package static func selectedColumns(_ entity: EntityModel, in model: ResolvedModel) -> [String] {
        var columns = entity.attributes.map(\.column) + entity.toOneKeyColumns
        for number in entity.subentityNumbers.sorted() {
            let sub = model.entities[number - 1]
            for c in sub.attributes.map(\.column) + sub.toOneKeyColumns where !columns.contains(c) { columns.append(c) }
        }
        return columns
    }

    /// The parts of a fetch: FROM with joins, WHERE, ORDER BY, and the WHERE's bindings.
    package struct Clauses: Sendable {
        package var from: String
        package var whereSQL: String
        package var orderBy: String
        package var bindings: [SQLValue]
        /// Column expressions requested through `FetchSQL/clauses(sorts:extra:predicate:)`'s `extra`.
        package var extraColumns: [String]
    }

    /// Plans the joins for `sorts` (outer), `extra` key paths (outer: section keys, fetched
    /// properties) and the predicate (inner), and renders the clauses.
    package func clauses(
        sorts: [(ResolvedKeyPath, Bool)], extra: [ResolvedKeyPath] = [],
        predicate: PredicateCompilation?
    ) throws -> Clauses {
        let planner = JoinPlanner(model: model, entity: entity)
        let sortColumns = sorts.map { planner.column($0.0, outer: true) }
        let extraColumns = extra.map { planner.column($0, outer: true) }
        let compiled = Self.restricted(try predicate?(planner), to: entity)
        let orderBy =
            sorts.isEmpty
            ? "" : " ORDER BY " + zip(sorts, sortColumns).map { $0.0.0.orderTerm($0.1, ascending: $0.0.1) }.joined(separator: ", ")
        return Clauses(
            from: planner.fromClause, whereSQL: compiled.map { " WHERE " + $0.sql } ?? "", orderBy: orderBy,
            bindings: compiled?.bindings ?? [], extraColumns: extraColumns)
    }

    /// `clause` with the entity's restriction (`EntityModel/entityRestriction(alias:)`) after
    /// it, as Core Data ANDs its restricting-entity predicate after the request's:
    /// `(<predicate> AND t0.Z_ENT = ?)` ([I]: the exact text; no log of it was found).
    package static func restricted(_ clause: WhereClause?, to entity: EntityModel) -> WhereClause? {
        guard let r = entity.entityRestriction() else { return clause }
        let numbers = r.numbers.map { SQLValue.integer(Int64($0)) }
        guard let clause else { return WhereClause(sql: r.sql, bindings: numbers) }
        return WhereClause(sql: "(\(clause.sql) AND \(r.sql))", bindings: clause.bindings + numbers)
    }

    /// ` LIMIT 100`, ` LIMIT 100 OFFSET 200` when the request has a fetchLimit or fetchOffset:
    /// the numbers written into the text, as Core Data writes them (validated integers, never
    /// a value from a predicate). An offset without a limit is ` LIMIT -1 OFFSET 200` (SQLite
    /// needs a LIMIT before OFFSET; -1 is its "none").
    static func limitClause(limit: Int, offset: Int) -> String {
        if limit == 0 && offset == 0 { return "" }
        let l = limit == 0 ? "-1" : String(limit)
        return offset == 0 ? " LIMIT \(l)" : " LIMIT \(l) OFFSET \(offset)"
    }

    /// A fetch of whole objects, sorted (tests and simple callers: no predicate, no limit).
    package func objects(sortedBy sorts: [(ResolvedKeyPath, Bool)]) -> String {
        let c = try! clauses(sorts: sorts, predicate: nil)
        return "SELECT \(Self.objectColumns(entity, in: model)) \(c.from)\(c.whereSQL)\(c.orderBy)"
    }

    /// The IDs-first query of a batched fetch (objectIDResultType shape), no predicate.
    package func ids(sortedBy sorts: [(ResolvedKeyPath, Bool)]) -> String {
        let c = try! clauses(sorts: sorts, predicate: nil)
        return "SELECT \(Self.entityColumn(entity)), t0.Z_PK \(c.from)\(c.whereSQL)\(c.orderBy)"
    }

    /// One window of a batched fetch, or the destinations of a to-one prefetch: `count` primary
    /// keys, no ORDER BY, `LIMIT count` written as a number, as Core Data logs it:
    /// `… FROM ZPHOTO t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0) LIMIT 20`.
    /// `columns` replaces the object columns (a partial fetch's `1, t0.Z_PK, t0.ZNAME`).
    package func batch(count: Int, binding: KeyBinding = .integerArray, columns: String? = nil) -> String {
        "SELECT \(columns ?? Self.objectColumns(entity, in: model)) FROM \(entity.table) t0 WHERE t0.Z_PK IN \(binding.list(count: count)) LIMIT \(count)"
    }

    /// Firing one fault: the object's row by primary key.
    package var fault: String {
        "SELECT \(Self.objectColumns(entity, in: model)) FROM \(entity.table) t0 WHERE t0.Z_PK = ?"
    }

    /// Firing a to-many fault: the destination's primary keys for one source object.
    /// One-to-many: `SELECT 0, t0.Z_PK FROM ZBOOK t0 WHERE t0.ZAUTHOR = ?`; many-to-many:
    /// through the join table ([I]: the join's shape is the lab's).
    package func toManyFault(_ relationship: RelationshipModel) -> String {
        let dest = model.entity(relationship.destination)!
        if let order = relationship.orderColumn {
            // An ordered to-many: the keys in order, with their order keys ([I]: the shape).
            switch relationship.storage {
            case .inverseForeignKey(let column):
                return
                    "SELECT \(Self.entityColumn(dest)), t0.Z_PK, t0.\(order) FROM \(dest.table) t0 WHERE t0.\(column) = ? ORDER BY t0.\(order)"
            case .joinTable(let table, let own, let other):
                return
                    "SELECT \(Self.entityColumn(dest)), t0.Z_PK, t1.\(order) FROM \(table) t1 JOIN \(dest.table) t0 ON t0.Z_PK = t1.\(other) WHERE t1.\(own) = ? ORDER BY t1.\(order)"
            case .foreignKey:
                preconditionFailure("toManyFault takes a to-many relationship")
            }
        }
        switch relationship.storage {
        case .inverseForeignKey(let column):
            return "SELECT \(Self.entityColumn(dest)), t0.Z_PK FROM \(dest.table) t0 WHERE t0.\(column) = ?"
        case .joinTable(let table, let own, let other):
            // The join table first, as Core Data logs it: `FROM Z_1TAGS t1 JOIN ZTAG t0 ON …`.
            return
                "SELECT \(Self.entityColumn(dest)), t0.Z_PK FROM \(table) t1 JOIN \(dest.table) t0 ON t0.Z_PK = t1.\(other) WHERE t1.\(own) = ?"
        case .foreignKey:
            preconditionFailure("toManyFault takes a to-many relationship")
        }
    }

    /// The result column that holds the source's key in ``toManyPrefetch(_:count:)``.
    package func toManyPrefetchOwnerColumn(_ relationship: RelationshipModel) -> Int32 {
        let dest = model.entity(relationship.destination)!
        let columns = Self.selectedColumns(dest, in: model)
        if case .inverseForeignKey(let column) = relationship.storage, let position = columns.firstIndex(of: column) {
            return Int32(3 + position)
        }
        return Int32(3 + columns.count)
    }

    /// The result column that holds an ordered to-many's order key in ``toManyPrefetch(_:count:)``.
    package func toManyPrefetchOrderColumn(_ relationship: RelationshipModel) -> Int32? {
        guard let order = relationship.orderColumn else { return nil }
        let dest = model.entity(relationship.destination)!
        let columns = Self.selectedColumns(dest, in: model)
        if case .joinTable = relationship.storage { return Int32(3 + columns.count + 1) }
        return columns.firstIndex(of: order).map { Int32(3 + $0) }
    }

    /// The destinations of a to-many for `count` sources, sorted by the source key as Core Data
    /// sorts them (`… WHERE t0.ZAUTHOR IN (SELECT * FROM _Z_intarray0) ORDER BY t0.ZAUTHOR`);
    /// an ordered to-many adds its order key to the sort. The columns are the destination's
    /// object columns (one-to-many: the source key is its foreign key among them; many-to-many:
    /// the join table's source column is added last).
    package func toManyPrefetch(_ relationship: RelationshipModel, count: Int, binding: KeyBinding = .integerArray) -> String {
        let dest = model.entity(relationship.destination)!
        let list = binding.list(count: count)
        switch relationship.storage {
        case .inverseForeignKey(let column):
            let order = " ORDER BY t0.\(column)" + (relationship.orderColumn.map { ", t0.\($0)" } ?? "")
            return "SELECT \(Self.objectColumns(dest, in: model)) FROM \(dest.table) t0 WHERE t0.\(column) IN \(list)\(order)"
        case .joinTable(let table, let own, let other):
            return
                "SELECT \(Self.objectColumns(dest, in: model)), t1.\(own)\(relationship.orderColumn.map { ", t1.\($0)" } ?? "") FROM \(table) t1 JOIN \(dest.table) t0 ON t0.Z_PK = t1.\(other) WHERE t1.\(own) IN \(list) ORDER BY t1.\(own)\(relationship.orderColumn.map { ", t1.\($0)" } ?? "")"
        case .foreignKey:
            preconditionFailure("toManyPrefetch takes a to-many relationship")
        }
    }
}
