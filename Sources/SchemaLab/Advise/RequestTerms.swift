import SchemaLabCoreData
import SchemaLabEngine

/// What an index can serve in one workload's request: its predicate's equality terms and
/// first range term on the entity's own keys (the top-level AND only), its sort keys with
/// their directions, and the to-one keys its to-many prefetches look up.
package struct RequestTerms: Sendable {
    /// Keys compared for equality (`==` or `IN`, without `[c]` or `[d]`), in the predicate's order.
    package private(set) var equality: [IndexElementSpec] = []
    /// The first key compared by `<`, `<=`, `>`, `>=` or `BETWEEN`, not already an equality key.
    package private(set) var range: IndexElementSpec?
    /// The sort keys in order with their directions (a sectioned controller's section key
    /// first); a sort with a string comparator (`localizedCompare:`) stops it, since an index
    /// holds SQLite's order.
    package private(set) var sort: [IndexElementSpec] = []
    /// The destination entity and the to-one key a to-many prefetch looks its objects up by.
    package private(set) var prefetchLookups: [(EntityModel, String)] = []

    /// The terms of `workload`'s request, on `entity`.
    package init(workload: WorkloadSpec, entity: EntityModel, model: ResolvedModel? = nil) {
        if let predicate = workload.predicate,
            let parsed = try? PredicateParser.parse(predicate.text, arguments: predicate.arguments)
        {
            for comparison in Self.conjuncts(parsed) { read(comparison, entity: entity) }
        }
        var sortKeys = workload.sort
        if let section = workload.sectionKey, sortKeys.first?.keyPath != section {
            sortKeys.insert(SortSpec(keyPath: section), at: 0)
        }
        for key in sortKeys {
            guard key.comparator == nil, !key.keyPath.contains("."), CandidatePool.column(of: key.keyPath, in: entity) != nil,
                !sort.contains(where: { $0.key == key.keyPath })
            else { break }
            sort.append(IndexElementSpec(key: key.keyPath, descending: !key.ascending))
        }
        if let model {
            for path in workload.prefetch {
                guard let name = path.split(separator: ".").first, let relationship = entity.relationship(String(name)),
                    relationship.toMany, let inverse = relationship.inverse, let destination = model.entity(relationship.destination),
                    destination.relationship(inverse)?.foreignKeyColumn != nil
                else { continue }
                prefetchLookups.append((destination, inverse))
            }
        }
    }

    private mutating func read(_ comparison: PredicateComparison, entity: EntityModel) {
        guard comparison.quantifier == .direct, comparison.options.isEmpty else { return }
        let key: String
        switch (comparison.left, comparison.right) {
        case (.keyPath(.object, let components, _), let other) where components.count == 1 && !Self.isKeyPath(other):
            key = components[0]
        case (let other, .keyPath(.object, let components, _)) where components.count == 1 && !Self.isKeyPath(other):
            key = components[0]
        default:
            return
        }
        guard CandidatePool.column(of: key, in: entity) != nil else { return }
        switch comparison.op {
        case .equal, .in:
            if !equality.contains(where: { $0.key == key }) { equality.append(IndexElementSpec(key: key)) }
            if range?.key == key { range = nil }
        case .less, .lessOrEqual, .greater, .greaterOrEqual, .between:
            if range == nil && !equality.contains(where: { $0.key == key }) { range = IndexElementSpec(key: key) }
        default:
            return
        }
    }

    private static func isKeyPath(_ expression: PredicateExpression) -> Bool {
        if case .keyPath = expression { return true }
        return false
    }

    /// The comparisons of a predicate's top-level AND.
    static func conjuncts(_ predicate: Predicate) -> [PredicateComparison] {
        switch predicate {
        case .and(let left, let right, _): return conjuncts(left) + conjuncts(right)
        case .comparison(let comparison): return [comparison]
        default: return []
        }
    }
}
