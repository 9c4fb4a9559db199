import SchemaLabCoreData

extension SchemaResolver {
    /// One entity of the variant: its attributes and relationships (its ancestors' first),
    /// derived attributes resolved, its indexes and uniqueness constraints checked.
    func entity(_ e: EntitySpec, indexes specs: [IndexSpec], in variant: VariantBuild) throws -> EntityModel {
        let layout = variant.layout
        let chain = layout.chain(e.name)
        var attributes = attributes(along: chain, in: variant)
        let relationships = relationships(along: chain, in: variant)
        try checkCanonicalForms(of: e, along: chain, in: variant)
        try deriveAttributes(&attributes, along: chain, relationships: relationships, in: variant)
        var indexes: [IndexModel] = []
        for ix in specs where ix.entity == e.name {
            if indexes.contains(where: { $0.name == ix.name }) {
                throw fail(ix.path + ".name", "in variant \(variant.name), \(e.name) has two indexes named '\(ix.name)'")
            }
            indexes.append(
                try index(
                    ix, entity: e, table: layout.table(of: e.name), attributes: attributes, relationships: relationships,
                    variant: variant.name))
        }
        let constraints = try uniquenessConstraints(of: e, attributes: attributes, indexes: &indexes, variant: variant.name)
        var entity = EntityModel(
            name: e.name, number: layout.numbers[e.name]!, attributes: attributes, relationships: relationships, indexes: indexes)
        entity.uniquenessConstraints = constraints
        entity.parent = e.parent
        entity.isAbstract = e.abstract
        entity.root = layout.root(of: e.name)
        entity.subentityNumbers = layout.descendants(of: e.name).map { layout.numbers[$0]! }
        return entity
    }

    /// The attributes of an entity whose ancestors, root first, are `chain`: the root's
    /// first, then each level's own, each level alphabetical, so that a sub-entity's list
    /// begins with its parent's.
    private func attributes(along chain: [String], in variant: VariantBuild) -> [AttributeModel] {
        chain.flatMap { level in
            variant.specs[level]!.attributes.sorted { $0.name < $1.name }.map {
                var attribute = AttributeModel(
                    name: $0.name, type: $0.type, optional: $0.optional, canonicalOf: $0.canonicalOf,
                    allowsExternalStorage: $0.allowsExternalStorage,
                    externalStorageThreshold: $0.allowsExternalStorage ? $0.externalStorageThreshold : 0,
                    column: variant.layout.columns[level + "." + $0.name], defaultValue: $0.defaultValue)
                attribute.preservesAfterDeletion = $0.preserveAfterDeletion
                return attribute
            }
        }
    }

    /// The relationships along `chain`, in the same order as the attributes, each level's
    /// hidden to-ones among its own.
    private func relationships(along chain: [String], in variant: VariantBuild) -> [RelationshipModel] {
        chain.flatMap { level in
            (variant.specs[level]!.relationships.map(\.name).sorted().map { variant.declared[level + "." + $0]! }
                + (variant.hidden[level] ?? []))
                .sorted { $0.name < $1.name }
        }
    }

    /// Each `canonicalOf` names another plain string attribute of the entity or an ancestor.
    private func checkCanonicalForms(of e: EntitySpec, along chain: [String], in variant: VariantBuild) throws {
        let inheritedAttributes = chain.flatMap { variant.specs[$0]!.attributes }
        for a in e.attributes {
            guard let source = a.canonicalOf else { continue }
            guard let s = inheritedAttributes.first(where: { $0.name == source }), s.type == .string, s.canonicalOf == nil,
                source != a.name
            else {
                let what =
                    inheritedAttributes.contains { $0.name == source }
                    ? "'\(source)' is not a plain string attribute of \(e.name)" : "\(e.name) has no attribute '\(source)'"
                throw fail(
                    a.path + ".canonicalOf",
                    "in variant \(variant.name), \(what) (canonicalOf names the string '\(a.name)' is kept the canonical form of)")
            }
        }
    }

    /// Derived attributes: their expressions resolved to columns (the store's triggers keep them).
    private func deriveAttributes(
        _ attributes: inout [AttributeModel], along chain: [String], relationships: [RelationshipModel], in variant: VariantBuild
    ) throws {
        for (i, a) in attributes.enumerated() {
            guard let level = chain.first(where: { variant.specs[$0]!.attributes.contains { $0.name == a.name } }),
                let attributeSpec = variant.specs[level]!.attributes.first(where: { $0.name == a.name }),
                let text = attributeSpec.derivation
            else { continue }
            attributes[i].derivation = try derivation(
                text, for: attributeSpec, attributes: attributes, relationships: relationships, in: variant)
            attributes[i].derivationText = text
        }
    }

