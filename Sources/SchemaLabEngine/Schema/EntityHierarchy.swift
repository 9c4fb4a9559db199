import SchemaLabCoreData

/// The inheritance hierarchies of one variant's entities, as Core Data stores them: one
/// table per hierarchy (named after its root), entity numbers that keep each entity and
/// everything below it in one range, and the column of every declared property in its
/// hierarchy's table (docs/coredata.md, "Entity inheritance").
struct EntityHierarchy {
    /// The entities in number order: roots alphabetically, each followed by its sub-entities
    /// (alphabetically, depth first). Without inheritance this is alphabetical order.
    let ordered: [EntitySpec]
    /// Z_ENT of each entity (its position in `ordered`, from 1).
    let numbers: [String: Int]
    /// Each entity's ancestors, root first (empty for a root).
    let ancestors: [String: [String]]
    /// The direct sub-entities of each entity, alphabetically.
    let children: [String: [String]]
    /// The column of each declared attribute and to-one relationship, by `Entity.property`.
    private(set) var columns: [String: String] = [:]
    /// The order column of each ordered one-to-many, by `Source.relationship`.
    private(set) var orderColumns: [String: String] = [:]

    /// Checks the parents (they exist, form no cycle, redeclare nothing) and lays out the columns.
    init(entities: [EntitySpec], variant: String, fail: (String, String) -> ScenarioError) throws {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var children: [String: [String]] = [:]
        for e in entities {
            guard let parent = e.parent else { continue }
            guard byName[parent] != nil else {
                throw fail(
                    e.path + ".parent",
                    "in variant \(variant), no entity named '\(parent)' (entities: \(entities.map(\.name).sorted().joined(separator: ", ")))"
                )
            }
            children[parent, default: []].append(e.name)
        }
        var ancestors: [String: [String]] = [:]
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
            ancestors[e.name] = chain.reversed()
        }
        var ordered: [EntitySpec] = []
        func visit(_ name: String) {
            ordered.append(byName[name]!)
            for child in (children[name] ?? []).sorted() { visit(child) }
        }
        for root in entities.filter({ $0.parent == nil }).map(\.name).sorted() { visit(root) }
        self.ordered = ordered
        self.numbers = Dictionary(uniqueKeysWithValues: ordered.enumerated().map { ($0.element.name, $0.offset + 1) })
        self.ancestors = ancestors
        self.children = children.mapValues { $0.sorted() }
        // A property may not redeclare one its entity inherits.
        for e in ordered {
            let inherited = Set(
                ancestors[e.name]!.flatMap { a in byName[a]!.attributes.map(\.name) + byName[a]!.relationships.map(\.name) })
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
        // Columns, per table, in entity-number order: a name another entity of the same table
        // took already gets the next free number after it (ZTITLE, ZTITLE1, ZTITLE2).
        var used: [String: Set<String>] = [:]
        for e in ordered {
            let table = root(of: e.name)
            func claim(_ base: String) -> String { Self.claim(base, in: table, used: &used) }
            for a in e.attributes.sorted(by: { $0.name < $1.name }) { columns[e.name + "." + a.name] = claim("Z" + a.name.uppercased()) }
            for r in e.relationships.filter({ !$0.toMany }).sorted(by: { $0.name < $1.name }) {
                columns[e.name + "." + r.name] = claim("Z" + r.name.uppercased())
                // A destination with sub-entities: its entity number beside the key (`Z7_FILE`).
                if let d = numbers[r.destination], !(self.children[r.destination] ?? []).isEmpty {
                    columns[e.name + "." + r.name + ".entity"] = claim("Z\(d)_" + r.name.uppercased())
                }
            }
        }
        claimHiddenKeys(ordered, used: &used)
        // An ordered one-to-many keeps its order in the destination's table, beside the
        // inverse's key: `Z_FOK_<INVERSE>` (or `Z_FOK_<hidden key name>` without an inverse).
        for e in ordered {
            for r in e.relationships.sorted(by: { $0.name < $1.name }) where r.toMany && r.ordered {
                guard numbers[r.destination] != nil else { continue }
                let inverseName: String
                if let inv = r.inverse {
                    guard let d = byName[r.destination],
                        let i = chain(d.name).compactMap({ byName[$0] }).flatMap(\.relationships).first(where: { $0.name == inv }),
                        !i.toMany
                    else { continue }  // many-to-many: the join table's own column
                    inverseName = inv
                } else {
                    guard let hidden = hiddenKeys[e.name + "." + r.name] else { continue }
                    inverseName = hidden.name
                }
                let table = root(of: r.destination)
                var name = "Z_FOK_" + inverseName.uppercased()
                var n = 0
                while used[table, default: []].contains(name) {
                    n += 1
                    name = "Z_FOK_" + inverseName.uppercased() + String(n)
                }
                used[table, default: []].insert(name)
                orderColumns[e.name + "." + r.name] = name
            }
        }
    }

    /// The hidden to-one key a to-many relationship without an inverse keeps in its
    /// destination's table, by `Source.relationship`: its name (`3items`: the source's number
    /// and the relationship's name, which no property can have), its column (`Z3ITEMS`), and
    /// the source's entity-number column when the source has sub-entities.
    private(set) var hiddenKeys: [String: (name: String, column: String, entityColumn: String?)] = [:]

    /// `base`, or the first of `base1`, `base2`, … that `table` does not use yet, marked used: a
    /// column name another entity of the same table took gets the next free number after it.
    static func claim(_ base: String, in table: String, used: inout [String: Set<String>]) -> String {
        var name = base
        var n = 0
        while used[table, default: []].contains(name) {
            n += 1
            name = base + String(n)
        }
        used[table, default: []].insert(name)
        return name
    }

    /// Claims the hidden keys' columns, after every declared property has its column.
    private mutating func claimHiddenKeys(_ ordered: [EntitySpec], used: inout [String: Set<String>]) {
        for e in ordered {
            for r in e.relationships.sorted(by: { $0.name < $1.name }) where r.toMany && r.inverse == nil {
                guard let number = numbers[e.name], numbers[r.destination] != nil else { continue }
                let table = root(of: r.destination)
                func claim(_ base: String) -> String { Self.claim(base, in: table, used: &used) }
                let name = "\(number)\(r.name)"
                let column = claim("Z" + name.uppercased())
                let entityColumn = (children[e.name] ?? []).isEmpty ? nil : claim("Z\(number)_" + name.uppercased())
                hiddenKeys[e.name + "." + r.name] = (name, column, entityColumn)
            }
        }
    }

    /// The root of `entity`'s hierarchy.
    func root(of entity: String) -> String { ancestors[entity]?.first ?? entity }

    /// Every entity below `entity` (not itself), in number order.
    func descendants(of entity: String) -> [String] {
        (children[entity] ?? []).flatMap { [$0] + descendants(of: $0) }
    }

    /// `entity`'s ancestors, root first, then `entity`.
    func chain(_ entity: String) -> [String] { (ancestors[entity] ?? []) + [entity] }

    /// The entity of `chain(entity)` that declares `property`, or nil.
    func declaring(_ property: String, from entity: String, in specs: [String: EntitySpec]) -> String? {
        chain(entity).reversed().first { e in
            specs[e]!.attributes.contains { $0.name == property } || specs[e]!.relationships.contains { $0.name == property }
        }
    }

    /// The column of a declared property (attribute or to-one) of `entity` or an ancestor.
    func column(_ property: String, of entity: String, in specs: [String: EntitySpec]) -> String? {
        declaring(property, from: entity, in: specs).flatMap { columns[$0 + "." + property] }
    }
}
