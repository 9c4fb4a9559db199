import SchemaLabCoreData

/// Where the logical fields of one data row go in one variant: which objects to
/// create per row (the root entity, plus every entity its to-one relationships
/// reach that holds a field), and which field fills which attribute.
///
/// A field is written to every attribute of that name the root reaches, so a
/// denormalized copy (V3's `Photo.likes` beside `PhotoMeta.likes`) gets the same value.
package struct DataPlacement {
    /// One object to create per row.
    package struct Node {
        package let entity: EntityDescription
        /// The node this one hangs from, and the to-one slot of that parent that points here.
        package let parent: (node: Int, slot: Int)?
        /// This entity's to-one slot that points back to the parent (a one-to-one inverse).
        package let inverseSlot: Int?
        /// Per attribute (entity order): the data column that fills it, or nil (NULL).
        package let sources: [Int?]
    }

    package let nodes: [Node]
    /// The fields that have an attribute to go to.
    package internal(set) var placed: Set<String>
    /// The to-many relationships of the root filled per row (see `RelatedPlacement`).
    package internal(set) var related: [RelatedPlacement] = []
    /// With an `entity` field (a data set of several entities, such as the sub-entities of a
    /// hierarchy): the data column that names each row's entity, and the placement of each
    /// entity it names; `nodes` are then the first choice's.
    package internal(set) var choices: (column: Int, byName: [String: DataPlacement])? = nil

    /// The name of the field that chooses each row's entity.
    package static let entityField = "entity"

    /// The attribute `field` fills on objects of `entity`: a plain field's name; a qualified
    /// one's (`Car.numberPlate`) when it qualifies `entity` or an entity it inherits from (a
    /// sub-entity's inherited attribute is its parent's column); nil for another entity's.
    package static func attribute(filledBy field: String, on entity: String, model: ManagedObjectModel) -> String? {
        guard let dot = field.firstIndex(of: ".") else { return field }
        let owner = String(field[..<dot]), attribute = String(field[field.index(after: dot)...])
        var name: String? = entity
        var seen: Set<String> = []
        while let n = name, seen.insert(n).inserted {
            if n == owner { return attribute }
            name = model.entity(n)?.model.parent
        }
        return nil
    }

    /// The placement of a data set whose `entity` field chooses each row's entity among
    /// `entities`: one placement per entity (each field optional there, since a field may
    /// belong to one sub-entity only); a field no entity takes, unless in `optional`, fails.
    package static func choosing(
        among entities: [String], model: ManagedObjectModel, fields: [String], kinds: [String: Set<ValueKind>],
        optional: Set<String>
    ) throws(KeyPathError) -> DataPlacement {
        let column = fields.firstIndex(of: entityField)!
        let others = fields.filter { $0 != entityField }
        var byName: [String: DataPlacement] = [:]
        for name in entities {
            guard let entity = model.entity(name) else {
                throw KeyPathError(message: "variant \(model.model.variant) has no entity '\(name)' (the entity field names it)")
            }
            if entity.model.isAbstract {
                throw KeyPathError(message: "\(name) is abstract: the entity field names entities whose objects a row becomes")
            }
            // Every field, the entity field included, so that a source is a column of the data.
            byName[name] = try DataPlacement(model: model, rootEntity: name, fields: fields, kinds: kinds, optional: Set(fields))
        }
        let placed = byName.values.reduce(into: Set<String>()) { $0.formUnion($1.placed) }
        for f in others where !placed.contains(f) && !optional.contains(f) {
            throw KeyPathError(
                message:
                    "in variant \(model.model.variant), field '\(f)' has nowhere to go: no attribute '\(f)' on \(entities.joined(separator: ", ")) or an entity their to-one relationships reach"
            )
        }
        var first = byName[entities[0]]!
        first.placed = placed.union([entityField])
        first.choices = (column, byName)
        return first
    }

    /// Builds the placement; throws a message when a field has no attribute to go to in
    /// this variant (unless it is in `optional`), or a generated value cannot be stored
    /// in the attribute's type. `excluding` names a to-one of the root not to follow
    /// (the inverse that points back at a parent object).
    package init(
        model: ManagedObjectModel, rootEntity: String, fields: [String], kinds: [String: Set<ValueKind>],
        optional: Set<String> = [], excluding: String? = nil
    ) throws(KeyPathError) {
        let variant = model.model.variant
        guard let root = model.entity(rootEntity) else {
            throw KeyPathError(message: "variant \(variant) has no entity '\(rootEntity)'")
        }
        var nodes: [Node] = []
        var placed = Set<String>()
        // Breadth-first over to-one relationships; each entity visited once.
        var queue: [(EntityDescription, (node: Int, slot: Int)?, Int?)] = [(root, nil, nil)]
        var visited: Set<String> = [root.name]
        var pending: [(entity: EntityDescription, parent: (node: Int, slot: Int)?, inverse: Int?)] = []
        while !queue.isEmpty {
            let (e, parent, inverse) = queue.removeFirst()
            pending.append((e, parent, inverse))
            let myIndex = pending.count - 1
            // An abstract destination has no objects of its own to create.
            for (slot, r) in e.toOne.enumerated()
            where !(myIndex == 0 && r.name == excluding) && !e.destinations[slot].model.isAbstract && visited.insert(r.destination).inserted
            {
                let dest = e.destinations[slot]
                let inv = r.inverse.flatMap { dest.toOneIndex($0) }
                queue.append((dest, (myIndex, slot), inv))
            }
        }
        // Keep an entity when it or something below it holds a field (by attribute name, or
        // qualified: `Entity.attribute`, that entity's attribute only, which its sub-entities
        // inherit: `Car.numberPlate` fills a SportCar's too, one column of one table).
        // The nearest qualifier wins: `SportCar.plate` over `Car.plate` for a SportCar.
        func source(_ entity: EntityDescription, _ attribute: String) -> Int? {
            var name: String? = entity.name
            var seen: Set<String> = []
            while let n = name, seen.insert(n).inserted {
                if let f = fields.firstIndex(of: n + "." + attribute) { return f }
                name = model.entity(n)?.model.parent
            }
            return fields.firstIndex(of: attribute)
        }
        let holds = pending.map { p in p.entity.model.attributes.contains { source(p.entity, $0.name) != nil } }
        var keep = holds
        for i in pending.indices.reversed() where keep[i] {
            var p = pending[i].parent
            while let parent = p { keep[parent.node] = true; p = pending[parent.node].parent }
        }
        keep[0] = true
        var newIndex: [Int: Int] = [:]
        for (i, p) in pending.enumerated() where keep[i] {
            var sources: [Int?] = []
            for a in p.entity.model.attributes {
                guard let f = source(p.entity, a.name) else { sources.append(nil); continue }
                let field = fields[f]
                let allowed = ValueKind.accepted(by: a.type)
                if let produced = kinds[field], !produced.isSubset(of: allowed) {
                    throw KeyPathError(
                        message:
                            "in variant \(variant), field '\(field)' generates \(produced.map(\.rawValue).sorted().joined(separator: "/")) values, which a \(a.type.rawValue) attribute (\(p.entity.name).\(a.name)) cannot hold"
                    )
                }
                placed.insert(field)
                sources.append(f)
            }
            newIndex[i] = nodes.count
            nodes.append(
                Node(
                    entity: p.entity, parent: p.parent.map { (newIndex[$0.node]!, $0.slot) },
                    inverseSlot: p.inverse, sources: sources))
        }
        for f in fields where !placed.contains(f) && !optional.contains(f) {
            throw KeyPathError(
                message:
                    "in variant \(variant), field '\(f)' has nowhere to go: no attribute '\(f)' on \(rootEntity) or an entity its to-one relationships reach"
            )
        }
        self.nodes = nodes
        self.placed = placed
    }
}

/// Where the objects of one `related` entry go in one variant: the to-many slot of
/// the parent, how the destination points back, and the placement of the
/// destination objects' fields (children, or pool members).
package struct RelatedPlacement {
    /// How a destination object points back at its parent.
    package enum Inverse {
        /// One-to-many: the destination's to-one slot (its foreign key).
        case toOne(slot: Int)
        /// Many-to-many: the destination's to-many slot (join-table rows).
        case toMany(index: Int)
    }

    /// The relationship on the parent entity.
    package let relationship: RelationshipModel
    /// The relationship's index in the parent entity's ``EntityDescription/toMany``.
    package let toManyIndex: Int
    package let inverse: Inverse
    /// The destination objects' fields; `nodes[0]` is the destination entity.
    package let placement: DataPlacement
    /// The entry's index in the generated data's `related` (entries a variant leaves out
    /// have no placement).
    package var dataIndex = 0
}
