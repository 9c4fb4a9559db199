import Foundation
import SchemaLabEngine
import SchemaLabSQLite

/// The data set an imported scenario starts from: a root entity, a generator per attribute
/// chosen from its type and name, and the root's to-many relationships filled per row.
///
/// The root is an entity that belongs to no other (it has no to-one whose inverse is a
/// to-many) and reaches the most entities; the entities its to-one relationships reach
/// get one object per row (the lab's data placement), its to-many relationships get new
/// objects per row (one-to-many, nested two levels further) or links into a shared pool
/// (many-to-many). An entity reached by none of these gets no data, and ``notes`` says so.
struct ImportedDataSet {
    let model: ImportedModel
    let today: String
    /// Rows of the root entity at each size.
    static let counts = [1_000, 10_000]
    /// The share of rows an optional attribute is nil in (so that `== nil` finds rows), unless
    /// it is kept unique.
    static let optionalNulls = 0.1
    /// What the notes say of values.
    static let nullsNote =
        "a required attribute gets a value in every row, an optional one without a default is nil in 10% of them"
    /// Members of a many-to-many pool.
    static let poolCount = 200
    var notes: [String] = []
    /// Objects per entity expected at the largest count (for choosing workloads).
    var expectedRows: [String: Double] = [:]

    init(model: ImportedModel, today: String) {
        self.model = model
        self.today = today
    }

    /// The entity, with the attributes, relationships and uniqueness constraints it inherits
    /// before its own (a sub-entity's rows share its parent's table and its constraints).
    private func entity(_ name: String) -> ImportedModel.Entity {
        var e = model.entity(name)!
        var parent = e.parentEntity
        var seen: Set<String> = [name]
        while let p = parent, seen.insert(p).inserted, let pe = model.entity(p) {
            e.attributes = pe.attributes + e.attributes
            e.relationships = pe.relationships + e.relationships
            e.uniquenessConstraints = pe.uniquenessConstraints + e.uniquenessConstraints
            parent = pe.parentEntity
        }
        return e
    }

    /// The entity that declares `attribute` for `entity`: the entity itself, or the ancestor
    /// it inherits the attribute from.
    private func declarer(of attribute: String, in entity: String) -> String {
        var current: String? = entity
        var seen: Set<String> = []
        while let name = current, seen.insert(name).inserted, let e = model.entity(name) {
            if e.attributes.contains(where: { $0.name == attribute }) { return name }
            current = e.parentEntity
        }
        return entity
    }

    private func inverse(of r: ImportedModel.Relationship) -> ImportedModel.Relationship? {
        r.inverseName.flatMap { n in entity(r.destination).relationships.first { $0.name == n } }
    }

    /// True when the entity hangs from another: a to-one of it whose inverse is a to-many
    /// (a relationship to itself, like a manager, does not count).
    private func isChild(_ e: ImportedModel.Entity) -> Bool {
        e.relationships.contains { !$0.toMany && $0.destination != e.name && (inverse(of: $0)?.toMany ?? false) }
    }

    /// The entities a row of `root` fills through to-one relationships, root first.
    private func toOneReach(_ root: String, excluding: String? = nil) -> [String] {
        var seen = [root], queue = [root]
        while !queue.isEmpty {
            let e = entity(queue.removeFirst())
            for r in e.relationships
            where !r.toMany && !(e.name == root && r.name == excluding) && !seen.contains(r.destination)
                && !entity(r.destination).isAbstract
            {
                seen.append(r.destination)
                queue.append(r.destination)
            }
        }
        return seen
    }

    /// True when `name` is below `ancestor` in its hierarchy.
    private func isBelow(_ name: String, _ ancestor: String) -> Bool {
        var current = model.entity(name)?.parentEntity
        var seen: Set<String> = [name]
        while let p = current, seen.insert(p).inserted {
            if p == ancestor { return true }
            current = model.entity(p)?.parentEntity
        }
        return false
    }

    /// Every entity of `name`'s inheritance hierarchy, root first, depth first.
    private func hierarchyMembers(of name: String) -> [String] {
        var root = name
        var seen: Set<String> = [name]
        while let p = model.entity(root)?.parentEntity, seen.insert(p).inserted { root = p }
        func below(_ n: String) -> [String] {
            [n] + model.entities.filter { $0.parentEntity == n && $0.name != n }.map(\.name).sorted().flatMap(below)
        }
        return below(root)
    }

