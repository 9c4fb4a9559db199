import SchemaLabCoreData
import SchemaLabEngine

/// The checks `ScenarioImporter/check()` makes on one entity of an imported model, a step
/// each: what the lab cannot model is refused with the element and its line.
struct ImportedEntityCheck {
    let importer: ScenarioImporter
    let entity: ImportedModel.Entity
    /// The entity and its ancestors, root first.
    let own: [ImportedModel.Entity]
    /// Each column of the entity's table taken so far (Z<NAME>), with the property that has it.
    private var columns: [String: String] = [:]

    init(importer: ScenarioImporter, entity: ImportedModel.Entity) {
        self.importer = importer
        self.entity = entity
        let inherited = importer.ancestors(of: entity)
        own = inherited + [entity]
        for a in inherited.flatMap(\.attributes) where !a.transient { columns[StoreLayout.column(property: a.name)] = a.name }
        for r in inherited.flatMap(\.relationships) where !r.toMany { columns[StoreLayout.column(property: r.name)] = r.name }
    }

    private var model: ImportedModel { importer.model }
    private var element: String { "entity name=\"\(entity.name)\"" }
    private static let nameRule = "the lab takes names of ASCII letters, digits and _ that start with a letter"

    private func fail(_ line: Int, _ element: String, _ message: String) -> ModelImportError {
        ModelImportError(file: model.source, line: line, element: element, message: message)
    }

    /// A plain name, and a table no other entity of the model has (`tables` holds theirs).
    func nameAndTable(_ tables: inout Set<String>) throws {
        guard Identifier.isPlainName(entity.name) else { throw fail(entity.line, element, Self.nameRule) }
        let table = StoreLayout.table(root: entity.name)
        guard tables.insert(table).inserted else { throw fail(entity.line, element, "two entities share the table \(table)") }
    }

    /// The parent is in the model, and no entity inherits from itself through others.
    func parentChain() throws {
        guard let p = entity.parentEntity else { return }
        guard let parent = model.entity(p) else { throw fail(entity.line, element, "the parent entity \(p) is not in the model") }
        var chain = [entity.name, parent.name], current = parent
        while let next = current.parentEntity {
            guard !chain.contains(next), let n = model.entity(next) else {
                throw fail(
                    entity.line, element, "entities inherit from each other in a cycle: \((chain + [next]).joined(separator: " -> "))")
            }
            chain.append(next)
            current = n
        }
    }

    /// Takes the column of the property `name`: refused when an inherited or another property has it.
    private mutating func column(_ name: String, _ line: Int, _ element: String) throws {
        let column = StoreLayout.column(property: name)
        if let other = columns[column] {
            throw fail(
                line, element,
                other == name
                    ? "\(entity.name).\(name) is declared again: \(entity.name) inherits \(name) from its parent"
                    : "\(entity.name).\(name) and \(entity.name).\(other) would share the column \(column) (Core Data upper-cases names into columns)"
            )
        }
        columns[column] = name
    }

    /// Each stored attribute: a plain name, a column of its own, a derivation and a type the lab models.
    mutating func attributes() throws {
        for a in entity.attributes where !a.transient {
            let ael = "attribute name=\"\(a.name)\""
            guard Identifier.isPlainName(a.name) else { throw fail(a.line, ael, Self.nameRule) }
            try column(a.name, a.line, ael)
            if let d = a.derivation, !ScenarioImporter.isSupportedDerivation(d) {
                throw fail(
                    a.line, ael,
                    "the derivation '\(d)' is not one the lab models (now(), lowercase:(a), uppercase:(a), canonical:(a), a, relationship.a, relationship.@count)"
                )
            }
            guard ScenarioImporter.attributeType(a.type) != nil else {
                throw fail(
                    a.line, ael,
                    "the attribute type '\(a.type)' is not supported (only stored types: Integer 16/32/64, Double, Float, Decimal, String, Boolean, Date, Binary, UUID, URI, Transformable)"
                )
            }
        }
    }

