import SchemaLabSQLite
import SchemaLabCoreData

/// Inserts `count` new objects into a fresh copy of the filled store, saving every
/// `saveEvery` objects: an app adding posts one by one to an existing store, with whatever a
/// save maintains (a variant's counters) included.
///
/// The new objects are of `entity` (default: the data set's), their values the data set's
/// next rows: rows n..<n+count of the same generators for the data set's entity (each row
/// of an entity-choice data set as the entity it names, or all as `entity` when it is one of
/// them); for another entity, the fields of the data set that go to its attributes (a
/// related entry's fields, or `Entity.attribute` fields), continued after the objects of it
/// the store holds. `relate` names to-one relationships of `entity`: each new object is
/// related to an existing object of the destination, drawn with a seeded stream, and the
/// destination's inverse to-many changes with it (``ManagedObjectContext/relate(_:_:to:)``):
/// a post by an existing author. The objects appended get no related objects of their own.
///
/// Timed: creating and relating the objects, and the saves. Not timed: generating the rows,
/// copying the filled store, reading the destinations' keys and their objects (an app
/// holds the author it shows).
package final class AppendWorkload: Workload {
    package let spec: WorkloadSpec
    let model: ManagedObjectModel
    /// The entity of the objects appended.
    let entity: EntityDescription
    /// How a row becomes objects: one placement's nodes, or each row's entity's.
    let shape: RowShape
    /// The data set the rows continue, and how many of its rows come before them (nil: the
    /// objects of `entity` the store holds, counted when the workload is prepared).
    let source: DatasetSpec
    let precedingRows: Int?
    /// The to-one relationships of `entity` each new object gets, with their destinations.
    let relations: [(name: String, slot: Int, destination: EntityDescription)]
    /// The new rows' values, one column per field, cut into one chunk per save; made once
    /// (every repetition's store holds the same objects).
    @exclusivity(unchecked) private var chunks: [(count: Int, columns: [[SQLValue]])]?
    /// The context of the next repetition, holding the destination objects, made in ``prepare(store:)``.
    @exclusivity(unchecked) private var prepared: (context: ManagedObjectContext, targets: [[ManagedObject]])?

    /// How the rows of the data become objects.
    enum RowShape {
        case nodes([DataPlacement.Node])
        case chosen((column: Int, byName: [String: DataPlacement]))
    }

    init(spec: WorkloadSpec, model: ManagedObjectModel, dataset: DatasetSpec, size: Int, placement: DataPlacement) throws(KeyPathError) {
        self.spec = spec
        self.model = model
        let name = spec.entity ?? dataset.entity
        guard let entity = model.entity(name) else {
            throw KeyPathError(message: "variant \(model.model.variant) has no entity '\(name)'", at: ".entity")
        }
        if entity.model.isAbstract {
            throw KeyPathError(message: "\(name) is abstract: an append inserts objects of an entity that has them", at: ".entity")
        }
        self.entity = entity
        if name == dataset.entity {
            if let choices = placement.choices, !spec.relate.isEmpty {
                throw KeyPathError(
                    message:
                        "each row of this data set is an object of one of \(choices.byName.keys.sorted().joined(separator: ", ")): 'relate' needs one of them named in 'entity'",
                    at: ".relate")
            }
            shape = placement.choices.map { .chosen($0) } ?? .nodes(placement.nodes)
            source = dataset
            precedingRows = size
        } else if let chosen = placement.choices?.byName[name] {
            shape = .nodes(chosen.nodes)
            source = dataset
            precedingRows = size
        } else {
            let fields = Self.fields(of: entity, in: dataset, model: model)
            if fields.isEmpty && !entity.model.attributes.isEmpty {
                throw KeyPathError(
                    message:
                        "no field of the data set goes to an attribute of \(name), so an append has no values for its objects: give the data set a field named '\(name).<attribute>' (with \"optional\": true)",
                    at: ".entity")
            }
            let names = fields.flatMap(\.names)
            // No field here takes its values from a parent (those are left out), so each field's
            // own generator says what it produces.
            let kinds = fields.reduce(into: [String: Set<ValueKind>]()) { $0.merge(ValueKind.produced(by: $1)) { $0.union($1) } }
            let own = try DataPlacement(
                model: model, rootEntity: name, fields: names, kinds: kinds, optional: Set(names))
            shape = .nodes(own.nodes)
            source = DatasetSpec(seed: dataset.seed, entity: name, counts: dataset.counts, fields: fields)
            precedingRows = nil
        }
        relations = try spec.relate.enumerated().map { (i, relationship) throws(KeyPathError) in
            guard let slot = entity.toOneIndex(relationship) else {
                let toOnes = entity.toOne.map(\.name)
                throw KeyPathError(
                    message:
                        "'\(relationship)' is not a to-one relationship of \(name) (\(toOnes.isEmpty ? "it has none" : "its to-ones: " + toOnes.joined(separator: ", ")))",
                    at: ".relate[\(i)]")
            }
            let destination = entity.destinations[slot]
            if let inverse = entity.toOne[slot].inverse, destination.toManyIndex(inverse) == nil {
                throw KeyPathError(
                    message:
                        "'\(relationship)' is one-to-one (its inverse '\(inverse)' is a to-one): 'relate' points many new objects at existing ones, through a to-one whose inverse is a to-many or none",
                    at: ".relate[\(i)]")
            }
            return (relationship, slot, destination)
        }
        if let precedingRows { chunks = Self.rows(of: source, after: precedingRows, count: spec.count, perSave: spec.saveEvery) }
    }

    /// The data set's fields that give `entity`'s objects their values, named `Entity.attribute`
    /// (so that they go to this entity only, and to none its to-ones reach): the fields of the
    /// related entries whose destination it is, then the root fields named for its attributes;
    /// a field whose values come from a parent or a relationship is left out, as is a derived
    /// field whose source is.
    static func fields(of entity: EntityDescription, in dataset: DatasetSpec, model: ManagedObjectModel) -> [FieldSpec] {
        var candidates: [FieldSpec] = []
        func visit(_ entries: [RelatedSpec], parent: EntityDescription) {
            for entry in entries {
                guard let index = parent.toManyIndex(entry.relationship) else { continue }
                let destination = parent.toManyDestinations[index]
                if destination === entity { candidates += entry.fields + (entry.pool?.fields ?? []) }
                visit(entry.related, parent: destination)
            }
        }
        if let root = model.entity(dataset.entity) { visit(dataset.related, parent: root) }
        candidates += dataset.fields
        let attributes = Set(entity.model.attributes.map(\.name))
        let prefix = entity.name + "."
        var kept: [FieldSpec] = []
        var taken: Set<String> = []
        for field in candidates where field.streams && field.names != [DataPlacement.entityField] {
            func bareName(_ name: String) -> String { DataPlacement.attribute(filledBy: name, on: entity.name, model: model) ?? name }
            let bare = field.names.map(bareName)
            guard bare.contains(where: attributes.contains), taken.isDisjoint(with: bare) else { continue }
            if case .derived(let from, _) = field.generator, !taken.contains(bareName(from)) { continue }
            taken.formUnion(bare)
            var named = field
            named.names = bare.map { prefix + $0 }
            if case .derived(let from, let function) = field.generator {
                named.generator = .derived(from: prefix + bareName(from), function: function)
            }
            named.optional = true
            kept.append(named)
        }
        return kept
    }

    /// Rows `start..<start+count` of `source`, cut into chunks of `perSave` (0: one chunk).
    /// Each field's stream is prefix-stable, so the rows continue the data set: the first
    /// `start` rows are generated a chunk at a time and dropped.
    static func rows(of source: DatasetSpec, after start: Int, count: Int, perSave: Int) -> [(count: Int, columns: [[SQLValue]])] {
        let every = perSave > 0 ? perSave : count
        var stream = DataStream(spec: source, count: start + count, chunkSize: every)
        if stream.streams {
            stream.skip(start)
            var chunks: [(count: Int, columns: [[SQLValue]])] = []
            stream.forEachChunk { chunks.append(($0.count, $0.columns)) }
            return chunks
        }
        let more = GeneratedData(spec: source, count: start + count)
        return stride(from: start, to: start + count, by: every).map { first in
            let end = min(first + every, start + count)
            return (end - first, more.columns.map { Array($0[first..<end]) })
        }
    }

    package func prepare(store: Store) throws {
        if chunks == nil {
            let existing = try Self.keys(of: entity, in: store).count
            chunks = Self.rows(of: source, after: existing, count: spec.count, perSave: spec.saveEvery)
        }
        guard !relations.isEmpty else { return }
        let context = ManagedObjectContext(store: store, objectModel: model)
        var targets: [[ManagedObject]] = []
        for relation in relations {
            let keys = try Self.keys(of: relation.destination, in: store)
            guard !keys.isEmpty else {
                throw KeyPathError(
                    message:
                        "the filled store holds no \(relation.destination.name) for the new \(entity.name) objects' '\(relation.name)' to point at"
                )
            }
            // One draw per new object, from a stream of its own (the same objects on every run).
            var draws = SplitMix64(seed: FieldGenerator.streamSeed(source.seed, key: "relate:" + entity.name + "." + relation.name))
            let picked = (0..<spec.count).map { _ in keys[Int(draws.next() % UInt64(keys.count))] }
            let objects = context.objects(relation.destination, ids: picked)
            for object in objects where object.isFault { try context.fireFault(object) }
            targets.append(objects)
        }
        prepared = (context, targets)
    }

    package func run(store: Store) throws -> WorkloadOutcome {
        let context = prepared?.context ?? ManagedObjectContext(store: store, objectModel: model)
        let targets = prepared?.targets ?? []
        prepared = nil
        var made = 0
        for chunk in chunks ?? [] {
            let keep = !relations.isEmpty
            let objects: [ManagedObject]
            switch shape {
            case .nodes(let nodes):
                objects = InsertWorkload.insertRows(chunk.columns, count: chunk.count, nodes: nodes, keep: keep, into: context)
            case .chosen(let choices):
                objects = InsertWorkload.insertChosenRows(chunk.columns, count: chunk.count, choices: choices, keep: keep, into: context)
            }
            for (r, relation) in relations.enumerated() {
                for (k, object) in objects.enumerated() { try context.relate(object, relation.slot, to: targets[r][made + k]) }
            }
            made += chunk.count
            try context.save()
        }
        return WorkloadOutcome(rows: spec.count, valuesRead: 0) { try self.signature(store) }
    }

    /// The result: the objects of `entity` (for the data set's entity, its table's rows), the
    /// counter rows that drift (0 in a correct variant), and per `relate` relationship the new
    /// objects' destinations, counted.
    private func signature(_ store: Store) throws -> ResultSignature {
        let drift = SQLValue.integer(try CounterAudit.driftingRows(store, model: model.model))
        guard spec.entity != nil || !relations.isEmpty else {
            return ResultSignature.of(rows: [[try store.db.scalar("SELECT COUNT(*) FROM \(entity.model.table)"), drift]])
        }
        var row: [SQLValue] = [.integer(Int64(try Self.keys(of: entity, in: store).count)), drift]
        // Of this entity's rows only: a table shared with sibling entities holds their keys too.
        let restriction = entity.model.entityRestriction()
        for relation in relations {
            let column = entity.toOne[relation.slot].foreignKeyColumn!
            let s = try store.db.statement(
                "SELECT COUNT(DISTINCT t0.\(column)) FROM \(entity.model.table) t0" + (restriction.map { " WHERE " + $0.sql } ?? ""))
            for (i, number) in (restriction?.numbers ?? []).enumerated() { try s.bind(Int64(number), at: Int32(i + 1)) }
            row.append(try s.step() ? .integer(s.int64(at: 0)) : .null)
            s.reset()
        }
        return ResultSignature.of(rows: [row])
    }

    /// The primary keys of `entity`'s objects (its sub-entities' included) in `store`, in order.
    static func keys(of entity: EntityDescription, in store: Store) throws -> [Int64] {
        let restriction = entity.model.entityRestriction()
        let s = try store.db.statement(
            "SELECT t0.Z_PK FROM \(entity.model.table) t0" + (restriction.map { " WHERE " + $0.sql } ?? "") + " ORDER BY t0.Z_PK")
        for (i, number) in (restriction?.numbers ?? []).enumerated() { try s.bind(Int64(number), at: Int32(i + 1)) }
        var keys: [Int64] = []
        while try s.step() { keys.append(s.int64(at: 0)) }
        s.reset()
        return keys
    }
}
