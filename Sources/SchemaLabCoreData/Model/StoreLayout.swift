/// How Core Data lays a model out in its store: the entity numbers, one table per
/// inheritance hierarchy, the column of every declared property, the columns Core Data adds
/// (entity-number columns, hidden keys, order keys) and where each relationship is stored
/// (docs/coredata.md, "Store", "Entity inheritance", "Ordered relationships"). The names
/// themselves are spelled by the static rules of `StoreLayout+Names.swift`.
///
/// It is made from what the entities declare, already checked: every parent exists, no
/// entity inherits from itself, no entity declares a property it inherits, and names are
/// unique (`SchemaResolver` checks these, with their messages). A relationship whose
/// destination or inverse is not in the model gets no storage (nil), not a trap.
package struct StoreLayout: Sendable {
    /// What an entity declares, as far as its storage depends on it.
    package struct EntityDeclaration: Sendable {
        package var name: String
        package var parent: String?
        /// The attributes it declares (not those it inherits), by name.
        package var attributes: [String]
        package var relationships: [RelationshipDeclaration]

        package init(name: String, parent: String?, attributes: [String], relationships: [RelationshipDeclaration]) {
            self.name = name
            self.parent = parent
            self.attributes = attributes
            self.relationships = relationships
        }
    }

    /// What a relationship declares, as far as its storage depends on it.
    package struct RelationshipDeclaration: Sendable {
        package var name: String
        package var destination: String
        package var toMany: Bool
        package var ordered: Bool
        package var inverse: String?

        package init(name: String, destination: String, toMany: Bool, ordered: Bool, inverse: String?) {
            self.name = name
            self.destination = destination
            self.toMany = toMany
            self.ordered = ordered
            self.inverse = inverse
        }
    }

    /// The hidden to-one key a to-many without an inverse keeps in its destination's table:
    /// its name (``hiddenKeyName(sourceNumber:relationship:)``), its column, and the source's
    /// entity-number column when the source has sub-entities.
    package struct HiddenKey: Sendable, Equatable {
        package let name: String
        package let column: String
        package let entityColumn: String?
    }

    /// The entity names in number order: roots alphabetically, each followed by its
    /// sub-entities (alphabetically, depth first), so that an entity and everything below it
    /// are one range of numbers. Without inheritance this is alphabetical order.
    package let ordered: [String]
    /// Z_ENT of each entity: its position in ``ordered``, from 1.
    package let numbers: [String: Int]
    /// Each entity's ancestors, root first (empty for a root).
    package let ancestors: [String: [String]]
    /// The direct sub-entities of each entity, alphabetically.
    package let children: [String: [String]]
    /// Each entity's declaration, by name.
    private let declarations: [String: EntityDeclaration]
    /// The column of each declared attribute and to-one relationship, by `Entity.property`.
    package private(set) var columns: [String: String] = [:]
    /// A to-one to a hierarchy: the column of its destination's entity number, by `Entity.relationship`.
    package private(set) var destinationEntityColumns: [String: String] = [:]
    /// The hidden key of each to-many without an inverse, by `Source.relationship`.
    package private(set) var hiddenKeys: [String: HiddenKey] = [:]
    /// The order-key column of each ordered one-to-many, in its destination's table, by `Source.relationship`.
    package private(set) var orderColumns: [String: String] = [:]
    /// The column names each table has taken, while they are given out.
    private var taken: [String: Set<String>] = [:]

    /// Numbers the entities and gives every column its name.
    package init(entities: [EntityDeclaration]) {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var children: [String: [String]] = [:]
        var ancestors: [String: [String]] = [:]
        for e in entities {
            if let parent = e.parent { children[parent, default: []].append(e.name) }
            var chain: [String] = []
            var current = e
            while let parent = current.parent, let next = byName[parent], parent != e.name, !chain.contains(parent) {
                chain.append(parent)
                current = next
            }
            ancestors[e.name] = chain.reversed()
        }
        var ordered: [String] = []
        func visit(_ name: String) {
            ordered.append(name)
            for child in (children[name] ?? []).sorted() { visit(child) }
        }
        for root in entities.filter({ $0.parent == nil }).map(\.name).sorted() { visit(root) }
        self.ordered = ordered
        self.numbers = Dictionary(uniqueKeysWithValues: ordered.enumerated().map { ($0.element, $0.offset + 1) })
        self.ancestors = ancestors
        self.children = children.mapValues { $0.sorted() }
        self.declarations = byName
        nameDeclaredColumns()
        nameHiddenKeys()
        nameOrderColumns()
    }

    /// Columns, per table, in entity-number order: each entity's attributes alphabetically,
    /// then its to-ones alphabetically, each with its destination's entity-number column when
    /// the destination has sub-entities.
    private mutating func nameDeclaredColumns() {
        for e in ordered.map({ declarations[$0]! }) {
            let table = table(of: e.name)
            for a in e.attributes.sorted() { columns[e.name + "." + a] = claim(Self.column(property: a), in: table) }
            for r in e.relationships.filter({ !$0.toMany }).sorted(by: { $0.name < $1.name }) {
                columns[e.name + "." + r.name] = claim(Self.column(property: r.name), in: table)
                if let d = numbers[r.destination], !(children[r.destination] ?? []).isEmpty {
                    destinationEntityColumns[e.name + "." + r.name] = claim(Self.entityNumberColumn(key: r.name, number: d), in: table)
                }
            }
        }
    }

    /// The hidden keys' columns, after every declared property has its column, in the
    /// destination's table.
    private mutating func nameHiddenKeys() {
        for e in ordered.map({ declarations[$0]! }) {
            for r in e.relationships.sorted(by: { $0.name < $1.name }) where r.toMany && r.inverse == nil {
                guard let number = numbers[e.name], numbers[r.destination] != nil else { continue }
                let table = table(of: r.destination)
                let name = Self.hiddenKeyName(sourceNumber: number, relationship: r.name)
                let column = claim(Self.column(property: name), in: table)
                let entityColumn =
                    (children[e.name] ?? []).isEmpty ? nil : claim(Self.entityNumberColumn(key: name, number: number), in: table)
                hiddenKeys[e.name + "." + r.name] = HiddenKey(name: name, column: column, entityColumn: entityColumn)
            }
        }
    }

    /// An ordered one-to-many keeps its order in the destination's table, beside the
    /// inverse's key: `Z_FOK_<INVERSE>` (or `Z_FOK_<hidden key name>` without an inverse).
    private mutating func nameOrderColumns() {
        for e in ordered.map({ declarations[$0]! }) {
            for r in e.relationships.sorted(by: { $0.name < $1.name }) where r.toMany && r.ordered {
                guard numbers[r.destination] != nil else { continue }
                let key: String
                if let inverse = r.inverse {
                    // A many-to-many keeps its order keys in the join table (`joinOrderColumn`).
                    guard let i = relationship(inverse, of: r.destination), !i.toMany else { continue }
                    key = inverse
                } else {
                    guard let hidden = hiddenKeys[e.name + "." + r.name] else { continue }
                    key = hidden.name
                }
                orderColumns[e.name + "." + r.name] = claim(Self.orderKeyColumn(key: key), in: table(of: r.destination))
            }
        }
    }

    /// `base` numbered past the names `table` has taken, and taken.
    private mutating func claim(_ base: String, in table: String) -> String {
        let name = Self.numbered(base, taken: taken[table, default: []])
        taken[table, default: []].insert(name)
        return name
    }

    // MARK: The hierarchy

    /// The root of `entity`'s hierarchy.
    package func root(of entity: String) -> String { ancestors[entity]?.first ?? entity }

    /// The table of `entity`: its hierarchy's, named after the root.
    package func table(of entity: String) -> String { Self.table(root: root(of: entity)) }

    /// Every entity below `entity` (not itself), in number order.
    package func descendants(of entity: String) -> [String] {
        (children[entity] ?? []).flatMap { [$0] + descendants(of: $0) }
    }

    /// `entity`'s ancestors, root first, then `entity`.
    package func chain(_ entity: String) -> [String] { (ancestors[entity] ?? []) + [entity] }

    /// The entity of `chain(entity)` that declares `property`, or nil.
    package func declaring(_ property: String, from entity: String) -> String? {
        chain(entity).reversed().first { e in
            declarations[e].map { $0.attributes.contains(property) || $0.relationships.contains { $0.name == property } } ?? false
        }
    }

    /// The column of a declared property (attribute or to-one) of `entity` or an ancestor.
    package func column(_ property: String, of entity: String) -> String? {
        declaring(property, from: entity).flatMap { columns[$0 + "." + property] }
    }

    /// The relationship `name` of `entity` or an ancestor.
    private func relationship(_ name: String, of entity: String) -> RelationshipDeclaration? {
        chain(entity).compactMap { declarations[$0] }.flatMap(\.relationships).first { $0.name == name }
    }

    // MARK: Relationships

    /// Where `entity`'s declared relationship `name` is stored: a to-one's key column; a
    /// one-to-many's key in the destination's table (its inverse's, or its hidden key without
    /// an inverse); a many-to-many's join table, named after the side with the lower
    /// `(entity number, relationship name)` (the relationship's name when both are one
    /// entity), this side's column first. Nil when the relationship does not resolve.
    package func storage(of name: String, declaredBy entity: String) -> RelationshipStorage? {
        guard let r = declarations[entity]?.relationships.first(where: { $0.name == name }) else { return nil }
        if !r.toMany { return columns[entity + "." + name].map { .foreignKey(column: $0) } }
        guard let inverseName = r.inverse else { return hiddenKeys[entity + "." + name].map { .inverseForeignKey(column: $0.column) } }
        guard let inverse = relationship(inverseName, of: r.destination) else { return nil }
        if !inverse.toMany { return column(inverseName, of: r.destination).map { .inverseForeignKey(column: $0) } }
        guard let mine = numbers[entity], let theirs = numbers[r.destination] else { return nil }
        let owner = (mine, name) < (theirs, inverseName) ? (mine, name) : (theirs, inverseName)
        return .joinTable(
            table: Self.joinTable(ownerNumber: owner.0, relationship: owner.1),
            ownColumn: Self.joinColumn(entityNumber: mine, relationship: inverseName),
            otherColumn: Self.joinColumn(entityNumber: theirs, relationship: name))
    }

    /// Where an ordered to-many's order keys are: beside its inverse's (or hidden) key in the
    /// destination's table, or, for a many-to-many, in the join table beside the member
    /// column (`Z_FOK_34ASSETS` beside `Z_34ASSETS`). Nil for an unordered relationship.
    package func orderColumn(of name: String, declaredBy entity: String) -> String? {
        guard let r = declarations[entity]?.relationships.first(where: { $0.name == name }), r.toMany, r.ordered else { return nil }
        if case .joinTable(_, _, let member) = storage(of: name, declaredBy: entity) {
            return Self.orderKeyColumn(key: String(member.dropFirst(2)))
        }
        return orderColumns[entity + "." + name]
    }
}