    /// How many entities a row of `e` reaches (to-one and to-many, transitively).
    private func reach(_ e: String) -> Int {
        var seen: Set<String> = [e], queue = [e]
        while !queue.isEmpty {
            for r in entity(queue.removeFirst()).relationships where seen.insert(r.destination).inserted { queue.append(r.destination) }
        }
        return seen.count
    }

    /// The data set: the root found and planned (with more roots for what it does not reach).
    mutating func spec() throws -> DatasetSpec {
        // The root must hold a field: an attribute of its own or of an entity its to-ones reach.
        // An abstract entity has no objects of its own: its sub-entities get the rows.
        let holding = model.entities.map { entity($0.name) }.filter { e in
            !e.isAbstract && toOneReach(e.name).contains { !entity($0).attributes.filter { !$0.transient }.isEmpty }
        }
        guard !holding.isEmpty else {
            throw ModelImportError(
                file: model.source, line: 0, element: "", message: "no entity has a stored attribute: there is no data to generate")
        }
        let candidates = holding.filter { !isChild($0) }
        // The most entities reached, then the most one-to-many relationships; the first in the model on a tie.
        func score(_ e: ImportedModel.Entity) -> (Int, Int) {
            (reach(e.name), e.relationships.filter { $0.toMany && !(inverse(of: $0)?.toMany ?? false) }.count)
        }
        var root = (candidates.isEmpty ? holding : candidates)[0]
        for e in candidates where score(e) > score(root) { root = e }
        // The root whose data set gives rows to the most entities (the score above breaks ties):
        // each candidate's data set is planned, and the fullest kept.
        // Any entity holding data may be the root (one that belongs to another too, when that
        // fills more); an entity that belongs to none wins a tie.
        var best = self
        _ = try best.spec(root: root)
        for e in holding where e.name != root.name {
            var trial = ImportedDataSet(model: model, today: today)
            _ = try trial.spec(root: e)
            // Entities with no relationship at all join any root's rows: they do not decide the root.
            func reached(_ plan: ImportedDataSet) -> Int {
                plan.expectedRows.filter { $0.value > 0 && !(model.entity($0.key)?.relationships.isEmpty ?? true) }.count
            }
            let (rows, bestRows) = (reached(trial), reached(best))
            if rows > bestRows || (rows == bestRows && !isChild(e) && isChild(root)) {
                root = e
                best = trial
            }
        }
        // Entities the root's data set does not reach: more roots, each filling the most of
        // what is left, their rows sharing the data set (an entity field; each related entry
        // for its root's rows).
        // (Counted without the entities that have no relationship: they join as roots of their own.)
        func isolated(_ name: String) -> Bool { model.entity(name)?.relationships.isEmpty ?? true }
        var roots = [root]
        var covered = Set(best.expectedRows.filter { $0.value > 0 && !isolated($0.key) }.keys).union([root.name])
        while true {
            var pick: (ImportedModel.Entity, ImportedDataSet, Int)?
            for e in holding where !covered.contains(e.name) && !isolated(e.name) {
                var trial = ImportedDataSet(model: model, today: today)
                _ = try trial.spec(root: e)
                let gain = trial.expectedRows.filter { $0.value > 0 && !isolated($0.key) && !covered.contains($0.key) }.count
                if gain > (pick?.2 ?? 0) || (gain == pick?.2 && pick.map { isChild($0.0) && !isChild(e) } == true) {
                    pick = (e, trial, gain)
                }
            }
            guard let (e, plan, _) = pick else { break }
            roots.append(e)
            covered.formUnion(plan.expectedRows.filter { $0.value > 0 && !isolated($0.key) }.keys)
        }
        let leftAlone = holding.filter { isolated($0.name) && (best.expectedRows[$0.name] ?? 0) == 0 && $0.name != root.name }
        guard roots.count > 1 || !leftAlone.isEmpty else { return try spec(root: root) }
        // Entities with no relationship, with data to hold, are roots of their own.
        for e in holding where isolated(e.name) && !roots.contains(where: { $0.name == e.name }) { roots.append(e) }
        return try spec(roots: roots)
    }

