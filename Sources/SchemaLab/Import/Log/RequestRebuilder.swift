import Foundation
import SchemaLabCoreData
import SchemaLabEngine

/// Turns a SELECT that Core Data logged back into the fetch request behind it, in the
/// scenario format: the entity from the table (and its `Z_ENT` restriction), the predicate
/// from WHERE (columns become key paths, `?` markers `%@` with the bound values), the sort
/// descriptors from ORDER BY, the limit and offset, and the result type from the select list.
///
/// What it cannot read back is a ``Unsupported`` with the reason; the import keeps such a
/// statement as raw SQL. A request it rebuilds is checked afterwards by issuing it again and
/// comparing the text (``LogRoundTrip``), so a wrong guess here is caught there.
package struct RequestRebuilder {
    /// Why a statement was not rebuilt.
    package struct Unsupported: Error, Sendable, CustomStringConvertible {
        package let reason: String
        package var description: String { reason }
        init(_ reason: String) { self.reason = reason }
    }

    /// The request rebuilt from a statement.
    package struct Request: Sendable, Equatable {
        /// A fetch workload (its name left empty: the import names it).
        package var workload: WorkloadSpec
        /// The select list read only the primary keys (`SELECT 0, t0.Z_PK …`): the first pass of
        /// a batched fetch, a fetch without property values, or an object-IDs fetch; the
        /// statements that follow tell which.
        package var keysOnly: Bool
        /// The markers compared for equality with an attribute (`Entity.attribute` by marker).
        package var equalityTargets: [Int: String] = [:]
    }

    let model: ResolvedModel
    /// A date bound where the log shows no value (level 1): seconds since 2001.
    let dateStandIn: Double

    /// A rebuilder for the tables and columns of `model`.
    package init(model: ResolvedModel, dateStandIn: Double) {
        self.model = model
        self.dateStandIn = dateStandIn
    }

    /// The entities stored in `table`, roots first.
    func entities(table: String) -> [EntityModel] {
        model.entities.filter { $0.table == table }.sorted { ($0.parent == nil ? 0 : 1, $0.number) < ($1.parent == nil ? 0 : 1, $1.number) }
    }

    /// The request behind `select`, with `binds` the values logged for its markers (empty at level 1)
    /// and `entityName` the entity level 2's summary names.
    package func rebuild(_ select: LoggedSelect, binds: [LoggedValue], entityName: String? = nil) throws(Unsupported) -> Request {
        let stored = entities(table: select.table)
        guard let root = stored.first else {
            if select.table.hasPrefix("Z_"),
                model.entities.flatMap(\.relationships).contains(where: {
                    if case .joinTable(select.table, _, _) = $0.storage { return true }
                    return false
                })
            {
                throw Unsupported("a many-to-many relationship's fault or prefetch through its join table \(select.table)")
            }
            throw Unsupported("table \(select.table) is not in the model")
        }
        var scope = RebuildScope(rebuilder: self, binds: binds, aliases: [select.alias: (root, "")])
        for join in select.joins { try scope.addJoin(join) }
        var entity = root
        var whereClause = select.whereClause
        let selected = Set(
            select.columns.compactMap { column -> String? in
                guard case .column(let alias, let name) = column, alias == select.alias, !["Z_ENT", "Z_PK", "Z_OPT"].contains(name) else {
                    return nil
                }
                return name
            })
        if let clause = whereClause, let (restricted, remaining) = try scope.entityRestriction(clause, stored: stored, columns: selected) {
            entity = restricted
            whereClause = remaining
            scope.aliases[select.alias] = (restricted, "")
        }
        if let name = entityName, let named = stored.first(where: { $0.name == name }) {
            entity = named
            scope.aliases[select.alias] = (named, "")
        }
        var spec = WorkloadSpec(name: "", kind: .fetch, entity: entity.name)
        var keysOnly = false
        try readSelectList(select, entity: entity, scope: &scope, spec: &spec, keysOnly: &keysOnly)
        if let clause = whereClause {
            let text = try scope.predicate(clause)
            spec.predicate = PredicateSpec(text: text, arguments: scope.arguments)
        }
        scope.arguments = []
        if let having = select.having {
            let text = try scope.predicate(having)
            spec.having = PredicateSpec(text: text, arguments: scope.arguments)
        }
        for order in select.orderBy {
            // A sort on the primary key is a sort descriptor on `objectID`.
            let keyPath = order.expression == .column(alias: select.alias, name: "Z_PK") ? "objectID" : try scope.keyPath(order.expression)
            var comparator: SchemaLabCoreData.SortComparator?
            if let collation = order.collation {
                guard let known = SchemaLabCoreData.SortComparator.allCases.first(where: { $0.collation == collation }) else {
                    throw Unsupported("ORDER BY … COLLATE \(collation) is not a sort comparator the lab knows")
                }
                comparator = known
            }
            spec.sort.append(SortSpec(keyPath: keyPath, ascending: !order.descending, comparator: comparator))
        }
        if spec.resultType == .count, !spec.sort.isEmpty { throw Unsupported("a count with ORDER BY") }
        spec.fetchLimit = select.limit ?? 0
        spec.fetchOffset = select.offset ?? 0
        return Request(workload: spec, keysOnly: keysOnly, equalityTargets: scope.equalityTargets)
    }

    /// The to-many relationship of `entity` a prefetch query reads: the one whose destination's
    /// foreign key the query selects by.
    package func prefetchKey(_ select: LoggedSelect, from entity: String) throws(Unsupported) -> String {
        let key: LoggedExpression?
        switch select.whereClause {
        case .inSelect(let k, _, _)?, .inList(let k, _, _)?: key = k
        default: key = nil
        }
        guard case .column(let alias, let column)? = key else { throw Unsupported("a prefetch the import does not read back") }
        // A many-to-many's: FROM the join table, JOIN the destination.
        let table = alias == select.alias ? select.table : select.joins.first { $0.alias == alias }?.table ?? select.table
        if column == "Z_PK", let source = model.entity(entity) {
            let family = model.entities.filter { $0.table == source.table }
            if let toOne = family.flatMap(\.relationships).first(where: {
                $0.foreignKeyColumn != nil && model.entity($0.destination)?.table == table
            }) {
                return toOne.name
            }
        }
        guard let name = toMany(of: entity, table: table, column: column) else {
            throw Unsupported("a prefetch of \(table) by \(column) that is no relationship of \(entity)")
        }
        return name
    }

    /// The to-many relationship of `entity` (or an ancestor) stored as `column` of `table`
    /// (the destination's foreign key, or a join table's column for the source).
    func toMany(of entity: String, table: String, column: String) -> String? {
        guard let source = model.entity(entity) else { return nil }
        let family = model.entities.filter { $0.table == source.table }
        for relationship in family.flatMap(\.relationships) where relationship.toMany {
            switch relationship.storage {
            case .inverseForeignKey(let fk) where fk == column && model.entity(relationship.destination)?.table == table:
                return relationship.name
            case .joinTable(let joinTable, let own, _) where joinTable == table && own == column:
                return relationship.name
            default: continue
            }
        }
        return nil
    }

    /// The section key of a controller's section query (``LogDigest``): its GROUP BY's key path.
    package func sectionKey(_ select: LoggedSelect) throws(Unsupported) -> String {
        guard let root = entities(table: select.table).first, let key = select.groupBy.first else {
            throw Unsupported("a section query on table \(select.table), which is not in the model")
        }
        var scope = RebuildScope(rebuilder: self, binds: [], aliases: [select.alias: (root, "")])
        for join in select.joins { try scope.addJoin(join) }
        return try scope.keyPath(key)
    }

    private func readSelectList(
        _ select: LoggedSelect, entity: EntityModel, scope: inout RebuildScope, spec: inout WorkloadSpec, keysOnly: inout Bool
    ) throws(Unsupported) {
        let columns = select.columns
        let alias = select.alias
        if columns.count == 1, case .function(let f, let args, _) = columns[0], f.uppercased() == "COUNT",
            args == [.star] || args == [.column(alias: alias, name: "Z_PK")]
        {
            spec.resultType = .count
            return
        }
        let leadsWithEntity: Bool = {
            if case .integer = columns.first { return true }
            return columns.first == .column(alias: alias, name: "Z_ENT")
        }()
        if leadsWithEntity, columns.count >= 2, columns[1] == .column(alias: alias, name: "Z_PK") {
            if columns.count == 2 {
                keysOnly = true
                spec.resultType = .objectIDs
                return
            }
            if columns[2] == .column(alias: alias, name: "Z_OPT") { return }
            spec.propertiesToFetch = try columns.dropFirst(2).map { (c) throws(Unsupported) in .keyPath(try scope.keyPath(c)) }
            return
        }
        if select.distinct { spec.distinct = true }
        spec.resultType = .dictionaries
        var expressionNumber = 0
        for (position, column) in columns.enumerated() {
            if case .function(let f, let args, let distinct) = column, args.count == 1, !distinct,
                let function = f.lowercased() == "total" ? AggregateFunction.sum : AggregateFunction(rawValue: f.lowercased())
            {
                expressionNumber += 1
                let key = args[0] == .star ? "objectID" : try scope.keyPath(args[0])
                let name = "\(function.rawValue)\(expressionNumber)"
                if position < select.columnNames.count, let alias = select.columnNames[position] { scope.expressionNames[alias] = name }
                spec.propertiesToFetch.append(.expression(name: name, function: function, keyPath: key))
            } else {
                spec.propertiesToFetch.append(.keyPath(try scope.keyPath(column)))
            }
        }
        spec.groupBy = try select.groupBy.map { (g) throws(Unsupported) in try scope.keyPath(g) }
    }
}
