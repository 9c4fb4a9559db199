import Foundation
import SchemaLabCoreData
import SchemaLabEngine
import SchemaLabSQLite

/// Turns a `ImportedModel` into a scenario: the model as variant `as-is`, the same without
/// its indexes as `no-indexes`, a data set to start from, and fetch workloads.
///
/// What the lab supports is mapped (see ``attributeType(_:)`` for the attribute types):
/// hierarchies (`parent`, `abstract`), ordered relationships, to-manys without an inverse,
/// defaults, indexes on attributes and to-one relationships. What it does not is refused
/// with the element's line (derived attributes, indexes on expressions, a self-inverse
/// to-many, types that are not stored). What it reads but does not model is said in ``notes``.
package struct ScenarioImporter {
    package let model: ImportedModel
    /// The scenario's name (a label).
    package let name: String
    /// The day the data set's dates end, `yyyy-mm-dd` (their range is the year before it).
    package let today: String
    /// The scenario format's JSON Schema, relative to where the scenario goes (`schema.json`
    /// in scenarios/), written as `"$schema"` so that editors check the file; nil: none.
    package var schemaReference: String?
    /// What the import read but does not model, and choices it made: one line each.
    package private(set) var notes: [String] = []

    package init(model: ImportedModel, name: String, today: String) {
        self.model = model
        self.name = name
        self.today = today
    }

    /// The scenario, as typed specs (``ScenarioEncoder`` writes its file).
    package mutating func scenario() throws -> Scenario {
        try check()
        for e in model.entities {
            for a in e.attributes where a.transient {
                notes.append("\(e.name).\(a.name) is transient: not stored, left out")
            }
            for a in e.attributes where ["UUID", "URI", "Transformable"].contains(a.type) {
                notes.append("\(e.name).\(a.name) is \(a.type): stored as Core Data stores it, \(Self.storageNote[a.type]!)")
            }
            for r in e.relationships where r.toMany && (r.maxCount ?? 0) > 0 {
                notes.append("\(e.name).\(r.name) has maxCount \(r.maxCount!): a validation rule only, not modelled")
            }
            for f in e.fetchIndexes {
                let left = f.elements.filter { isToMany($0.property, of: e) }.map(\.property)
                guard !left.isEmpty else { continue }
                let kept = f.elements.count - left.count
                notes.append(
                    "\(e.name)'s fetch index \(f.name) names the to-many relationship\(left.count == 1 ? "" : "s") \(left.joined(separator: ", ")), which has no column in \(e.name)'s table (its keys are in the destination's table or a join table): "
                        + (kept == 0
                            ? "the index has no other element and is left out"
                            : "left out of the index, which keeps its \(kept) other element\(kept == 1 ? "" : "s")"))
            }
        }
        notes += model.unknowns
        let indexes = model.entities.flatMap { e in indexSpecs(e) }
        var variants = [
            VariantSpec(
                name: "as-is", description: "The model as imported from \(model.displayName).",
                entities: model.entities.map(entitySpec), indexes: indexes.map(\.spec))
        ]
        if model.persistentHistory {
            variants[0].persistentHistory = true
            notes.append("the store tracks persistent history: the variants have \"persistentHistory\": true")
        }
        if indexes.isEmpty {
            notes.append("the model has no indexes: no 'no-indexes' variant")
        } else {
            variants.append(
                VariantSpec(
                    name: "no-indexes",
                    description: "as-is without its indexes (uniqueness constraints stay: they are rules, not speed-ups).",
                    extends: "as-is", dropIndexes: indexes.map { EntityMemberRef(entity: $0.entity, name: $0.name) }))
        }
        var data = ImportedDataSet(model: model, today: today)
        let dataset = try data.spec()
        notes += data.notes
        let workloads = workloadSpecs(indexes: indexes, expected: data.expectedRows)
        return Scenario(
            name: name,
            description:
                "Imported by schemalab import from \(model.displayName). The data set is a starting point: edit its generators and counts to look like your app's data.",
            variants: variants, dataset: dataset, workloads: workloads, schemaReference: schemaReference)
    }

    /// Core Data's attribute types and the lab's: UUID is a 16-byte BLOB, URI its text in a
    /// VARCHAR, Transformable the transformer's bytes in a BLOB, as Core Data stores them.
    package static func attributeType(_ xml: String) -> AttributeType? {
        switch xml {
        case "Integer 16": return .integer16
        case "Integer 32": return .integer32
        case "Integer 64": return .integer64
        case "Double": return .double
        case "Float": return .float
        case "Decimal": return .decimal
        case "String", "URI": return .string
        case "Boolean": return .bool
        case "Date": return .date
        case "Binary", "UUID", "Transformable": return .binary
        default: return nil
        }
    }

    static let storageNote = [
        "UUID": "16 bytes in a BLOB column",
        "URI": "the URL's absolute string in a VARCHAR column",
        "Transformable": "the value transformer's bytes in a BLOB column",
    ]

    /// Refuses what the lab cannot model, naming the element and its line.
    func check() throws {
        let fail = { (line: Int, element: String, message: String) in
            ModelImportError(file: model.source, line: line, element: element, message: message)
        }
        guard !model.entities.isEmpty else { throw fail(0, "", "the model has no entities") }
        guard CivilDate.midnight(day: today) != nil else { throw fail(0, "", "today '\(today)' is not a day written yyyy-mm-dd") }
        var tables = Set<String>()
        for e in model.entities {
            var check = ImportedEntityCheck(importer: self, entity: e)
            try check.nameAndTable(&tables)
            try check.parentChain()
            try check.attributes()
            try check.relationships()
            try check.fetchIndexes()
            try check.uniquenessConstraints()
        }
    }

    /// The entity's ancestors, root first (a missing or cyclic parent ends the chain; check() refuses those).
    func ancestors(of e: ImportedModel.Entity) -> [ImportedModel.Entity] {
        var out: [ImportedModel.Entity] = []
        var current = e
        while let p = current.parentEntity, let parent = model.entity(p), !out.contains(where: { $0.name == p }), p != e.name {
            out.insert(parent, at: 0)
            current = parent
        }
        return out
    }

    /// True when `property` is a to-many relationship of `e` (its own or inherited).
    func isToMany(_ property: String, of e: ImportedModel.Entity) -> Bool {
        (ancestors(of: e) + [e]).flatMap(\.relationships).contains { $0.name == property && $0.toMany }
    }

    /// An index of the `as-is` variant.
    struct ImportedIndex {
        var entity: String
        var name: String
        var keys: [(String, Bool)]
        var spec: IndexSpec
    }

    /// The entity's indexes: one per `indexed="YES"` attribute (attribute style), one per fetch index.
    func indexSpecs(_ e: ImportedModel.Entity) -> [ImportedIndex] {
        var names = Set(e.fetchIndexes.map(\.name))
        var out: [ImportedIndex] = []
        for a in e.attributes where a.indexed && !a.transient {
            var n = a.name
            while names.contains(n) { n += "_" }
            names.insert(n)
            out.append(
                ImportedIndex(
                    entity: e.name, name: n, keys: [(a.name, false)],
                    spec: IndexSpec(name: n, entity: e.name, elements: [IndexElementSpec(key: a.name)], attributeStyle: true)))
        }
        for f in e.fetchIndexes {
            let rtree = f.elements.first?.type == "RTree"
            // A to-many element has no column to index (a note says so): left out.
            let columns = f.elements.filter { !isToMany($0.property, of: e) }
            guard !columns.isEmpty else { continue }
            let elements = columns.map { IndexElementSpec(key: $0.property, descending: $0.descending && !rtree) }
            out.append(
                ImportedIndex(
                    entity: e.name, name: f.name, keys: columns.map { ($0.property, $0.descending) },
                    spec: IndexSpec(name: f.name, entity: e.name, elements: elements, kind: rtree ? .rtree : .binary)))
        }
        return out
    }

    /// The entity as the scenario declares it: its stored attributes, its relationships and
    /// its uniqueness constraints.
    func entitySpec(_ e: ImportedModel.Entity) -> EntitySpec {
        let attributes = e.attributes.filter { !$0.transient }.map { a in
            let type = Self.attributeType(a.type)!
            var spec = AttributeSpec(
                name: a.name, type: type, optional: a.optional,
                defaultValue: a.defaultValue.flatMap { Self.defaultValue($0, type: a.type) },
                derivation: a.derivation, allowsExternalStorage: a.allowsExternalBinaryDataStorage && type == .binary)
            spec.preserveAfterDeletion = a.preserveAfterDeletion
            return spec
        }
        let relationships = e.relationships.map { r in
            RelationshipSpec(
                name: r.name, destination: r.destination, toMany: r.toMany, ordered: r.toMany && r.ordered, inverse: r.inverseName,
                deleteRule: Self.deleteRules[r.deletionRule] ?? .nullify)
        }
        return EntitySpec(
            name: e.name, attributes: attributes, relationships: relationships,
            uniquenessConstraints: e.uniquenessConstraints.map { UniquenessConstraintSpec(attributes: $0) }, parent: e.parentEntity,
            abstract: e.isAbstract)
    }

    /// A `defaultValueString` (or a date's `defaultDateTimeInterval`) as the scenario's
    /// `default`, as the column stores it: an integer (a boolean's 1 or 0), a real or a string;
    /// nil for a type the lab gives no default (binary, UUID, transformable) or a value it
    /// cannot read.
    static func defaultValue(_ text: String, type: String) -> SQLValue? {
        switch type {
        case "Integer 16", "Integer 32", "Integer 64": return Int64(text).map { .integer($0) }
        case "Double", "Float", "Decimal", "Date": return Double(text).map { .real($0) }
        case "Boolean": return ["YES": 1, "NO": 0, "1": 1, "0": 0][text].map { .integer($0) }
        case "String", "URI": return .text(text)
        default: return nil
        }
    }

    /// The derivation forms the lab models (the resolver checks what they name).
    static func isSupportedDerivation(_ text: String) -> Bool {
        let t = text.filter { !$0.isWhitespace }
        if t == "now()" { return true }
        for f in ["lowercase:(", "uppercase:(", "canonical:("] where t.hasPrefix(f) && t.hasSuffix(")") {
            return Identifier.isPlainName(String(t.dropFirst(f.count).dropLast()))
        }
        let parts = t.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1 { return Identifier.isPlainName(parts[0]) }
        return parts.count == 2 && Identifier.isPlainName(parts[0]) && (parts[1] == "@count" || Identifier.isPlainName(parts[1]))
    }

    static let deleteRules: [String: DeleteRule] = ["Nullify": .nullify, "Cascade": .cascade, "Deny": .deny, "No Action": .noAction]

    /// Per entity with data, a fetch of all its objects sorted by each index's first key (or
    /// unsorted without an index); a fetched-results controller with batches of 20 on the
    /// entity with the most rows. A sort on a key with repeated values would let two variants
    /// return equal objects in another order, which the lab's result check flags: so a sort
    /// ends with a tie-breaker, the entity's attribute most likely unique (see ``tieBreaker(_:)``).
    mutating func workloadSpecs(indexes: [ImportedIndex], expected: [String: Double]) -> [WorkloadSpec] {
        var out: [WorkloadSpec] = []
        var taken = Set<String>()
        // A workload name: at most 64 characters, unique (a number added when cut names collide).
        func label(_ text: String) -> String {
            var name = String(text.prefix(Identifier.maxLength)), n = 2
            while taken.contains(name) {
                let suffix = "-\(n)"
                name = String(text.prefix(Identifier.maxLength - suffix.count)) + suffix
                n += 1
            }
            taken.insert(name)
            return name
        }
        func sort(_ e: ImportedModel.Entity, _ key: String, _ descending: Bool) -> [SortSpec] {
            var keys = [SortSpec(keyPath: key, ascending: !descending)]
            if let t = tieBreaker(e), t != key { keys.append(SortSpec(keyPath: t)) }
            return keys
        }
        for e in model.entities where (expected[e.name] ?? 0) > 0 {
            var keys: [(String, Bool)] = []
            // Each index's first attribute (a to-one element is a key to filter on, not to sort by).
            let attributeNames = Set((ancestors(of: e) + [e]).flatMap(\.attributes).map(\.name))
            for i in indexes where i.entity == e.name {
                guard let k = i.keys.first(where: { attributeNames.contains($0.0) }), !keys.contains(where: { $0.0 == k.0 }) else {
                    continue
                }
                keys.append(k)
            }
            if keys.isEmpty {
                out.append(WorkloadSpec(name: label("fetch-\(e.name)"), kind: .fetch, entity: e.name))
            }
            if !keys.isEmpty && tieBreaker(e) == nil {
                notes.append(
                    "\(e.name) has no attribute likely to be unique to end its sorts with: variants may return objects with equal sort keys in another order, which the result check reports"
                )
            }
            for (k, desc) in keys {
                out.append(WorkloadSpec(name: label("fetch-\(e.name)-by-\(k)"), kind: .fetch, entity: e.name, sort: sort(e, k, desc)))
            }
            // A compound index serves an equality on its first element, sorted by its second: the
            // shape it is for (an object's key for a to-one, a constant of the attribute's type).
            let own = ancestors(of: e) + [e]
            for i in indexes where i.entity == e.name && i.keys.count >= 2 {
                let (first, second) = (i.keys[0].0, i.keys[1])
                // A number is the integer 1, for a floating-point attribute too (as the scenario's
                // text has always written it, `1`, which reads back an integer).
                let argument: PredicateValue
                if own.flatMap(\.relationships).contains(where: { $0.name == first && !$0.toMany }) {
                    argument = .integer(1)
                } else if let a = own.flatMap(\.attributes).first(where: { $0.name == first }) {
                    switch Self.attributeType(a.type) {
                    case .integer16?, .integer32?, .integer64?, .double?, .float?, .decimal?: argument = .integer(1)
                    case .bool?: argument = .bool(true)
                    case .string?: argument = .string("a")
                    default: continue
                    }
                } else {
                    continue
                }
                guard own.flatMap(\.attributes).contains(where: { $0.name == second.0 }) else { continue }
                out.append(
                    WorkloadSpec(
                        name: label("fetch-\(e.name)-\(i.name)"), kind: .fetch, entity: e.name,
                        predicate: PredicateSpec(text: "\(first) == %@", arguments: [argument]), sort: sort(e, second.0, second.1)))
            }
        }
        let largest = model.entities.filter { (expected[$0.name] ?? 0) > 0 }.max { (expected[$0.name] ?? 0) < (expected[$1.name] ?? 0) }
        if let e = largest {
            let attributeNames = Set((ancestors(of: e) + [e]).flatMap(\.attributes).map(\.name))
            let indexed = indexes.first { $0.entity == e.name }?.keys.first { attributeNames.contains($0.0) }
            let sortable = e.attributes.filter { !$0.transient && Self.attributeType($0.type) != .binary }.map(\.name).sorted()
            if let (k, desc) = indexed ?? sortable.first.map({ ($0, false) }) {
                // No sections (sectionNameKeyPath nil, the common case): the controller's batched fetch and its first screen.
                out.append(
                    WorkloadSpec(
                        name: label("frc-\(e.name)"), kind: .fetchedResults, entity: e.name, sort: sort(e, k, desc), batchSize: 20,
                        touch: .first(20)))
            }
        }
        return out
    }

    /// The attribute that ends a sort: one with a uniqueness constraint of its own, else an
    /// identifier-like string (generated as UUIDs), else a Double (drawn uniformly), else a date.
    /// Never bytes (Binary, UUID, Transformable: a BLOB column), which an app does not sort by.
    func tieBreaker(_ e: ImportedModel.Entity) -> String? {
        let stored = e.attributes.filter { !$0.transient }
        let sortable = Set(stored.filter { !["Binary", "UUID", "Transformable"].contains($0.type) }.map(\.name))
        if let u = e.uniquenessConstraints.first(where: { $0.count == 1 && sortable.contains($0[0]) }) { return u[0] }
        if let s = stored.first(where: { $0.type == "String" && ImportedDataSet.isIdentifierName($0.name) }) { return s.name }
        if let d = stored.first(where: { $0.type == "Double" || $0.type == "Float" }) { return d.name }
        return stored.first { $0.type == "Date" }?.name
    }
}
