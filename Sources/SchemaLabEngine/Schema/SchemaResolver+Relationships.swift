import SchemaLabCoreData

/// One variant's model while `SchemaResolver` builds it: its entities, checked and laid
/// out, and the relationships resolved so far.
struct VariantBuild {
    /// The variant's name, for messages.
    let name: String
    let hierarchy: EntityHierarchy
    /// The entities by name.
    let specs: [String: EntitySpec]
    /// Each declared relationship resolved once, by `Entity.relationship` of the entity that
    /// declares it; sub-entities inherit it.
    var declared: [String: RelationshipModel] = [:]
    /// The hidden to-one of each to-many without an inverse, by the entity it is in (its
    /// sub-entities inherit it).
    var hidden: [String: [RelationshipModel]] = [:]

    init(name: String, hierarchy: EntityHierarchy) {
        self.name = name
        self.hierarchy = hierarchy
        self.specs = Dictionary(hierarchy.ordered.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entities' numbers, tables and columns.
    var layout: StoreLayout { hierarchy.layout }
}

extension SchemaResolver {
    /// Resolves every declared relationship, in entity-number order, after checking that no
    /// two properties of an entity share a column (names are upper-cased into columns).
    func resolveDeclaredRelationships(in variant: inout VariantBuild) throws {
        for e in variant.hierarchy.ordered {
            var columns: [String: String] = [:]
            for a in e.attributes {
                let column = StoreLayout.column(property: a.name)
                if let other = columns[column] {
                    throw fail(
                        a.path,
                        "in variant \(variant.name), \(e.name) has two attributes named '\(other)' and '\(a.name)' (one column \(column))")
                }
                columns[column] = a.name
            }
            for r in e.relationships {
                let column = StoreLayout.column(property: r.name)
                if columns[column] != nil {
                    throw fail(
                        r.path + ".name", "in variant \(variant.name), \(e.name) has an attribute and a relationship named '\(r.name)'")
                }
                columns[column] = r.name
                variant.declared[e.name + "." + r.name] = try relationship(r, of: e, in: variant)
            }
        }
    }

    /// The keys a to-many keeps in its destination's table: the hidden to-one of one without
    /// an inverse (inherited below its destination), and the order key an ordered one-to-many
    /// has its inverse to-one write beside its own key.
    func addDestinationKeys(in variant: inout VariantBuild) {
        let layout = variant.layout
        for e in variant.hierarchy.ordered {
            for r in e.relationships where r.toMany && r.inverse == nil {
                guard let key = layout.hiddenKeys[e.name + "." + r.name] else { continue }
                var model = RelationshipModel(
                    name: key.name, destination: e.name, toMany: false, inverse: r.name, deleteRule: .nullify,
                    storage: .foreignKey(column: key.column))
                model.destinationEntityColumn = key.entityColumn
                model.orderColumn = layout.orderColumns[e.name + "." + r.name]
                variant.hidden[r.destination, default: []].append(model)
            }
            for r in e.relationships where r.toMany && r.ordered {
                guard let column = layout.orderColumns[e.name + "." + r.name], let inv = r.inverse,
                    let owner = layout.declaring(inv, from: r.destination)
                else { continue }
                variant.declared[owner + "." + inv]?.orderColumn = column
            }
        }
    }

    /// A declared relationship, its destination and inverse checked, stored where the layout
    /// puts it.
    private func relationship(_ r: RelationshipSpec, of e: EntitySpec, in variant: VariantBuild) throws -> RelationshipModel {
        guard let dest = variant.specs[r.destination] else {
            throw fail(r.path + ".destination", "in variant \(variant.name), no entity named '\(r.destination)'")
        }
        let layout = variant.layout
        if let inv = r.inverse {
            let destRelationships = layout.chain(dest.name).flatMap { variant.specs[$0]!.relationships }
            guard let i = destRelationships.first(where: { $0.name == inv }) else {
                throw fail(r.path + ".inverse", "in variant \(variant.name), \(dest.name) has no relationship '\(inv)'")
            }
            guard i.destination == e.name, i.inverse == r.name else {
                throw fail(
                    r.path + ".inverse",
                    "in variant \(variant.name), \(dest.name).\(inv) is not the inverse of \(e.name).\(r.name) (it must point back with inverse '\(r.name)')"
                )
            }
        }
        let key = e.name + "." + r.name
        var model = RelationshipModel(
            name: r.name, destination: r.destination, toMany: r.toMany,
            inverse: r.inverse ?? (r.toMany ? layout.hiddenKeys[key]?.name : nil),
            deleteRule: r.deleteRule, storage: layout.storage(of: r.name, declaredBy: e.name)!)
        if !r.toMany { model.destinationEntityColumn = layout.destinationEntityColumns[key] }
        if r.ordered {
            model.ordered = true
            model.orderColumn = layout.orderColumn(of: r.name, declaredBy: e.name)
        }
        return model
    }
}
