import SchemaLabSQLite
import SchemaLabCoreData

/// A fetch workload's spec resolved in one variant, one step per part of the request (sort
/// keys, prefetch paths, touch keys, reductions, the dictionary shape, partial properties),
/// then the fetch requests themselves. Set-up only: `FetchWorkload` calls it once, before
/// anything is timed. Each step throws a `KeyPathError` whose `at` is relative to the
/// workload's JSON path.
struct FetchSpecResolver {
    let spec: WorkloadSpec
    let model: ResolvedModel
    /// The name of the fetched entity, as the spec (or the data set) gives it.
    let name: String
    let entity: EntityDescription

    /// The parts of a fetch request that do not depend on its predicate.
    struct RequestParts {
        var sorts: [(ResolvedKeyPath, Bool)]
        var prefetch: [[RelationshipModel]]
        var section: ResolvedKeyPath?
        var dictionary: DictionaryShape?
        var partial: PartialProperties?
    }

    /// `k` resolved from the fetched entity; a failure names `at`.
    func keyPath(_ k: String, at: String) throws(KeyPathError) -> ResolvedKeyPath {
        do { return try model.resolve(keyPath: k, from: name) } catch {
            throw KeyPathError(
                message: "key path '\(k)' does not resolve: \(error.message); every workload must run in every variant", at: at)
        }
    }

    /// The sort descriptors: each sort key with its direction (and its comparator's collation,
    /// which sorts strings only).
    func sortDescriptors() throws(KeyPathError) -> [(ResolvedKeyPath, Bool)] {
        var sorts: [(ResolvedKeyPath, Bool)] = []
        for (i, s) in spec.sort.enumerated() {
            do throws(KeyPathError) {
                var key = try model.resolve(sortKey: s.keyPath, from: name)
                if let c = s.comparator {
                    guard key.attribute.type == .string else {
                        throw KeyPathError(
                            message: "a '\(c.rawValue)' comparator sorts strings; '\(s.keyPath)' is \(key.attribute.type.rawValue)")
                    }
                    key.sortCollation = c.collation
                }
                sorts.append((key, s.ascending))
            } catch {
                throw KeyPathError(
                    message: "key path '\(s.keyPath)' does not resolve: \(error.message); every workload must run in every variant",
                    at: ".sort[\(i)]")
            }
        }
        return sorts
    }

    /// Each prefetch key path as its relationships, from the fetched entity.
    func prefetchPaths() throws(KeyPathError) -> [[RelationshipModel]] {
        var prefetch: [[RelationshipModel]] = []
        for (i, p) in spec.prefetch.enumerated() {
            var e = entity.model
            var path: [RelationshipModel] = []
            for part in p.split(separator: ".").map(String.init) {
                guard let r = e.relationship(part) else {
                    throw KeyPathError(
                        message:
                            "in variant \(model.variant), '\(p)' is not a path of relationships from \(name): \(e.name) has no relationship '\(part)'",
                        at: ".prefetch[\(i)]")
                }
                path.append(r)
                e = model.entity(r.destination)!
            }
            prefetch.append(path)
        }
        return prefetch
    }

    /// The keys read on each touched object: the spec's, or every attribute of the entity.
    func touchKeys() throws(KeyPathError) -> [TouchKey] {
        guard let explicit = spec.touchKeys else {
            return entity.model.attributes.map {
                .value(KeyPathAccessor(ResolvedKeyPath(text: $0.name, relationships: [], owner: name, attribute: $0), from: entity))
            }
        }
        var keys: [TouchKey] = []
        for (i, k) in explicit.enumerated() {
            do { keys.append(try TouchKey.resolve(k, from: entity, in: model)) } catch {
                throw KeyPathError(message: "touch key '\(k)' does not resolve: \(error.message)", at: ".touchKeys[\(i)]")
            }
        }
        return keys
    }

    /// The reductions done in Swift: function and accessor per expression of `reduce`.
    func reductions() throws(KeyPathError) -> [(AggregateFunction, KeyPathAccessor)] {
        var reductions: [(AggregateFunction, KeyPathAccessor)] = []
        for (i, r) in spec.reduce.enumerated() {
            if case .expression(_, let f, let k) = r {
                reductions.append((f, KeyPathAccessor(try keyPath(k, at: ".reduce[\(i)]"), from: entity)))
            }
        }
        return reductions
    }