    /// A data set of several roots: each row is an object of one of them (an entity field),
    /// with each root's related entries for its rows.
    mutating func spec(roots: [ImportedModel.Entity]) throws -> DatasetSpec {
        var related: [RelatedSpec] = []
        var rows: [String: Double] = [:]
        var allNotes: [String] = []
        for root in roots {
            var plan = ImportedDataSet(model: model, today: today)
            let dataset = try plan.spec(root: root)
            for (name, count) in plan.expectedRows { rows[name, default: 0] += count / Double(roots.count) }
            // A root's own entity-field note does not hold here: the rows are dealt among the roots.
            allNotes += plan.notes.filter {
                ($0.hasPrefix("each ") && !$0.hasPrefix(Self.rowsNote)) || $0.hasPrefix("\(root.name).") || $0.contains(" is left empty")
            }
            for var entry in dataset.related {
                entry.forEntity = root.name
                related.append(entry)
            }
        }
        expectedRows = rows
        notes = allNotes
        let namespace = roots.flatMap { toOneReach($0.name) }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let choice = Self.entityField(roots.map(\.name))
        for e in model.entities where (expectedRows[e.name] ?? 0) == 0 && !e.isAbstract {
            notes.append(
                "\(e.name) gets no data: none of the data set's roots (\(roots.map(\.name).joined(separator: ", "))) reaches it; give it a 'related' entry, or run on a store of your own"
            )
        }
        notes.append(
            "\(Self.rowsNote) \(Self.dealt(roots.map(\.name))), \(Self.counts.map(String.init).joined(separator: " and ")) rows; each related entry fills its root's rows; \(Self.nullsNote)"
        )
        for e in model.entities where (expectedRows[e.name] ?? 0) == 0 {
            let below = model.entities.filter { isBelow($0.name, e.name) }.map { expectedRows[$0.name] ?? 0 }.reduce(0, +)
            if below > 0 { expectedRows[e.name] = below }
        }
        return DatasetSpec(
            seed: 1, entity: roots[0].name, counts: Self.counts, fields: [choice] + fieldSpecs(for: namespace.map(entity)), related: related
        )
    }

    /// The `entity` field that makes each row (or child) an object of one of `entities`, in
    /// equal shares: dealt in turn (`cycle`), so that every entity has an object as soon as
    /// there are as many rows as entities (a random choice left some without at small sizes).
    static func entityField(_ entities: [String]) -> FieldSpec {
        FieldSpec(names: ["entity"], generator: .cycle(values: entities.map { .text($0) }))
    }

    /// How the notes start that say what the data set's rows are.
    static let rowsNote = "each row of the data set is an object of one of"

    /// "A, B, C, dealt in turn (the entity field: each has rows from 3 rows up)".
    static func dealt(_ entities: [String]) -> String {
        "\(entities.joined(separator: ", ")), dealt in turn (the entity field: each has rows from \(entities.count) rows up)"
    }

