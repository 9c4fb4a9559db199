import SchemaLabCoreData
import SchemaLabEngine

/// Turns the writes of a log's saves back into write workloads with the observed mix: per
/// table, an INSERT shape becomes an `append` of the data set's root (as many objects per save
/// as the log shows), an UPDATE shape an `update` of as many objects per save setting the
/// columns it sets, a DELETE shape a `delete` of as many objects per save. Each is weighted
/// by the saves it ran in.
///
/// What a write workload of the lab cannot do is an ``RequestRebuilder/Unsupported`` with the
/// reason: an insert into a shared table whose entity the log does not bind, an update that
/// sets only relationships.
package struct SaveRebuilder {
    typealias Unsupported = RequestRebuilder.Unsupported

    let model: ResolvedModel
    /// The data set's root entity.
    let root: String
    /// Rows the data set has at its smallest size: the objects an update or delete may pick.
    let rows: Int
    let rebuilder: RequestRebuilder

    package init(model: ResolvedModel, root: String, rows: Int, dateStandIn: Double) {
        self.model = model
        self.root = root
        self.rows = rows
        self.rebuilder = RequestRebuilder(model: model, dateStandIn: dateStandIn)
    }

    /// The write workload for one write shape.
    package func rebuild(_ shape: LoggedShape) throws(RequestRebuilder.Unsupported) -> WorkloadSpec {
        let tokens: [LoggedSQLToken]
        do { tokens = try LoggedSQLLexer.tokens(shape.first.sql) } catch {
            throw Unsupported("the import does not parse it: \(error.message)")
        }
        let words = tokens.compactMap { token -> String? in
            if case .word(let w) = token { return w }
            return nil
        }
        guard let verb = words.first?.uppercased() else { throw Unsupported("an empty statement") }
        let table = LogDigest.writtenTable(shape.first.sql)
        guard let entity = model.entities.first(where: { $0.table == table && $0.parent == nil }) else {
            throw Unsupported("table \(table) is not an entity's table (a join table's rows follow a relationship's changes)")
        }
        let saves = max(1, shape.saves)
        let perSave = min(max(1, (shape.runs + saves - 1) / saves), Int(Int32.max))
        var workload: WorkloadSpec
        switch verb {
        case "INSERT":
            let inserted = try insertedEntity(tokens, table: entity, binds: shape.first.binds)
            workload = WorkloadSpec(
                name: "", kind: .append, entity: inserted.name == root ? nil : inserted.name,
                relate: relatedToOnes(tokens, entity: inserted, binds: shape.first.binds), count: perSave, saveEvery: perSave)
        case "UPDATE":
            let picked = min(perSave, max(1, rows))
            workload = WorkloadSpec(name: "", kind: .update, entity: entity.name)
            workload.predicate = PredicateSpec(text: "self IN %@", arguments: [.array((1...picked).map { .integer(Int64($0)) })])
            workload.set = try assignments(tokens, entity: entity, binds: shape.first.binds)
            guard !workload.set.isEmpty else {
                if Self.setColumns(tokens) == ["Z_OPT"] {
                    throw Unsupported(
                        "the version of an object whose to-many changed (an append's 'relate' writes it, in the save of the INSERT that points at it)"
                    )
                }
                throw Unsupported("an update that sets no attribute (relationships only)")
            }
        case "DELETE":
            let picked = min(perSave, max(1, rows))
            workload = WorkloadSpec(name: "", kind: .delete, entity: entity.name)
            workload.predicate = PredicateSpec(text: "self IN %@", arguments: [.array((1...picked).map { .integer(Int64($0)) })])
        default:
            throw Unsupported("a \(verb) statement")
        }
        workload.weight = Double(saves)
        workload.device = DeviceUsage(runs: shape.device.runs, seconds: shape.device.seconds)
        return workload
    }

    /// `INSERT INTO ZPOST(Z_PK, Z_ENT, …)`: the entity its Z_ENT binds, or the table's entity
    /// when the log binds nothing (a shared table's abstract root cannot be inserted).
    func insertedEntity(_ tokens: [LoggedSQLToken], table root: EntityModel, binds: [LoggedValue]) throws(Unsupported) -> EntityModel {
        let columns = insertColumns(tokens)
        if let at = columns.firstIndex(of: "Z_ENT"), at < binds.count, case .integer(let number) = binds[at],
            let entity = model.entities.first(where: { $0.number == Int(number) && $0.table == root.table })
        {
            return entity
        }
        guard !root.isAbstract else {
            throw Unsupported("an insert into \(root.table), shared by \(root.name)'s sub-entities, whose entity the log does not bind")
        }
        return root
    }

    /// The to-one relationships whose foreign key the logged INSERT binds to a value: the new
    /// objects point at existing ones (`relate`). A log without bound values relates none.
    func relatedToOnes(_ tokens: [LoggedSQLToken], entity: EntityModel, binds: [LoggedValue]) -> [String] {
        let columns = insertColumns(tokens)
        return entity.toOneRelationships.compactMap { relationship in
            guard let column = relationship.foreignKeyColumn, let at = columns.firstIndex(of: column), at < binds.count else { return nil }
            if case .null = binds[at] { return nil }
            return relationship.name
        }
    }

    /// The columns `UPDATE … SET ZA = ?, Z_OPT = ? WHERE …` sets.
    static func setColumns(_ tokens: [LoggedSQLToken]) -> [String] {
        guard let set = tokens.firstIndex(where: { $0.isWord("SET") }) else { return [] }
        var columns: [String] = []
        var index = set + 1
        while index + 1 < tokens.count, case .word(let column) = tokens[index], tokens[index + 1] == .symbol("=") {
            columns.append(column)
            index += 3
            guard index < tokens.count, tokens[index] == .symbol(",") else { break }
            index += 1
        }
        return columns
    }

    /// The column list of `INSERT INTO ZT(Z_PK, Z_ENT, …) VALUES(…)`.
    func insertColumns(_ tokens: [LoggedSQLToken]) -> [String] {
        guard let open = tokens.firstIndex(of: .symbol("(")) else { return [] }
        var columns: [String] = []
        for token in tokens[(open + 1)...] {
            if token == .symbol(")") { break }
            if case .word(let column) = token { columns.append(column) }
        }
        return columns
    }

    /// `SET ZA = ?, ZB = ?, Z_OPT = ?`: each attribute column with its logged value (or a stand-in).
    func assignments(_ tokens: [LoggedSQLToken], entity: EntityModel, binds: [LoggedValue]) throws(Unsupported) -> [AttributeAssignment] {
        guard let set = tokens.firstIndex(where: { $0.isWord("SET") }) else { throw Unsupported("an UPDATE without SET") }
        var out: [AttributeAssignment] = []
        var marker = 0
        var index = set + 1
        let family = model.entities.filter { $0.table == entity.table }
        let scope = RebuildScope(rebuilder: rebuilder, binds: binds, aliases: [:])
        while index + 2 < tokens.count, case .word(let column) = tokens[index], tokens[index + 1] == .symbol("=") {
            if tokens[index + 2] == .parameter {
                if let attribute = family.flatMap(\.attributes).first(where: { $0.column == column }) {
                    out.append(AttributeAssignment(attribute: attribute.name, value: try scope.argument(marker, type: attribute.type)))
                }
                marker += 1
            }
            index += 3
            guard index < tokens.count, tokens[index] == .symbol(",") else { break }
            index += 1
        }
        return out
    }
}
