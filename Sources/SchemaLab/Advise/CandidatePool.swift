import SchemaLabCoreData
import SchemaLabEngine

/// The indexes the advisor tries, gathered from the requests of a scenario's workloads (not
/// from their SQL alone): each fetch's equality terms, one range term, its sort keys with
/// their directions (a sectioned controller's section key first), the to-one keys its
/// prefetches look up, and what SQLite's `.expert` suggests for its statements; then merged
/// across fetches (AutoAdmin's index merging), with the starting variant's own indexes as
/// candidates for removal.
package struct CandidatePool: Sendable {
    /// The starting variant's resolved model.
    package let model: ResolvedModel
    /// The most elements a candidate has (three by default).
    package let maxElements: Int
    /// The candidates in the order they were found, without duplicates.
    package private(set) var candidates: [IndexCandidate] = []

    /// An empty pool over `model`.
    package init(model: ResolvedModel, maxElements: Int = 3) {
        self.model = model
        self.maxElements = max(1, maxElements)
    }

    /// Adds the candidates of every workload of `scenario` that reads by a request.
    package mutating func gather(from scenario: Scenario) {
        for workload in scenario.workloads {
            guard let entity = model.entity(workload.entity ?? scenario.dataset.entity) else { continue }
            gather(from: workload, entity: entity)
        }
    }

    /// Adds the candidates of one workload's request.
    package mutating func gather(from workload: WorkloadSpec, entity: EntityModel) {
        let origin = workload.name
        let terms = RequestTerms(workload: workload, entity: entity, model: model)
        let equality = Array(terms.equality.prefix(maxElements))
        if !equality.isEmpty { add(entity, equality, "equality terms of \(origin)") }
        if let range = terms.range {
            if equality.count < maxElements && !equality.isEmpty {
                add(entity, equality + [range], "equality and range terms of \(origin)")
            }
            add(entity, [range], "range term of \(origin)")
        }
        if !terms.sort.isEmpty {
            let sort = terms.sort.filter { key in !equality.contains { $0.key == key.key } }
            if !equality.isEmpty && equality.count < maxElements && !sort.isEmpty {
                add(entity, equality + sort.prefix(maxElements - equality.count), "equality terms and sort of \(origin)")
            }
            add(
                entity, Array(terms.sort.prefix(maxElements)),
                (workload.sectionKey == nil ? "sort of " : "section key and sort of ") + origin)
            if terms.sort.count > 1 { add(entity, [terms.sort[0]], "first sort key of \(origin)") }
        }
        for (destination, key) in terms.prefetchLookups {
            add(destination, [IndexElementSpec(key: key)], "prefetch of \(origin)")
        }
    }

    /// Adds what `.expert` suggested for a statement of `workload`.
    package mutating func add(advised: AdvisedIndex, workload: String) {
        guard let entity = model.entity(advised.entity) else { return }
        add(
            entity, advised.elements.prefix(maxElements).map { IndexElementSpec(key: $0.attribute, descending: $0.descending) },
            "SQLite's expert on \(workload)")
    }

    /// Merges candidates of one table that share their leading column without one being a
    /// prefix of the other: the first one's columns, then the other's that it lacks, up to
    /// ``maxElements``.
    package mutating func merge() {
        let adds = candidates.filter { !$0.isDrop }
        for (i, first) in adds.enumerated() {
            for second in adds[(i + 1)...] where first.table == second.table && first.columns.first == second.columns.first {
                guard !first.extends(second), !second.extends(first), first.columns != second.columns else { continue }
                let extra = second.elements.filter { element in !first.elements.contains { $0.key == element.key } }
                guard let entity = model.entity(first.entity), !extra.isEmpty else { continue }
                add(
                    entity, Array((first.elements + extra).prefix(maxElements)),
                    "merged from \(first.description) and \(second.description)")
            }
        }
    }

    /// Adds the starting variant's plain indexes (not unique, not R-tree) as candidates for removal.
    package mutating func addExistingForRemoval() {
        var seen: Set<String> = []
        for entity in model.entities {
            for index in entity.indexes where index.kind == .binary && !index.unique && seen.insert(index.sqlName).inserted {
                candidates.append(
                    IndexCandidate(
                        entity: entity.name,
                        elements: index.elements.map { IndexElementSpec(key: $0.name, descending: $0.descending) },
                        table: entity.table, columns: index.elements.map(\.column), dropName: index.name, origins: ["existing"]))
            }
        }
    }

    /// The starting variant's indexes on `table`, as column lists.
    package func existingColumns(on table: String) -> [[String]] {
        var out: [[String]] = []
        for entity in model.entities where entity.table == table {
            for index in entity.indexes where index.kind == .binary {
                let columns = index.elements.map(\.column)
                if !out.contains(columns) { out.append(columns) }
            }
        }
        return out
    }

    private mutating func add(_ entity: EntityModel, _ elements: [IndexElementSpec], _ origin: String) {
        guard !elements.isEmpty else { return }
        var seenKeys: Set<String> = []
        guard elements.allSatisfy({ seenKeys.insert($0.key).inserted }) else { return }
        guard let declaring = declaringEntity(for: elements.map(\.key), from: entity) else { return }
        let columns = elements.compactMap { Self.column(of: $0.key, in: declaring) }
        guard columns.count == elements.count else { return }
        let candidate = IndexCandidate(
            entity: declaring.name, elements: elements, table: declaring.table, columns: columns, dropName: nil, origins: [origin])
        // An index the variant has already, or a prefix of one with the same columns, adds nothing.
        if existingColumns(on: candidate.table).contains(where: { Array($0.prefix(columns.count)) == columns }) { return }
        if let same = candidates.firstIndex(where: { $0.identity == candidate.identity }) {
            if !candidates[same].origins.contains(origin) { candidates[same].origins.append(origin) }
        } else {
            candidates.append(candidate)
        }
    }

    /// The highest entity of `entity`'s hierarchy that has every key: Core Data builds the
    /// index on the hierarchy's one table either way, and the parent declares it for all.
    private func declaringEntity(for keys: [String], from entity: EntityModel) -> EntityModel? {
        guard keys.allSatisfy({ Self.column(of: $0, in: entity) != nil }) else { return nil }
        var current = entity
        while let parentName = current.parent, let parent = model.entity(parentName),
            keys.allSatisfy({ Self.column(of: $0, in: parent) != nil })
        {
            current = parent
        }
        return current
    }

    /// The column of `key` in `entity`: a stored attribute's, or a to-one relationship's foreign key.
    package static func column(of key: String, in entity: EntityModel) -> String? {
        if let attribute = entity.attribute(key) { return attribute.column }
        return entity.relationship(key)?.foreignKeyColumn
    }
}