    /// The data set with `root` as its root entity.
    mutating func spec(root: ImportedModel.Entity) throws -> DatasetSpec {
        notes = []
        expectedRows = [:]
        let top = Double(Self.counts.last!)
        var filled: [String] = []
        let namespace = toOneReach(root.name)
        for e in namespace { expectedRows[e] = top; filled.append(e) }
        let fields = fieldSpecs(for: namespace.map(entity))
        var related: [RelatedSpec] = []
        for r in root.relationships where r.toMany {
            if let entry = relatedSpec(r, parentRows: top, filled: &filled) { related.append(entry) }
        }
        // A root in an inheritance hierarchy: each row is an object of one of the hierarchy's
        // concrete entities (an `entity` field), when no related entry hangs from the root.
        var concrete = hierarchyMembers(of: root.name).filter { !entity($0).isAbstract }
        // Without related entries, the entities with no relationship at all share the rows too:
        // each row is an object of one of them (a model of unrelated entities gets rows in each).
        if related.isEmpty {
            let reachedByChoice = Set(concrete.flatMap { toOneReach($0) })
            for e in model.entities where !e.isAbstract && !filled.contains(e.name) && !reachedByChoice.contains(e.name) {
                let en = entity(e.name)
                guard en.relationships.isEmpty, !en.attributes.isEmpty else { continue }
                concrete.append(e.name)
            }
        }
        var entityField: FieldSpec?
        var allFields = fields
        if concrete.count > 1 && related.isEmpty {
            entityField = Self.entityField(concrete)
            let reached = concrete.flatMap { toOneReach($0) }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            allFields = fieldSpecs(for: reached.map(entity))
            for m in reached {
                expectedRows[m] = concrete.contains(m) ? top / Double(concrete.count) : top
                if !filled.contains(m) { filled.append(m) }
            }
            notes.append("\(Self.rowsNote) \(Self.dealt(concrete))")
        }
        for e in model.entities where !filled.contains(e.name) && !e.isAbstract {
            notes.append(
                "\(e.name) gets no data: the data set's root \(root.name) does not reach it through its to-one relationships or its to-many ones (three levels down); give it a 'related' entry, or run on a store of your own"
            )
        }
        notes.append(
            "the data set's root is \(root.name), \(Self.counts.map(String.init).joined(separator: " and ")) rows; \(Self.nullsNote)"
        )
        // A parent entity's fetch returns its sub-entities' objects: it has their rows, so its
        // indexes get workloads too.
        for e in model.entities where (expectedRows[e.name] ?? 0) == 0 {
            let below = model.entities.filter { isBelow($0.name, e.name) }.map { expectedRows[$0.name] ?? 0 }.reduce(0, +)
            if below > 0 { expectedRows[e.name] = below }
        }
        return DatasetSpec(
            seed: 1, entity: root.name, counts: Self.counts, fields: (entityField.map { [$0] } ?? []) + allFields, related: related)
    }

    /// The entry filling one to-many relationship of a row (nested once for one-to-many).
    private mutating func relatedSpec(_ r: ImportedModel.Relationship, parentRows: Double, filled: inout [String], depth: Int = 0)
        -> RelatedSpec?
    {
        guard !filled.contains(r.destination) else {
            notes.append(
                "\(r.name) is left empty: it leads to \(r.destination), which the data set fills already (from the root or another relationship)"
            )
            return nil
        }
        let destination = entity(r.destination)
        // A destination with sub-entities: each child is an object of one of the concrete
        // entities of its subtree (an entity field), in equal shares.
        let concrete = hierarchyMembers(of: destination.name).drop { $0 != destination.name }.filter { name in
            !entity(name).isAbstract && (name == destination.name || isBelow(name, destination.name))
        }
        if concrete.isEmpty {
            notes.append("\(r.name) is left empty: it leads to the abstract entity \(r.destination), which has no concrete sub-entity")
            return nil
        }
        if concrete.count > 1 || destination.isAbstract {
            for name in concrete where !filled.contains(name) { filled.append(name) }
            filled.append(destination.name)
            let reached = concrete.flatMap { toOneReach($0, excluding: r.inverseName) }.reduce(into: [String]()) {
                if !$0.contains($1) { $0.append($1) }
            }
            for e in reached where !filled.contains(e) { filled.append(e) }
            let most = [6, 4, 2][min(depth, 2)]
            let rows = parentRows * Double(most) / 2
            for name in concrete { expectedRows[name] = rows / Double(concrete.count) }
            let choice = Self.entityField(concrete)
            notes.append("each \(r.name) object is one of \(concrete.joined(separator: ", ")), dealt in turn (the entry's entity field)")
            let fanOut = GeneratorSpec.uniformInt(min: 0, max: Int64(most))
            let fields = [choice] + fieldSpecs(for: reached.map(entity))
            if inverse(of: r)?.toMany ?? false {
                return RelatedSpec(relationship: r.name, pool: PoolSpec(count: Self.poolCount, fields: fields), fanOut: fanOut)
            }
            return RelatedSpec(relationship: r.name, fanOut: fanOut, fields: fields)
        }
        filled.append(destination.name)
        // The destination's objects fill the entities its to-ones reach too (not the way back):
        // their attributes need fields, their required ones above all.
        let reached = toOneReach(destination.name, excluding: r.inverseName).map(entity)
        for e in reached.dropFirst() where !filled.contains(e.name) { filled.append(e.name) }
        // 0-6 children per row, then 0-4, then 0-2 a level further down (3, 2 and 1 on average).
        let most = [6, 4, 2][min(depth, 2)]
        let fanOut = GeneratorSpec.uniformInt(min: 0, max: Int64(most))
        if inverse(of: r)?.toMany ?? false {
            expectedRows[destination.name] = Double(Self.poolCount)
            return RelatedSpec(
                relationship: r.name, pool: PoolSpec(count: Self.poolCount, fields: fieldSpecs(for: reached)), fanOut: fanOut)
        }
        let rows = parentRows * Double(most) / 2
        expectedRows[destination.name] = rows
        var nested: [RelatedSpec] = []
        if depth < 2 {
            for n in destination.relationships where n.toMany && n.name != r.inverseName {
                if let entry = relatedSpec(n, parentRows: rows, filled: &filled, depth: depth + 1) { nested.append(entry) }
            }
        }
        return RelatedSpec(relationship: r.name, fanOut: fanOut, fields: fieldSpecs(for: reached), related: nested)
    }

