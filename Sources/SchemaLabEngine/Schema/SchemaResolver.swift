import SchemaLabCoreData

/// Turns the scenario's variant specs (full lists or "base plus edits") into
/// resolved ``ResolvedModel``s, checking every reference on the way.
public struct SchemaResolver {
    let file: String
    let specs: [VariantSpec]

    /// The entities and indexes of a variant while its edits are applied.
    struct Draft {
        var entities: [EntitySpec]
        var indexes: [IndexSpec]
        var counters: [CounterSpec] = []
    }

    public init(file: String, variants: [VariantSpec]) {
        self.file = file
        self.specs = variants
    }

    /// Resolves every variant, in the scenario's order.
    public func resolveAll() throws -> [ResolvedModel] {
        var drafts: [String: Draft] = [:]
        return try specs.map { spec in
            let draft = try draft(for: spec, drafts: &drafts, visiting: [])
            return try build(spec: spec, draft: draft)
        }
    }

    private func fail(_ path: String, _ message: String) -> ScenarioError {
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

    private func build(spec: VariantSpec, draft: Draft) throws -> ResolvedModel {
        var seenTables: [String: String] = [:]
        for e in draft.entities.sorted(by: { $0.name < $1.name }) {
            if let other = seenTables[e.name.uppercased()] {
                throw fail(e.path + ".name", "entities '\(other)' and '\(e.name)' would share table Z\(e.name.uppercased())")
            }
            seenTables[e.name.uppercased()] = e.name
        }
        let hierarchy = try EntityHierarchy(entities: draft.entities, variant: spec.name, fail: fail)
        let sorted = hierarchy.ordered
        let specsByName = Dictionary(sorted.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let numbers = hierarchy.numbers
        // Each declared relationship resolved once, by its declaring entity; sub-entities inherit it.
        var declared: [String: RelationshipModel] = [:]
        for e in sorted {
            // Columns must be distinct (names are upper-cased into columns).
            var columns: [String: String] = [:]
            for a in e.attributes {
                if let other = columns[a.name.uppercased()] {
                    throw fail(
                        a.path,
                        "in variant \(spec.name), \(e.name) has two attributes named '\(other)' and '\(a.name)' (one column Z\(a.name.uppercased()))"
                    )
                }
                columns[a.name.uppercased()] = a.name
            }
            for r in e.relationships {
                if columns[r.name.uppercased()] != nil {
                    throw fail(r.path + ".name", "in variant \(spec.name), \(e.name) has an attribute and a relationship named '\(r.name)'")
                }
                columns[r.name.uppercased()] = r.name
                declared[e.name + "." + r.name] = try relationship(
                    r, of: e, in: specsByName, hierarchy: hierarchy, variant: spec.name)
            }
        }
        // The hidden to-one of each to-many without an inverse, on its destination (inherited below it).
        var hidden: [String: [RelationshipModel]] = [:]
        for e in sorted {
            for r in e.relationships where r.toMany && r.inverse == nil {
                guard let key = hierarchy.hiddenKeys[e.name + "." + r.name] else { continue }
                var model = RelationshipModel(
                    name: key.name, destination: e.name, toMany: false, inverse: r.name, deleteRule: .nullify,
                    storage: .foreignKey(column: key.column))
                model.destinationEntityColumn = key.entityColumn
                model.orderColumn = hierarchy.orderColumns[e.name + "." + r.name]
                hidden[r.destination, default: []].append(model)
            }
            // The inverse to-one of an ordered one-to-many writes the order key beside its own.
            for r in e.relationships where r.toMany && r.ordered {
                guard let column = hierarchy.orderColumns[e.name + "." + r.name], let inv = r.inverse,
                    let owner = hierarchy.declaring(inv, from: r.destination, in: specsByName)
                else { continue }
                declared[owner + "." + inv]?.orderColumn = column
            }
        }
        var entities: [EntityModel] = []
        for e in sorted {
            let chain = hierarchy.chain(e.name)
            // Attributes and relationships: the root's first, then each level's own, each
            // level alphabetical, so that a sub-entity's lists begin with its parent's.
            var attributes = chain.flatMap { level in
                specsByName[level]!.attributes.sorted { $0.name < $1.name }.map {
                    AttributeModel(
                        name: $0.name, type: $0.type, optional: $0.optional, canonicalOf: $0.canonicalOf,
                        allowsExternalStorage: $0.allowsExternalStorage,
                        externalStorageThreshold: $0.allowsExternalStorage ? $0.externalStorageThreshold : 0,
                        column: hierarchy.columns[level + "." + $0.name], defaultValue: $0.defaultValue)
                }
            }
            let relationships = chain.flatMap { level in
                (specsByName[level]!.relationships.map(\.name).sorted().map { declared[level + "." + $0]! } + (hidden[level] ?? []))
                    .sorted { $0.name < $1.name }
            }
            let inheritedAttributes = chain.flatMap { specsByName[$0]!.attributes }
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
                        "in variant \(spec.name), \(what) (canonicalOf names the string '\(a.name)' is kept the canonical form of)")
                }
            }
            // Derived attributes: their expressions resolved to columns (the store's triggers keep them).
            for (i, a) in attributes.enumerated() {
                guard let level = chain.first(where: { specsByName[$0]!.attributes.contains { $0.name == a.name } }),
                    let attributeSpec = specsByName[level]!.attributes.first(where: { $0.name == a.name }),
                    let text = attributeSpec.derivation
                else { continue }
                attributes[i].derivation = try derivation(
                    text, for: attributeSpec, attributes: attributes, relationships: relationships,
                    model: (sorted, hierarchy, declared, hidden, specsByName), variant: spec.name)
                attributes[i].derivationText = text
            }
            var indexes: [IndexModel] = []
            for ix in draft.indexes where ix.entity == e.name {
                if indexes.contains(where: { $0.name == ix.name }) {
                    throw fail(ix.path + ".name", "in variant \(spec.name), \(e.name) has two indexes named '\(ix.name)'")
                }
                indexes.append(
                    try index(
                        ix, entity: e, table: "Z" + hierarchy.root(of: e.name).uppercased(), attributes: attributes,
                        relationships: relationships, variant: spec.name))
            }
            // A uniqueness constraint is stored as a unique index named Z_<Entity>_UNIQUE_<a>_<b> ([I]).
            var constraints: [[AttributeModel]] = []
            for c in e.uniquenessConstraints {
                var elements: [AttributeModel] = []
                for (k, name) in c.attributes.enumerated() {
                    guard let a = attributes.first(where: { $0.name == name }) else {
                        throw fail(
                            c.path + "[\(k)]",
                            "in variant \(spec.name), \(e.name) has no attribute '\(name)' (attributes: \(attributes.map(\.name).joined(separator: ", ")))"
                        )
                    }
                    elements.append(a)
                }
                let name = "UNIQUE_" + c.attributes.joined(separator: "_")
                if constraints.contains(elements) || indexes.contains(where: { $0.name == name }) {
                    throw fail(c.path, "in variant \(spec.name), \(e.name) already has a uniqueness constraint or index named '\(name)'")
                }
                constraints.append(elements)
                indexes.append(
                    IndexModel(
                        name: name, sqlName: "Z_\(e.name)_\(name)",
                        elements: elements.map { IndexElementModel(attribute: $0, descending: false) },
                        kind: .binary, unique: true, attributeStyle: false))
            }
            var entity = EntityModel(
                name: e.name, number: numbers[e.name]!, attributes: attributes, relationships: relationships, indexes: indexes)
            entity.uniquenessConstraints = constraints
            entity.parent = e.parent
            entity.isAbstract = e.abstract
            entity.root = hierarchy.root(of: e.name)
            entity.subentityNumbers = hierarchy.descendants(of: e.name).map { numbers[$0]! }
            entities.append(entity)
        }
        for ix in draft.indexes where numbers[ix.entity] == nil {
            throw fail(ix.path + ".entity", "in variant \(spec.name), no entity named '\(ix.entity)'")
        }
        var counters: [CounterModel] = []
        for c in draft.counters {
            func attribute(_ entity: String, _ name: String, _ key: String) throws -> AttributeModel {
                guard let e = entities.first(where: { $0.name == entity }) else {
                    throw fail(
                        c.path + (key == "count" || key == "key" ? ".entity" : ".of"),
                        "in variant \(spec.name), no entity named '\(entity)'")
                }
                guard let a = e.attribute(name) else {
                    throw fail(c.path + "." + key, "in variant \(spec.name), \(entity) has no attribute '\(name)'")
                }
                return a
            }
            if c.count == c.key {
                throw fail(
                    c.path + ".count", "in variant \(spec.name), a counter's 'count' and 'key' must be different attributes ('\(c.count)')")
            }
            if counters.contains(where: { $0.entity == c.entity && $0.count.name == c.count }) {
                throw fail(
                    c.path + ".count",
                    "in variant \(spec.name), \(c.entity).\(c.count) is already kept by another counter: each count attribute has one counter"
                )
            }
            let count = try attribute(c.entity, c.count, "count")
            guard [.integer16, .integer32, .integer64].contains(count.type) else {
                throw fail(c.path + ".count", "a counter counts in an integer attribute; \(c.entity).\(c.count) is \(count.type.rawValue)")
            }
            let key = try attribute(c.entity, c.key, "key")
            let by = try attribute(c.of, c.by, "by")
            guard ValueKind.accepted(by: key.type) == ValueKind.accepted(by: by.type) else {
                throw fail(
                    c.path + ".by",
                    "\(c.of).\(c.by) (\(by.type.rawValue)) and \(c.entity).\(c.key) (\(key.type.rawValue)) must hold the same kind of value"
                )
            }
            counters.append(CounterModel(entity: c.entity, key: key, count: count, source: c.of, sourceKey: by))
        }
        return ResolvedModel(variant: spec.name, entities: entities, counters: counters)
    }

    private func relationship(
        _ r: RelationshipSpec, of e: EntitySpec, in all: [String: EntitySpec], hierarchy: EntityHierarchy, variant: String
    ) throws -> RelationshipModel {
        guard let dest = all[r.destination] else {
            throw fail(r.path + ".destination", "in variant \(variant), no entity named '\(r.destination)'")
        }
        let numbers = hierarchy.numbers
        var inverse: RelationshipSpec?
        if let inv = r.inverse {
            let destRelationships = hierarchy.chain(dest.name).flatMap { all[$0]!.relationships }
            guard let i = destRelationships.first(where: { $0.name == inv }) else {
                throw fail(r.path + ".inverse", "in variant \(variant), \(dest.name) has no relationship '\(inv)'")
            }
            guard i.destination == e.name, i.inverse == r.name else {
                throw fail(
                    r.path + ".inverse",
                    "in variant \(variant), \(dest.name).\(inv) is not the inverse of \(e.name).\(r.name) (it must point back with inverse '\(r.name)')"
                )
            }
            inverse = i
        }
        let storage: RelationshipStorage
        if !r.toMany {
            storage = .foreignKey(column: hierarchy.columns[e.name + "." + r.name]!)
        } else if let inv = inverse, !inv.toMany {
            storage = .inverseForeignKey(column: hierarchy.column(inv.name, of: dest.name, in: all)!)
        } else if let inv = inverse {
            // Many-to-many: one join table, named after the side whose entity has the lower
            // number (the relationship's name when both are one entity).
            let mine = (numbers[e.name]!, r.name), theirs = (numbers[dest.name]!, inv.name)
            let owner = mine < theirs ? mine : theirs
            let table = "Z_\(owner.0)\(owner.1.uppercased())"
            storage = .joinTable(
                table: table,
                ownColumn: "Z_\(numbers[e.name]!)\(inv.name.uppercased())",
                otherColumn: "Z_\(numbers[dest.name]!)\(r.name.uppercased())")
        } else {
            // No inverse: a hidden to-one key in the destination's table, as Core Data adds a
            // virtual to-one for it (see EntityHierarchy.hiddenKeys).
            storage = .inverseForeignKey(column: hierarchy.hiddenKeys[e.name + "." + r.name]!.column)
        }
        var model = RelationshipModel(
            name: r.name, destination: r.destination, toMany: r.toMany,
            inverse: r.inverse ?? (r.toMany ? hierarchy.hiddenKeys[e.name + "." + r.name]?.name : nil),
            deleteRule: r.deleteRule, storage: storage)
        if !r.toMany { model.destinationEntityColumn = hierarchy.columns[e.name + "." + r.name + ".entity"] }
        if r.ordered {
            model.ordered = true
            if case .joinTable(_, _, let other) = storage {
                model.orderColumn = "Z_FOK_" + other.dropFirst(2)
            } else {
                model.orderColumn = hierarchy.orderColumns[e.name + "." + r.name]
            }
        }
        return model
    }

    /// A derived attribute's expression, resolved: `now()`, `lowercase:(a)`, `uppercase:(a)`,
    /// `canonical:(a)`, `a` (another attribute), `r.a` (through a to-one), `r.@count` (a to-many).
    private func derivation(
        _ text: String, for a: AttributeSpec, attributes: [AttributeModel], relationships: [RelationshipModel],
        model: (
            entities: [EntitySpec], hierarchy: EntityHierarchy, declared: [String: RelationshipModel],
            hidden: [String: [RelationshipModel]], specs: [String: EntitySpec]
        ),
        variant: String
    ) throws -> Derivation {
        let path = a.path + ".derivation"
        let forms = "now(), lowercase:(name), uppercase:(name), canonical:(name), name, relationship.name or relationship.@count"
        func requireType(_ types: [AttributeType], _ what: String) throws {
            guard types.contains(a.type) else {
                throw fail(path, "in variant \(variant), '\(text)' gives \(what): '\(a.name)' is \(a.type.rawValue)")
            }
        }
        func attribute(_ name: String) throws -> AttributeModel {
            guard let source = attributes.first(where: { $0.name == name }), name != a.name, source.derivation == nil else {
                throw fail(path, "in variant \(variant), '\(text)': '\(name)' is not another stored attribute of the entity")
            }
            return source
        }
        let trimmed = text.filter { !$0.isWhitespace }
        if trimmed == "now()" {
            try requireType([.date], "a date")
            return .now
        }
        if let colon = trimmed.firstIndex(of: ":"), trimmed.hasSuffix(")"), trimmed[trimmed.index(after: colon)...].hasPrefix("(") {
            let function = String(trimmed[..<colon])
            guard let sql = Derivation.functions[function] else {
                throw fail(path, "in variant \(variant), '\(function):' is not a derivation function (lowercase:, uppercase:, canonical:)")
            }
            let argument = String(trimmed[trimmed.index(colon, offsetBy: 2)..<trimmed.index(before: trimmed.endIndex)])
            let source = try attribute(argument)
            guard source.type == .string else {
                throw fail(path, "in variant \(variant), '\(text)' takes a string attribute; '\(argument)' is \(source.type.rawValue)")
            }
            try requireType([.string], "a string")
            return .function(sqlFunction: sql, sourceColumn: source.column)
        }
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1, Identifier.isPlainName(parts[0]) {
            let source = try attribute(parts[0])
            guard source.type == a.type else {
                throw fail(path, "in variant \(variant), '\(text)' is \(source.type.rawValue); '\(a.name)' is \(a.type.rawValue)")
            }
            return .attribute(sourceColumn: source.column)
        }
        guard parts.count == 2, let r = relationships.first(where: { $0.name == parts[0] }) else {
            throw fail(path, "in variant \(variant), '\(text)' is not a derivation the lab takes (\(forms))")
        }
        if parts[1] == "@count" {
            guard r.toMany else { throw fail(path, "in variant \(variant), '\(text)': '\(r.name)' is a to-one (@count counts a to-many)") }
            try requireType([.integer16, .integer32, .integer64], "an integer")
            switch r.storage {
            case .inverseForeignKey(let column):
                return .count(table: "Z" + model.hierarchy.root(of: r.destination).uppercased(), keyColumn: column)
            case .joinTable(let table, let own, _):
                return .count(table: table, keyColumn: own)
            case .foreignKey:
                break
            }
        }
        guard !r.toMany, let fk = r.foreignKeyColumn, Identifier.isPlainName(parts[1]) else {
            throw fail(
                path, "in variant \(variant), '\(text)': a key path goes through a to-one ('\(r.name)' is a to-many: use \(r.name).@count)")
        }
        let destination = model.hierarchy.chain(r.destination).compactMap { model.specs[$0] }.flatMap(\.attributes)
        guard let target = destination.first(where: { $0.name == parts[1] }),
            let column = model.hierarchy.column(parts[1], of: r.destination, in: model.specs)
        else {
            throw fail(path, "in variant \(variant), '\(text)': \(r.destination) has no attribute '\(parts[1])'")
        }
        guard target.type == a.type else {
            throw fail(path, "in variant \(variant), '\(text)' is \(target.type.rawValue); '\(a.name)' is \(a.type.rawValue)")
        }
        return .toOne(
            foreignKey: fk, destinationTable: "Z" + model.hierarchy.root(of: r.destination).uppercased(), destinationColumn: column)
    }

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
        let sqlName = ix.attributeStyle ? "\(table)_\(elements[0].column)_INDEX" : "Z_\(e.name)_\(ix.name)"
        var model = IndexModel(
            name: ix.name, sqlName: sqlName, elements: elements, kind: ix.kind, unique: ix.unique,
            attributeStyle: ix.attributeStyle)
        model.combinedQuery = ix.combinedQuery
        return model
    }
}
