import SchemaLabCoreData

/// The inheritance hierarchies of one variant's entities, checked (every parent exists, no
/// cycle, no property declared again below the entity that declares it), and laid out as
/// Core Data stores them: the `StoreLayout` numbers the entities and names every table
/// and column (docs/coredata.md, "Entity inheritance").
struct EntityHierarchy {
    /// The entities in number order (`StoreLayout/ordered`).
    let ordered: [EntitySpec]
    /// The entities' numbers, tables and columns.
    let layout: StoreLayout

    /// Checks the parents, lays the entities out, then checks that no property is redeclared.
    init(entities: [EntitySpec], variant: String, fail: (String, String) -> ScenarioError) throws {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        try Self.checkParents(entities, byName: byName, variant: variant, fail: fail)
        layout = StoreLayout(entities: entities.map(\.declaration))
        ordered = layout.ordered.map { byName[$0]! }
        // A property may not redeclare one its entity inherits.
        for e in ordered {
            let inherited = Set(
                layout.ancestors[e.name]!.flatMap { a in byName[a]!.attributes.map(\.name) + byName[a]!.relationships.map(\.name) })
            for a in e.attributes where inherited.contains(a.name) {
                throw fail(
                    a.path + ".name",
                    "in variant \(variant), \(e.name) inherits '\(a.name)' from its parent: a sub-entity cannot declare it again")
            }
            for r in e.relationships where inherited.contains(r.name) {
                throw fail(
                    r.path + ".name",
                    "in variant \(variant), \(e.name) inherits '\(r.name)' from its parent: a sub-entity cannot declare it again")
            }
        }
    }

    /// Every parent is an entity of the variant, and no entity is its own ancestor.
    private static func checkParents(
        _ entities: [EntitySpec], byName: [String: EntitySpec], variant: String, fail: (String, String) -> ScenarioError
    ) throws {
        for e in entities {
            guard let parent = e.parent else { continue }
            guard byName[parent] != nil else {
                throw fail(
                    e.path + ".parent",
                    "in variant \(variant), no entity named '\(parent)' (entities: \(entities.map(\.name).sorted().joined(separator: ", ")))"
                )
            }
        }
        for e in entities {
            var chain: [String] = []
            var current = e
            while let parent = current.parent {
                if parent == e.name || chain.contains(parent) {
                    throw fail(
                        e.path + ".parent",
                        "in variant \(variant), entities inherit from each other in a cycle: \(([e.name] + chain + [parent]).joined(separator: " -> "))"
                    )
                }
                chain.append(parent)
                current = byName[parent]!
            }
        }
    }
}

extension EntitySpec {
    /// What the entity declares, as the store layout needs it.
    var declaration: StoreLayout.EntityDeclaration {
        StoreLayout.EntityDeclaration(
            name: name, parent: parent, attributes: attributes.map(\.name),
            relationships: relationships.map {
                StoreLayout.RelationshipDeclaration(
                    name: $0.name, destination: $0.destination, toMany: $0.toMany, ordered: $0.ordered, inverse: $0.inverse)
            })
    }
}
