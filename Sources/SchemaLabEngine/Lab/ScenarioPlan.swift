import SchemaLabSQLite
import SchemaLabCoreData

/// A scenario checked against itself and resolved for every variant: the models,
/// where the data goes, and proof that every workload runs unchanged in every variant.
///
/// Building one is `schemalab validate`; a run starts from one.
package struct ScenarioPlan {
    package let scenario: Scenario
    package let models: [ResolvedModel]
    /// What the scenario asks for that does nothing (``ScenarioWarnings``), one line each.
    package let warnings: [String]

    /// Resolves and checks `scenario`; throws a ``ScenarioError`` naming the JSON path.
    package init(_ scenario: Scenario) throws {
        self.scenario = scenario
        models = try SchemaResolver(file: scenario.file, variants: scenario.variants).resolveAll()
        let needsRTree = models.contains { $0.entities.contains { $0.indexes.contains { $0.kind == .rtree } } }
        if needsRTree && !SQLiteLibrary.hasRTree {
            throw ScenarioError(
                file: scenario.file, path: "$.variants",
                message: "an index has kind 'rtree' but this SQLite (\(SQLiteLibrary.version)) was built without ENABLE_RTREE")
        }
        try Self.checkIndexedNames(scenario, models: models)
        for (spec, model) in zip(scenario.variants, models) {
            try VariantCheck(scenario: scenario, spec: spec, model: model).run()
        }
        warnings = ScenarioWarnings.of(scenario)
    }

    /// An `indexed:by:` must name an R-tree index that some variant has; a misspelt name
    /// would make every variant, the R-tree one included, read the plain column.
    static func checkIndexedNames(_ scenario: Scenario, models: [ResolvedModel]) throws {
        let rtrees = Set(models.flatMap { $0.entities.flatMap { $0.indexes.filter { $0.kind == .rtree }.map(\.name) } })
        for w in scenario.workloads {
            for (spec, key) in [(w.predicate, "predicate"), (w.verify, "verify.predicate")] {
                guard let spec, spec.text.lowercased().contains("indexed:by:") else { continue }
                let probe: [PredicateValue] = w.boxes == nil || key != "predicate" ? [] : Array(repeating: .real(0), count: 4)
                guard let p = try? PredicateParser.parse(spec.text, arguments: spec.arguments + probe) else { continue }
                for (name, column) in PredicateCompiler.indexedNames(p) where !rtrees.contains(name) {
                    throw ScenarioError(
                        file: scenario.file, path: spec.path,
                        message:
                            "column \(column): no variant has an R-tree index named '\(name)' (indexed:by: would read the plain column in every variant)"
                    )
                }
            }
        }
    }

    /// Why the entity field takes no `nulls`.
    static let entityFieldNulls = "the entity field takes no nulls: every row is an object of one of its entities"

    /// The data placement of one variant (already checked in `init`).
    func placement(for model: ManagedObjectModel) throws -> DataPlacement {
        try Self.placement(scenario.dataset, model: model, file: scenario.file)
    }

    /// Where the data set goes in one variant: the root rows, then every `related`
    /// entry resolved on the entity above it; throws a ``ScenarioError`` with the JSON path.
    static func placement(_ ds: DatasetSpec, model mom: ManagedObjectModel, file: String) throws -> DataPlacement {
        let kinds = valueKinds(ds.fields, parent: [:])
        var p: DataPlacement
        let names = ds.fields.flatMap(\.names), optional = Set(ds.fields.filter(\.optional).flatMap(\.names))
        if let choice = ds.fields.first(where: { $0.names == [DataPlacement.entityField] }), choice.nulls > 0 {
            throw ScenarioError(file: file, path: choice.path + ".nulls", message: entityFieldNulls)
        }
        do throws(KeyPathError) {
            if let choice = ds.fields.first(where: { $0.names == [DataPlacement.entityField] }) {
                guard let values = choice.generator.pickedValues else {
                    throw KeyPathError(message: "the entity field takes a choice or cycle generator of entity names")
                }
                let entities = values.compactMap { value -> String? in if case .text(let t) = value { return t } else { return nil } }
                guard entities.count == values.count, !entities.isEmpty else {
                    throw KeyPathError(message: "the entity field chooses among entity names (strings)")
                }
                if let r = ds.related.first(where: { $0.forEntity.map { !entities.contains($0) } ?? true }) {
                    throw KeyPathError(
                        message:
                            "in a data set whose entity field chooses each row's entity, each related entry says which entity's rows it fills ('for': one of \(entities.joined(separator: ", "))); '\(r.relationship)' \(r.forEntity == nil ? "does not" : "names \(r.forEntity!)")"
                    )
                }
                p = try DataPlacement.choosing(among: entities, model: mom, fields: names, kinds: kinds, optional: optional)
                guard !ds.related.isEmpty else { return p }
                var byName = p.choices!.byName
                for name in entities {
                    byName[name]!.related = try relatedPlacementsFor(ds, entity: name, model: mom, kinds: kinds, file: file)
                }
                p.choices = (p.choices!.column, byName)
                return p
            }
            p = try DataPlacement(model: mom, rootEntity: ds.entity, fields: names, kinds: kinds, optional: optional)
        } catch {
            throw ScenarioError(file: file, path: ds.path + ".fields", message: error.message)
        }
        guard let root = mom.entity(ds.entity) else {
            throw ScenarioError(file: file, path: ds.path + ".entity", message: "variant \(mom.model.variant) has no entity '\(ds.entity)'")
        }
        p.related = try relatedPlacements(ds.related, parent: root, parentKinds: kinds, model: mom, file: file)
        return p
    }

    /// The related placements of one entity of an entity-choice data set: its own entries.
    private static func relatedPlacementsFor(
        _ ds: DatasetSpec, entity: String, model mom: ManagedObjectModel, kinds: [String: Set<ValueKind>], file: String
    ) throws(KeyPathError) -> [RelatedPlacement] {
        do {
            return try relatedPlacements(ds.related, parent: mom.entity(entity)!, parentKinds: kinds, model: mom, file: file, only: entity)
        } catch let error as ScenarioError {
            throw KeyPathError(message: error.message)
        } catch {
            throw KeyPathError(message: "\(error)")
        }
    }

    static func relatedPlacements(
        _ specs: [RelatedSpec], parent: EntityDescription, parentKinds: [String: Set<ValueKind>],
        model mom: ManagedObjectModel, file: String, only: String? = nil
    ) throws -> [RelatedPlacement] {
        let variant = mom.model.variant
        return try specs.enumerated().compactMap { (dataIndex, r) -> RelatedPlacement? in
            func fail(_ path: String, _ message: String) -> ScenarioError {
                ScenarioError(file: file, path: path, message: "in variant \(variant), " + message)
            }
            if r.optional && parent.model.relationship(r.relationship) == nil { return nil }
            if let only, r.forEntity != only { return nil }
            guard let rel = parent.model.relationship(r.relationship) else {
                let have = parent.model.relationships.map(\.name)
                throw fail(
                    r.path + ".relationship",
                    "\(parent.name) has no relationship '\(r.relationship)'"
                        + (have.isEmpty ? "" : " (relationships: \(have.joined(separator: ", ")))"))
            }
            guard rel.toMany, let index = parent.toManyIndex(rel.name) else {
                throw fail(r.path + ".relationship", "\(parent.name).\(rel.name) is a to-one: a related entry fills a to-many relationship")
            }
            let dest = parent.toManyDestinations[index]
            let inverse: RelatedPlacement.Inverse
            switch rel.storage {
            case .inverseForeignKey:
                if let pool = r.pool {
                    throw fail(
                        pool.path,
                        "\(parent.name).\(rel.name) is one-to-many (a \(dest.name) has one \(parent.name)): a pool needs a many-to-many relationship"
                    )
                }
                guard let inv = rel.inverse, let slot = dest.toOneIndex(inv) else {
                    throw fail(r.path + ".relationship", "\(parent.name).\(rel.name) has no to-one inverse on \(dest.name)")
                }
                inverse = .toOne(slot: slot)
            case .joinTable:
                guard let inv = rel.inverse, let i = dest.toManyIndex(inv) else {
                    throw fail(r.path + ".relationship", "\(parent.name).\(rel.name) has no to-many inverse on \(dest.name)")
                }
                inverse = .toMany(index: i)
            case .foreignKey:
                throw fail(r.path + ".relationship", "\(parent.name).\(rel.name) is a to-one: a related entry fills a to-many relationship")
            }
            let fields = r.pool?.fields ?? r.fields
            let fieldsPath = (r.pool?.path ?? r.path) + ".fields"
            let kinds = valueKinds(fields, parent: r.pool == nil ? parentKinds : [:])
            let names = fields.flatMap(\.names)
            if let choice = fields.first(where: { $0.names == [DataPlacement.entityField] }), choice.nulls > 0 {
                throw fail(choice.path + ".nulls", Self.entityFieldNulls)
            }
            var p: DataPlacement
            do {
                if let choice = fields.first(where: { $0.names == [DataPlacement.entityField] }) {
                    // The children are objects of the entities the field names: the destination's
                    // sub-entities (an abstract destination has no objects of its own).
                    guard let values = choice.generator.pickedValues else {
                        throw KeyPathError(message: "the entity field takes a choice or cycle generator of entity names")
                    }
                    let entities = values.compactMap { value -> String? in if case .text(let t) = value { return t } else { return nil } }
                    let below = [dest.model.number] + dest.model.subentityNumbers
                    for name in entities where !below.contains(mom.entity(name)?.model.number ?? -1) {
                        throw KeyPathError(message: "the entity field names \(name), which is not \(dest.name) or one of its sub-entities")
                    }
                    p = try DataPlacement.choosing(among: entities, model: mom, fields: names, kinds: kinds, optional: Set(names))
                    if !r.related.isEmpty {
                        throw KeyPathError(
                            message:
                                "a related entry whose entity field chooses each child's entity has no related entries of its own (yet)")
                    }
                } else {
                    if dest.model.isAbstract {
                        throw KeyPathError(
                            message:
                                "\(dest.name) is abstract: give the entry an entity field choosing among its sub-entities (\(dest.model.subentityNumbers.map { mom.entities[$0 - 1].name }.joined(separator: ", ")))"
                        )
                    }
                    p = try DataPlacement(
                        model: mom, rootEntity: dest.name, fields: names, kinds: kinds, optional: Set(names),
                        excluding: rel.inverse)
                }
            } catch let error as KeyPathError {
                throw ScenarioError(file: file, path: fieldsPath, message: error.message)
            }
            for f in fields where !f.optional {
                for name in f.names where !p.placed.contains(name) {
                    throw fail(
                        f.path,
                        "field '\(name)' has nowhere to go: no attribute '\(name)' on \(dest.name) or an entity its to-one relationships reach (mark it \"optional\": true if that is intended)"
                    )
                }
            }
            p.related = try relatedPlacements(r.related, parent: dest, parentKinds: kinds, model: mom, file: file)
            var placed = RelatedPlacement(relationship: rel, toManyIndex: index, inverse: inverse, placement: p)
            placed.dataIndex = dataIndex
            return placed
        }
    }

    /// The storage classes each root field's generator produces.
    static func valueKinds(_ ds: DatasetSpec) -> [String: Set<ValueKind>] {
        valueKinds(ds.fields, parent: [:])
    }

    /// The storage classes each field of one level produces; a `parentField` produces its parent field's.
    static func valueKinds(_ fields: [FieldSpec], parent: [String: Set<ValueKind>]) -> [String: Set<ValueKind>] {
        var kinds: [String: Set<ValueKind>] = [:]
        for f in fields {
            if case .parentField(let name) = f.generator {
                kinds[f.names[0], default: []].formUnion(parent[name] ?? [])
            } else {
                kinds.merge(ValueKind.produced(by: f)) { $0.union($1) }
            }
        }
        return kinds
    }
}
