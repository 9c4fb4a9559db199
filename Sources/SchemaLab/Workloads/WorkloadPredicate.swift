/// Turns a workload's predicate text into the compilation a fetch request runs against
/// its joins. Parse errors and key paths a variant cannot resolve become
/// ``KeyPathError``s at `.predicate` with the column inside the predicate string.
enum WorkloadPredicate {
    static func compilation(_ spec: PredicateSpec?, key: String, model: ObjectModel,
                            entity: EntityModel) throws(KeyPathError) -> PredicateCompilation? {
        guard spec != nil else { return nil }
        throw KeyPathError(message: "predicates are not supported by this build yet", at: "." + key)
    }

    /// The HAVING compilation: key paths may name propertiesToFetch expressions.
    static func having(_ spec: PredicateSpec?, model: ObjectModel,
                       entity: EntityModel) throws(KeyPathError) -> ((JoinPlanner, [String: String]) throws -> WhereClause)? {
        guard spec != nil else { return nil }
        throw KeyPathError(message: "having is not supported by this build yet", at: ".having")
    }
}