    /// One field per stored attribute of these entities, by the entity that declares it (an
    /// attribute inherited through a hierarchy is one column of one table, so one field, one
    /// value stream: a uniqueness constraint on it holds across the sub-entities' rows). A
    /// field is named after the attribute, or, when two declaring entities have an attribute
    /// of that name, after the declaring entity and the attribute (`Author.name`; the data
    /// placement gives `Car.numberPlate` to Car's sub-entities too).
    private func fieldSpecs(for entities: [ImportedModel.Entity]) -> [FieldSpec] {
        var seen = Set<String>(), out: [FieldSpec] = []
        var declarers: [String: Set<String>] = [:]
        for e in entities {
            for a in e.attributes where !a.transient && a.derivation == nil {
                declarers[a.name, default: []].insert(declarer(of: a.name, in: e.name))
            }
        }
        for e in entities {
            // A derived attribute is the store's to keep: no field fills it.
            for a in e.attributes where !a.transient && a.derivation == nil {
                let owner = declarer(of: a.name, in: e.name)
                let name = (declarers[a.name]?.count ?? 0) > 1 ? owner + "." + a.name : a.name
                guard seen.insert(name).inserted else { continue }
                // Unique when the declaring entity or any entity here that inherits the attribute
                // from it constrains it: one column of one table, one constraint.
                let unique =
                    Self.uniqueMembers(entity(owner)).contains(a.name)
                    || entities.contains { declarer(of: a.name, in: $0.name) == owner && Self.uniqueMembers($0).contains(a.name) }
                var field = FieldSpec(names: [name], generator: generator(a, unique: unique))
                // An optional attribute is nil in some rows, as an app's are: `== nil` finds them.
                // An attribute with a default is one the app always has (a Swift scalar): no nil.
                if a.optional && !unique && a.defaultValue == nil { field.nulls = Self.optionalNulls }
                out.append(field)
            }
        }
        return out
    }

    /// The attributes generated unique: each single-attribute uniqueness constraint's, and
    /// for a compound one its first member that a generator can keep unique (an integer as a
    /// sequence, a string as UUIDs, bytes, a Double), so that the constraint holds.
    static func uniqueMembers(_ e: ImportedModel.Entity) -> Set<String> {
        var out = Set<String>()
        for c in e.uniquenessConstraints {
            if c.count == 1 { out.insert(c[0]); continue }
            let can = ["Integer 16", "Integer 32", "Integer 64", "String", "URI", "UUID", "Binary", "Double", "Float", "Decimal"]
            if let m = c.first(where: { name in e.attributes.contains { $0.name == name && can.contains($0.type) } }) { out.insert(m) }
        }
        return out
    }