    /// A dictionary fetch's properties, GROUP BY, DISTINCT and HAVING; nil for other result types.
    func dictionaryShape() throws(KeyPathError) -> DictionaryShape? {
        guard spec.resultType == .dictionaries else { return nil }
        var props: [DictionaryShape.Property] = []
        for (i, p) in spec.propertiesToFetch.enumerated() {
            switch p {
            case .keyPath(let k) where k.split(separator: ".").last == "objectID":
                // The object's ID (an expression description over the evaluated object, of
                // type objectID, named `objectID`): its primary key (after to-ones, theirs).
                do {
                    props.append(.init(name: k, keyPath: try model.resolve(sortKey: k, from: name), function: nil))
                } catch {
                    throw KeyPathError(message: "key path '\(k)' does not resolve: \(error.message)", at: ".propertiesToFetch[\(i)]")
                }
            case .keyPath(let k):
                props.append(.init(name: k, keyPath: try keyPath(k, at: ".propertiesToFetch[\(i)]"), function: nil))
            case .expression(let n, let f, let k):
                props.append(try expressionProperty(name: n, function: f, key: k, at: ".propertiesToFetch[\(i)]"))
            }
        }
        var groupBy: [ResolvedKeyPath] = []
        for (i, g) in spec.groupBy.enumerated() { groupBy.append(try keyPath(g, at: ".groupBy[\(i)]")) }
        return DictionaryShape(
            properties: props, groupBy: groupBy, distinct: spec.distinct,
            having: try WorkloadPredicate.having(spec.having, model: model, entity: entity.model))
    }

    /// One expression of `propertiesToFetch`: over a key path, or over a to-many's rows joined
    /// (`count:(attachments)`, `sum:(attachments.size)`).
    private func expressionProperty(
        name n: String, function f: AggregateFunction, key k: String, at: String
    ) throws(KeyPathError) -> DictionaryShape.Property {
        let parts = k.split(separator: ".").map(String.init)
        guard let r = entity.model.relationship(parts[0]), r.toMany, parts.count <= 2 else {
            return .init(name: n, keyPath: try keyPath(k, at: at + ".key"), function: f)
        }
        let dest = model.entity(r.destination)!
        let attribute: AttributeModel
        if parts.count == 2 {
            guard let a = dest.attribute(parts[1]), case .inverseForeignKey = r.storage else {
                throw KeyPathError(
                    message:
                        "'\(k)': an expression over a to-many takes the relationship (count) or one attribute of a one-to-many's destination",
                    at: at + ".key")
            }
            attribute = a
        } else {
            guard f == .count else {
                throw KeyPathError(
                    message: "'\(k)' is a to-many relationship: \(f.rawValue) needs one of its attributes ('\(k).name')",
                    at: at + ".key")
            }
            attribute = .objectID
        }
        let path = ResolvedKeyPath(text: k, relationships: [], owner: dest.name, attribute: attribute)
        return .init(name: n, keyPath: path, function: f, toMany: r)
    }

    /// The properties an object fetch loads (`propertiesToFetch` on objects); nil for all.
    func partialProperties() throws(KeyPathError) -> PartialProperties? {
        guard spec.resultType == .objects && !spec.propertiesToFetch.isEmpty else { return nil }
        do { return try PartialProperties(spec.propertiesToFetch.map(\.name), of: entity) } catch {
            throw KeyPathError(message: error.message, at: ".propertiesToFetch")
        }
    }

    /// The fetch request with `predicateSpec` compiled and `parts` (paged: the page size as its limit).
    func request(_ predicateSpec: PredicateSpec?, _ parts: RequestParts) throws(KeyPathError) -> FetchRequest {
        let predicate = try WorkloadPredicate.compilation(predicateSpec, key: "predicate", model: model, entity: entity.model)
        let paged = spec.pageSize > 0
        do {
            return try FetchRequest(
                entity: entity, sortDescriptors: parts.sorts, batchSize: spec.batchSize, prefetch: parts.prefetch,
                predicate: predicate, fetchLimit: paged ? spec.pageSize : spec.fetchLimit, fetchOffset: paged ? 0 : spec.fetchOffset,
                includesPropertyValues: spec.includesPropertyValues, returnsObjectsAsFaults: spec.returnsObjectsAsFaults,
                section: parts.section.map { ($0, ascending: spec.sort.first?.ascending ?? true) }, dictionary: parts.dictionary,
                keyBinding: spec.keyBinding, partial: parts.partial)
        } catch let e as KeyPathError {
            throw e
        } catch {
            throw KeyPathError(message: "\(error)", at: ".predicate")
        }
    }

    /// One request per box: each box's bounds appended to `base`'s arguments.
    func boxRequests(_ base: PredicateSpec, boxes: [[PredicateValue]], _ parts: RequestParts) throws(KeyPathError) -> [FetchRequest] {
        var requests: [FetchRequest] = []
        for box in boxes {
            var p = base
            p.arguments += box
            // A bound the predicate does not use would leave the box unapplied: unlike other
            // unused arguments (ignored, as Foundation ignores them), it is an error.
            if let used = try? PredicateParser.argumentsUsed(p.text, arguments: p.arguments), used < p.arguments.count {
                throw KeyPathError(
                    message: "column 1: " + PredicateParser.unusedArgumentsText(given: p.arguments.count, used: used)
                        + " (with 'boxes', each box appends its \(box.count) bounds to 'arguments')", at: ".predicate")
            }
            do { requests.append(try request(p, parts)) } catch {
                guard error.message.contains("argument") else { throw error }
                throw KeyPathError(
                    message: error.message + " (with 'boxes', each box appends its \(box.count) bounds to 'arguments')", at: error.at)
            }
        }
        return requests
    }
}