    /// The entity's uniqueness constraints, each added to `indexes` as the unique index Core
    /// Data stores it as, `Z_<Entity>_UNIQUE_<a>_<b>` ([I]).
    private func uniquenessConstraints(
        of e: EntitySpec, attributes: [AttributeModel], indexes: inout [IndexModel], variant: String
    ) throws -> [[AttributeModel]] {
        var constraints: [[AttributeModel]] = []
        for c in e.uniquenessConstraints {
            var elements: [AttributeModel] = []
            for (k, name) in c.attributes.enumerated() {
                guard let a = attributes.first(where: { $0.name == name }) else {
                    throw fail(
                        c.path + "[\(k)]",
                        "in variant \(variant), \(e.name) has no attribute '\(name)' (attributes: \(attributes.map(\.name).joined(separator: ", ")))"
                    )
                }
                elements.append(a)
            }
            let name = StoreLayout.uniquenessConstraint(attributes: c.attributes)
            if constraints.contains(elements) || indexes.contains(where: { $0.name == name }) {
                throw fail(c.path, "in variant \(variant), \(e.name) already has a uniqueness constraint or index named '\(name)'")
            }
            constraints.append(elements)
            indexes.append(
                IndexModel(
                    name: name, sqlName: StoreLayout.fetchIndex(entity: e.name, name: name),
                    elements: elements.map { IndexElementModel(attribute: $0, descending: false) },
                    kind: .binary, unique: true, attributeStyle: false))
        }
        return constraints
    }

    /// An index of the entity, its elements checked: attributes, or to-one relationships
    /// (their keys) in a binary index; named as Core Data names it.
    private func index(
        _ ix: IndexSpec, entity e: EntitySpec, table: String, attributes: [AttributeModel], relationships: [RelationshipModel],
        variant: String
    ) throws -> IndexModel {
        var elements: [IndexElementModel] = []
        for (k, el) in ix.elements.enumerated() {
            if ix.elements[..<k].contains(where: { $0.key == el.key }) {
                throw fail(ix.path + ".elements[\(k)]", "index '\(ix.name)' names '\(el.key)' twice")
            }
            if let a = attributes.first(where: { $0.name == el.key }) {
                if ix.kind == .rtree && ![.double, .float, .integer16, .integer32, .integer64, .date].contains(a.type) {
                    throw fail(
                        ix.path + ".elements[\(k)]", "an R-tree index takes numeric attributes; \(e.name).\(a.name) is \(a.type.rawValue)")
                }
                elements.append(IndexElementModel(attribute: a, descending: el.descending))
            } else if let r = relationships.first(where: { $0.name == el.key && !$0.toMany }), ix.kind == .binary {
                // A to-one relationship indexes its foreign key (Core Data's fetch index elements
                // and `indexed="YES"` relationships).
                elements.append(IndexElementModel(relationship: r, descending: el.descending))
            } else {
                let known = attributes.map(\.name).joined(separator: ", ")
                let toOnes = relationships.filter { !$0.toMany }.map(\.name)
                let what =
                    relationships.contains { $0.name == el.key }
                    ? "'\(el.key)' is a \(ix.kind == .rtree ? "relationship: an R-tree index takes numeric attributes" : "to-many relationship: an index takes attributes and to-one relationships")"
                    : "\(e.name) has no attribute\(toOnes.isEmpty ? "" : " or to-one relationship") '\(el.key)' (attributes: \(known)\(toOnes.isEmpty ? "" : "; to-one relationships: " + toOnes.joined(separator: ", ")))"
                throw fail(ix.path + ".elements[\(k)]", "in variant \(variant), \(what)")
            }
        }
        if ix.kind == .rtree && elements.count > 5 {
            throw fail(ix.path + ".elements", "an R-tree index takes at most 5 attributes")
        }
        let sqlName =
            ix.attributeStyle
            ? StoreLayout.columnIndex(table: table, column: elements[0].column) : StoreLayout.fetchIndex(entity: e.name, name: ix.name)
        var model = IndexModel(
            name: ix.name, sqlName: sqlName, elements: elements, kind: ix.kind, unique: ix.unique,
            attributeStyle: ix.attributeStyle)
        model.combinedQuery = ix.combinedQuery
        return model
    }
}
