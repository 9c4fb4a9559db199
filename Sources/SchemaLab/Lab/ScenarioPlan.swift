/// A scenario checked against itself and resolved for every variant: the models,
/// where the data goes, and proof that every workload runs unchanged in every variant.
///
/// Building one is `schemalab validate`; a run starts from one.
public struct ScenarioPlan {
    public let scenario: Scenario
    public let models: [ObjectModel]

    /// Resolves and checks `scenario`; throws a ``ScenarioError`` naming the JSON path.
    public init(_ scenario: Scenario) throws {
        self.scenario = scenario
        let file = scenario.file
        func fail(_ path: String, _ message: String) -> ScenarioError { ScenarioError(file: file, path: path, message: message) }
        models = try SchemaResolver(file: file, variants: scenario.variants).resolveAll()
        let ds = scenario.dataset
        let kinds = Self.valueKinds(ds)
        let fieldNames = ds.fields.flatMap(\.names)
        let needsRTree = models.contains { $0.entities.contains { $0.indexes.contains { $0.kind == .rtree } } }
        if needsRTree && !SQLiteLibrary.hasRTree {
            throw fail("$.variants", "an index has kind 'rtree' but this SQLite (\(SQLiteLibrary.version)) was built without ENABLE_RTREE")
        }
        for (spec, model) in zip(scenario.variants, models) {
            guard model.entity(ds.entity) != nil else {
                throw fail(ds.path + ".entity", "variant \(spec.name) has no entity '\(ds.entity)'")
            }
            for f in ds.fields {
                for name in f.names where model.reachableAttributes(named: name, from: ds.entity).isEmpty {
                    throw fail(f.path, "in variant \(spec.name), field '\(name)' has nowhere to go: no attribute '\(name)' on \(ds.entity) or an entity its to-one relationships reach")
                }
            }
            let mom = ManagedObjectModel(model)
            do {
                _ = try DataPlacement(model: mom, rootEntity: ds.entity, fields: fieldNames, kinds: kinds)
            } catch {
                throw fail(ds.path + ".fields", error.message)
            }
            for w in scenario.workloads where w.kind != .insert && (w.variants?.contains(spec.name) ?? true) {
                let entity = w.entity ?? ds.entity
                guard mom.entity(entity) != nil else { throw fail(w.path + ".entity", "variant \(spec.name) has no entity '\(entity)'") }
                func check(_ keyPath: String, _ path: String) throws {
                    do { _ = try model.resolve(keyPath: keyPath, from: entity) } catch {
                        throw fail(path, "key path '\(keyPath)' does not resolve: \(error.message); every workload must run in every variant")
                    }
                }
                for (i, s) in w.sort.enumerated() { try check(s.keyPath, w.path + ".sort[\(i)]") }
                if let k = w.sectionKey { try check(k, w.path + ".sectionKey") }
                do {
                    _ = try FetchWorkload(spec: w, model: mom, rootEntity: ds.entity)
                } catch {
                    throw fail(w.path + (error.at ?? ""), error.message)
                }
            }
        }
    }

    /// The data placement of one variant (already checked in `init`).
    func placement(for model: ManagedObjectModel) throws -> DataPlacement {
        let ds = scenario.dataset
        do {
            return try DataPlacement(model: model, rootEntity: ds.entity, fields: ds.fields.flatMap(\.names), kinds: Self.valueKinds(ds))
        } catch {
            throw ScenarioError(file: scenario.file, path: ds.path, message: error.message)
        }
    }

    /// The storage classes each field's generator produces.
    static func valueKinds(_ ds: DatasetSpec) -> [String: Set<ValueKind>] {
        var kinds: [String: Set<ValueKind>] = [:]
        for f in ds.fields { kinds.merge(ValueKind.produced(by: f)) { $0.union($1) } }
        return kinds
    }
}