    /// Each relationship: a plain name, a destination and an inverse in the model, a column of
    /// its own for a to-one, and no to-many that is its own inverse.
    mutating func relationships() throws {
        for r in entity.relationships {
            let rel = "relationship name=\"\(r.name)\""
            guard Identifier.isPlainName(r.name) else { throw fail(r.line, rel, Self.nameRule) }
            guard let d = model.entity(r.destination) else {
                throw fail(r.line, rel, "the destination entity \(r.destination) is not in the model")
            }
            if !r.toMany { try column(r.name, r.line, rel) }
            if r.toMany && r.destination == entity.name && r.inverseName == r.name {
                throw fail(
                    r.line, rel,
                    "a to-many relationship that is its own inverse (\(entity.name).\(r.name), like friends) is not supported: its join table's two columns would have one name"
                )
            }
            if let inv = r.inverseName, (importer.ancestors(of: d) + [d]).flatMap(\.relationships).first(where: { $0.name == inv }) == nil {
                throw fail(r.line, rel, "the inverse \(r.destination).\(inv) is not in the model")
            }
        }
    }

    /// Each fetch index: a plain name of its own, elements all Binary or all R-tree (at most 5),
    /// each a stored attribute (or a to-one, for a Binary one) of a type its kind takes.
    func fetchIndexes() throws {
        var indexNames = Set<String>()
        for f in entity.fetchIndexes {
            let fel = "fetchIndex name=\"\(f.name)\""
            guard Identifier.isPlainName(f.name) else { throw fail(f.line, fel, Self.nameRule) }
            guard indexNames.insert(f.name.uppercased()).inserted else {
                throw fail(f.line, fel, "\(entity.name) has two fetch indexes named \(f.name)")
            }
            guard !f.elements.isEmpty else { throw fail(f.line, fel, "the fetch index has no elements") }
            let types = Set(f.elements.map(\.type))
            guard types.count == 1, ["Binary", "RTree"].contains(types.first!) else {
                throw fail(
                    f.line, fel, "a fetch index is all Binary or all RTree elements (found \(types.sorted().joined(separator: ", ")))")
            }
            for x in f.elements { try fetchIndexElement(x) }
            if f.elements.first?.type == "RTree" && f.elements.count > 5 {
                throw fail(f.line, fel, "an R-tree index takes at most 5 attributes")
            }
        }
    }

    /// One element of a fetch index.
    private func fetchIndexElement(_ x: ImportedModel.FetchIndex.Element) throws {
        let xel = "fetchIndexElement property=\"\(x.property)\""
        if x.type == "Binary", own.flatMap(\.relationships).contains(where: { $0.name == x.property }) {
            // A to-one: the index takes its foreign key. A to-many has no column in this
            // entity's table: the import leaves the element out, with a note (indexSpecs).
            return
        }
        guard let a = own.flatMap(\.attributes).first(where: { $0.name == x.property && !$0.transient }) else {
            let what =
                own.flatMap(\.relationships).contains { $0.name == x.property }
                ? (x.type == "RTree"
                    ? "a relationship: an R-tree index takes numbers and dates"
                    : "a to-many relationship: an index takes attributes and to-one relationships")
                : "not a stored attribute or to-one relationship of \(entity.name)"
            throw fail(x.line, xel, "\(x.property) is \(what)")
        }
        if x.type == "RTree" && !["Integer 16", "Integer 32", "Integer 64", "Double", "Float", "Date"].contains(a.type) {
            throw fail(x.line, xel, "an R-tree index takes numbers and dates; \(entity.name).\(a.name) is \(a.type)")
        }
    }

    /// Each uniqueness constraint names stored attributes only.
    func uniquenessConstraints() throws {
        for c in entity.uniquenessConstraints {
            for p in c where own.flatMap(\.attributes).first(where: { $0.name == p && !$0.transient }) == nil {
                throw fail(
                    entity.line, element,
                    "the uniqueness constraint [\(c.joined(separator: ", "))] names \(p), which is not a stored attribute of \(entity.name) (constraints on relationships are not supported)"
                )
            }
        }
    }
}
