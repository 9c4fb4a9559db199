import SchemaLabCoreData

/// Turns a workload's predicate text into the compilation a fetch request runs against
/// its joins. The text is parsed once, here; a syntax error, or a key path a variant
/// cannot resolve, becomes a `KeyPathError` at the predicate's JSON path with the
/// column inside the predicate string.
enum WorkloadPredicate {
    static func compilation(
        _ spec: PredicateSpec?, key: String, model: ResolvedModel,
        entity: EntityModel
    ) throws(KeyPathError) -> PredicateCompilation? {
        guard let spec else { return nil }
        let parsed = try parse(spec, key: key)
        // Compile once now so that a key path this variant cannot resolve is reported at
        // validation, not in the middle of a run.
        _ = try compile(
            parsed, spec: spec, key: key, model: model, entity: entity,
            joins: JoinPlanner(model: model, entity: entity), aliases: [:])
        return { planner in
            try compile(parsed, spec: spec, key: key, model: model, entity: entity, joins: planner, aliases: [:])
        }
    }

    /// The HAVING compilation: key paths may name propertiesToFetch expressions.
    static func having(
        _ spec: PredicateSpec?, model: ResolvedModel,
        entity: EntityModel
    ) throws(KeyPathError) -> ((JoinPlanner, [String: String]) throws -> WhereClause)? {
        guard let spec else { return nil }
        let parsed = try parse(spec, key: "having")
        return { planner, aliases in
            try compile(parsed, spec: spec, key: "having", model: model, entity: entity, joins: planner, aliases: aliases)
        }
    }

    private static func parse(_ spec: PredicateSpec, key: String) throws(KeyPathError) -> Predicate {
        do {
            return try PredicateParser.parse(spec.text, arguments: spec.arguments)
        } catch {
            throw KeyPathError(message: "column \(error.column): \(error.message)", at: "." + key)
        }
    }

    private static func compile(
        _ p: Predicate, spec: PredicateSpec, key: String, model: ResolvedModel, entity: EntityModel,
        joins: JoinPlanner, aliases: [String: String]
    ) throws(KeyPathError) -> WhereClause {
        var compiler = PredicateCompiler(model: model, entity: entity, joins: joins)
        compiler.expressionAliases = aliases
        do {
            let c = try compiler.compile(p)
            return WhereClause(sql: c.sql, bindings: c.bindings)
        } catch {
            throw KeyPathError(message: "column \(error.column): \(error.message)", at: "." + key)
        }
    }
}
