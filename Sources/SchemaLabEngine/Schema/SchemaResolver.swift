import SchemaLabCoreData

/// Turns the scenario's variant specs (full lists or "base plus edits") into
/// resolved `ResolvedModel`s, checking every reference on the way.
package struct SchemaResolver {
    let file: String
    let specs: [VariantSpec]

    /// The entities and indexes of a variant while its edits are applied.
    struct Draft {
        var entities: [EntitySpec]
        var indexes: [IndexSpec]
        var counters: [CounterSpec] = []
        var persistentHistory = false
    }

    package init(file: String, variants: [VariantSpec]) {
        self.file = file
        self.specs = variants
    }

    /// Resolves every variant, in the scenario's order.
    package func resolveAll() throws -> [ResolvedModel] {
        var drafts: [String: Draft] = [:]
        return try specs.map { spec in
            let draft = try draft(for: spec, drafts: &drafts, visiting: [])
            return try build(spec: spec, draft: draft)
        }
    }

    /// A ``ScenarioError`` at `path` of the scenario file.
    func fail(_ path: String, _ message: String) -> ScenarioError {
        ScenarioError(file: file, path: path, message: message)
    }

    private func draft(for spec: VariantSpec, drafts: inout [String: Draft], visiting: [String]) throws -> Draft {
        if let d = drafts[spec.name] { return d }
        var d: Draft
        if let baseName = spec.extends {
            guard let base = specs.first(where: { $0.name == baseName }) else {
                throw fail(
                    spec.path + ".extends", "no variant named '\(baseName)' (variants: \(specs.map(\.name).joined(separator: ", ")))")
            }
            if visiting.contains(baseName) || baseName == spec.name {
                throw fail(
                    spec.path + ".extends",
                    "variants extend each other in a cycle: \((visiting + [spec.name, baseName]).joined(separator: " -> "))")
            }
            d = try draft(for: base, drafts: &drafts, visiting: visiting + [spec.name])
            try applyEdits(spec, to: &d)
        } else {
            d = Draft(entities: spec.entities, indexes: spec.indexes)
        }
        d.counters += spec.counters
        if let history = spec.persistentHistory { d.persistentHistory = history }
        drafts[spec.name] = d
        return d
    }

    private func entityIndex(_ name: String, in d: Draft, path: String) throws -> Int {
        guard let i = d.entities.firstIndex(where: { $0.name == name }) else {
            throw fail(path, "no entity named '\(name)' (entities: \(d.entities.map(\.name).joined(separator: ", ")))")
        }
        return i
    }

    private func applyEdits(_ spec: VariantSpec, to d: inout Draft) throws {
        for e in spec.addEntities {
            if d.entities.contains(where: { $0.name == e.name }) { throw fail(e.path + ".name", "entity '\(e.name)' already exists") }
            d.entities.append(e)
        }
        for (i, add) in spec.addAttributes.enumerated() {
            let ei = try entityIndex(add.entity, in: d, path: spec.path + ".addAttributes[\(i)].entity")
            d.entities[ei].attributes.append(add.attribute)
        }
        for t in spec.moveAttributes { try transfer(t, move: true, in: &d) }
        for t in spec.copyAttributes { try transfer(t, move: false, in: &d) }
        for r in spec.removeAttributes {
            let ei = try entityIndex(r.entity, in: d, path: r.path + ".entity")
            guard let ai = d.entities[ei].attributes.firstIndex(where: { $0.name == r.name }) else {
                throw fail(r.path + ".name", "\(r.entity) has no attribute '\(r.name)'")
            }
            d.entities[ei].attributes.remove(at: ai)
        }
        for (i, add) in spec.addRelationships.enumerated() {
            let ei = try entityIndex(add.entity, in: d, path: spec.path + ".addRelationships[\(i)].entity")
            d.entities[ei].relationships.append(add.relationship)
        }
        for r in spec.dropIndexes {
            guard let ii = d.indexes.firstIndex(where: { $0.entity == r.entity && $0.name == r.name }) else {
                throw fail(r.path, "the base variant has no index '\(r.name)' on \(r.entity)")
            }
            d.indexes.remove(at: ii)
        }
        d.indexes += spec.addIndexes
        for (i, add) in spec.addUniquenessConstraints.enumerated() {
            let ei = try entityIndex(add.entity, in: d, path: spec.path + ".addUniquenessConstraints[\(i)].entity")
            d.entities[ei].uniquenessConstraints.append(add.constraint)
        }
    }

    private func transfer(_ t: AttributeTransferSpec, move: Bool, in d: inout Draft) throws {
        let from = try entityIndex(t.from, in: d, path: t.path + ".from")
        let to = try entityIndex(t.to, in: d, path: t.path + ".to")
        for (k, name) in t.names.enumerated() {
            guard let ai = d.entities[from].attributes.firstIndex(where: { $0.name == name }) else {
                throw fail(t.path + ".names[\(k)]", "\(t.from) has no attribute '\(name)'")
            }
            let a = d.entities[from].attributes[ai]
            if move {
                d.entities[from].attributes.remove(at: ai)
                // Indexes on a moved attribute go with it.
                for i in d.indexes.indices where d.indexes[i].entity == t.from && d.indexes[i].elements.contains(where: { $0.key == name })
                {
                    throw fail(
                        t.path + ".names[\(k)]",
                        "\(t.from).\(name) is in index '\(d.indexes[i].name)': drop the index before moving the attribute")
                }
            }
            d.entities[to].attributes.append(a)
        }
    }

    // MARK: Building and checking the model

    /// A variant's model from its draft, step by step: the tables, the hierarchy and its
    /// layout, the relationships, each entity, the counters.
    private func build(spec: VariantSpec, draft: Draft) throws -> ResolvedModel {
        try checkTables(draft.entities)
        let hierarchy = try EntityHierarchy(entities: draft.entities, variant: spec.name, fail: fail)
        var variant = VariantBuild(name: spec.name, hierarchy: hierarchy)
        try resolveDeclaredRelationships(in: &variant)
        addDestinationKeys(in: &variant)
        let entities = try hierarchy.ordered.map { try entity($0, indexes: draft.indexes, in: variant) }
        for ix in draft.indexes where hierarchy.layout.numbers[ix.entity] == nil {
            throw fail(ix.path + ".entity", "in variant \(spec.name), no entity named '\(ix.entity)'")
        }
        let counters = try counters(draft.counters, entities: entities, variant: spec.name)
        var model = ResolvedModel(variant: spec.name, entities: entities, counters: counters)
        model.persistentHistory = draft.persistentHistory
        return model
    }

    /// Two entities whose names differ only in case would have one table (before inheritance
    /// puts sub-entities in their root's).
    private func checkTables(_ entities: [EntitySpec]) throws {
        var seenTables: [String: String] = [:]
        for e in entities.sorted(by: { $0.name < $1.name }) {
            let table = StoreLayout.table(root: e.name)
            if let other = seenTables[table] {
                throw fail(e.path + ".name", "entities '\(other)' and '\(e.name)' would share table \(table)")
            }
            seenTables[table] = e.name
        }
    }
}