    /// A plausible generator from the attribute's type and name.
    func generator(_ a: ImportedModel.Attribute, unique: Bool) -> GeneratorSpec {
        let n = a.name.lowercased()
        func has(_ words: [String]) -> Bool { words.contains { n.contains($0) } }
        switch a.type {
        case "Integer 16", "Integer 32", "Integer 64":
            let limit: Int64 = a.type == "Integer 16" ? 32_767 : 1_000_000
            // A counter the app bumps (modificationCounter, version, revision) grows: a sequence,
            // not a heavy-tailed count (a social app's log sorts by it).
            if unique || n == "id" || has(["identifier", "serial", "counter", "version", "revision", "sequence"]) { return .sequence() }
            if has([
                "count", "likes", "views", "total", "number", "num", "score", "plays", "visits", "followers", "comments", "shares",
                "downloads", "votes",
            ]) {
                return .pareto(scale: 5, alpha: 1.2, max: limit)
            }
            // An enum's raw value (type, kind, status, state): a few small integers, so that a
            // request for one case (`type == 1`) finds rows.
            if Self.isEnumName(a.name) { return .uniformInt(min: 0, max: 5) }
            if has(["year"]) { return .uniformInt(min: 1950, max: 2026) }
            if has(["age"]) { return .uniformInt(min: 0, max: 99) }
            if has(["order", "index", "position", "rank", "sort"]) { return .uniformInt(min: 0, max: 999) }
            return .uniformInt(min: 0, max: 1000)
        case "Double", "Float", "Decimal":
            if has(["latitude"]) || n == "lat" { return .uniformDouble(min: -60, max: 70) }
            if has(["longitude"]) || n == "lon" || n == "lng" { return .uniformDouble(min: -180, max: 180) }
            if has(["rating", "stars"]) { return .uniformDouble(min: 0, max: 5) }
            if has(["price", "amount", "cost", "total"]) { return .uniformDouble(min: 1, max: 500) }
            return .uniformDouble(min: 0, max: 1000)
        case "String":
            if unique || Self.isIdentifierName(a.name) { return .uuid() }
            if has(["url", "uri", "link", "path"]) { return .uuid(prefix: "https://example.com/") }
            if has(["email"]) { return .uuid(prefix: "user-", suffix: "@example.com") }
            if has(["description", "body", "text", "content", "note", "summary", "comment", "message", "detail"]) {
                return .text(minLength: 40, maxLength: 400)
            }
            if has(["name", "title", "label", "caption", "subject"]) { return .text(minLength: 6, maxLength: 30) }
            return .text(minLength: 5, maxLength: 40)
        case "URI":
            return .uuid(prefix: "https://example.com/")
        case "Boolean":
            return .bool(probability: 0.5)
        case "Date":
            // The year before `today` through `today` (checked to be a day by ScenarioImporter.check).
            let end = CivilDate.midnight(day: today) ?? 0
            return .dateRange(from: CivilDate.midnight(day: Self.yearBefore(today)) ?? end, to: end + 86_400)
        case "UUID":
            return .bytes(minLength: 16, maxLength: 16)
        case "Binary" where unique:
            return .bytes(minLength: 16, maxLength: 32)
        case "Transformable":
            return .bytes(minLength: 32, maxLength: 256)
        default:  // Binary
            return a.allowsExternalBinaryDataStorage ? .bytes(minLength: 1_024, maxLength: 8_192) : .bytes(minLength: 16, maxLength: 512)
        }
    }

    /// A name like an enum's raw value: its last camel-case word is `type`, `kind`, `status`,
    /// `state`, `category`, `mode`, `role`, `priority` or `style` (`messageType`, `status`; not
    /// `modelYear` or `categoryID`).
    static func isEnumName(_ name: String) -> Bool {
        var last = ""
        for c in name {
            if c.isUppercase { last = "" }
            last.append(c)
        }
        return ["type", "kind", "status", "state", "category", "mode", "role", "priority", "style"].contains(last.lowercased())
    }

    /// A name like an identifier's (`id`, `remoteID`, `uuid`, `key`, `token`, `hash`): its
    /// strings are generated as UUIDs, unique.
    static func isIdentifierName(_ name: String) -> Bool {
        let n = name.lowercased()
        return n == "id" || name.hasSuffix("ID") || name.hasSuffix("Id")
            || ["identifier", "uuid", "key", "token", "hash", "isbn"].contains { n.contains($0) }
    }

    /// `yyyy-mm-dd` one year earlier (29 February becomes the 28th).
    static func yearBefore(_ day: String) -> String {
        let p = day.split(separator: "-").compactMap { Int($0) }
        guard p.count == 3 else { return day }
        let d = p[1] == 2 && p[2] == 29 ? 28 : p[2]
        return String(format: "%04d-%02d-%02d", p[0] - 1, p[1], d)
    }
}
