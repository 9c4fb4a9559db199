import SchemaLabSQLite
import SchemaLabCoreData

/// The checks `ScenarioPlan` makes of one variant, one step each, in order: the data set
/// has a place in the variant, and every workload builds in it. A step throws a
/// ``ScenarioError`` naming the JSON path of what the variant cannot do.
struct VariantCheck {
    let scenario: Scenario
    let spec: VariantSpec
    let model: ResolvedModel
    /// The variant's run-time model, which placements and workloads are built on.
    let objectModel: ManagedObjectModel

    /// The checks of `spec`, resolved as `model`.
    init(scenario: Scenario, spec: VariantSpec, model: ResolvedModel) {
        self.scenario = scenario
        self.spec = spec
        self.model = model
        self.objectModel = ManagedObjectModel(model)
    }

    private var dataset: DatasetSpec { scenario.dataset }

    /// A ``ScenarioError`` in the scenario's file at `path`.
    private func fail(_ path: String, _ message: String) -> ScenarioError {
        ScenarioError(file: scenario.file, path: path, message: message)
    }

    /// True when `workload` runs in this variant (it names no variants, or this one).
    private func runsHere(_ workload: WorkloadSpec) -> Bool {
        workload.variants?.contains(spec.name) ?? true
    }

    /// Runs every check of the variant, in order; throws at the first problem.
    func run() throws {
        try checkDatasetEntity()
        try checkFieldsHaveAPlace()
        let placement = try ScenarioPlan.placement(dataset, model: objectModel, file: scenario.file)
        try checkRequiredAttributes(placement)
        try checkNoFieldFillsKeptAttributes(placement)
        for w in scenario.workloads where w.kind.writesValuesOutsideContext && runsHere(w) {
            try checkWritesOutsideContext(w)
        }
        for w in scenario.workloads where w.kind.fetches && runsHere(w) { try checkNoExternalStorageInFetch(w) }
        try buildWriteWorkloads(placement)
        for w in scenario.workloads where w.kind.readsOnly && runsHere(w) { try checkReadWorkload(w) }
        try checkStatements()
    }

    /// The data set's entity is in the variant.
    private func checkDatasetEntity() throws {
        guard model.entity(dataset.entity) != nil else {
            throw fail(dataset.path + ".entity", "variant \(spec.name) has no entity '\(dataset.entity)'")
        }
    }

    /// Every non-optional field names an attribute the root entity reaches (unless an entity
    /// field chooses each row's entity: the placement checks those).
    private func checkFieldsHaveAPlace() throws {
        let chosen = dataset.fields.contains { $0.names == [DataPlacement.entityField] }
        for f in dataset.fields where !f.optional && !chosen {
            for name in f.names where !name.contains(".") && model.reachableAttributes(named: name, from: dataset.entity).isEmpty {
                throw fail(
                    f.path,
                    "in variant \(spec.name), field '\(name)' has nowhere to go: no attribute '\(name)' on \(dataset.entity) or an entity its to-one relationships reach"
                )
            }
        }
    }

    /// A non-optional attribute no field fills would fail every save's validation: checked
    /// for the root placement (each chosen entity's, with an entity field) and its related ones.
    private func checkRequiredAttributes(_ rootPlacement: DataPlacement) throws {
        let path = dataset.path + ".fields"
        if rootPlacement.choices == nil { try checkRequiredAttributes(rootPlacement, dataset.fields, dataset.related, [], path: path) }
        // In the entities' order by name, so that the first problem reported is always the same one.
        for p in rootPlacement.choices?.byName.sorted(by: { $0.key < $1.key }).map(\.value) ?? [] {
            try checkRequiredAttributes(p, dataset.fields, dataset.related, [], path: path)
        }
    }

    /// The names of `fields` that can be nil: a field with `nulls`, and one derived from such a
    /// field (`derived` of one at its level, `parentField` of one in `parentNullable`).
    static func nullableNames(_ fields: [FieldSpec], parent parentNullable: Set<String>) -> Set<String> {
        var out = Set(fields.filter { $0.nulls > 0 }.flatMap(\.names))
        var changed = true
        while changed {
            changed = false
            for f in fields where out.isDisjoint(with: f.names) {
                switch f.generator {
                case .derived(let from, _) where out.contains(from), .parentField(let from) where parentNullable.contains(from):
                    out.formUnion(f.names)
                    changed = true
                default: break
                }
            }
        }
        return out
    }

    /// The required attributes of one placement (whose data columns are `fields`' names) and,
    /// recursively, of its related entries: each filled, by a field that leaves no row nil.
    private func checkRequiredAttributes(
        _ p: DataPlacement, _ fields: [FieldSpec], _ specs: [RelatedSpec], _ parentNullable: Set<String>, path: String
    ) throws {
        let columns = fields.flatMap { field in field.names.map { _ in field } }
        let nullable = Self.nullableNames(fields, parent: parentNullable)
        for node in p.nodes {
            for a in node.entity.requiredAttributes {
                let name = "\(node.entity.name).\(node.entity.model.attributes[a].name)"
                guard let source = node.sources[a] else {
                    throw fail(
                        path,
                        "in variant \(spec.name), \(name) is not optional, but no field fills it (every save of the data set would fail validation)"
                    )
                }
                if source < columns.count, !nullable.isDisjoint(with: columns[source].names) {
                    let field = columns[source]
                    throw fail(
                        field.nulls > 0 ? field.path + ".nulls" : field.path + ".generator",
                        "in variant \(spec.name), \(name) is not optional: a field that leaves rows nil (its nulls, or a field it derives from has nulls) cannot fill it (every such save would fail validation)"
                    )
                }
            }
        }
        for r in p.related {
            let entry = specs[r.dataIndex]
            try checkRequiredAttributes(
                r.placement, entry.pool?.fields ?? entry.fields, entry.related, entry.pool == nil ? nullable : [],
                path: entry.path + ".fields")
        }
    }

    /// No field fills a derived attribute (the store's triggers set it) or a canonical search
    /// attribute (the context keeps it when it saves).
    private func checkNoFieldFillsKeptAttributes(_ rootPlacement: DataPlacement) throws {
        let roots = rootPlacement.choices.map { $0.byName.keys.sorted() } ?? [dataset.entity]
        for f in dataset.fields {
            for name in f.names {
                for a in roots.flatMap({ model.reachableAttributes(named: name, from: $0) }).map(\.attribute)
                where a.derivation != nil && !f.optional {
                    throw fail(
                        f.path,
                        "in variant \(spec.name), '\(name)' is a derived attribute ('\(a.derivationText ?? "")'): the store's triggers set it, no field fills it"
                    )
                }
                for a in roots.flatMap({ model.reachableAttributes(named: name, from: $0) }).map(\.attribute) where a.canonicalOf != nil {
                    throw fail(
                        f.path,
                        "in variant \(spec.name), '\(name)' is a canonical search attribute (canonicalOf '\(a.canonicalOf!)'): the context sets it when it saves, no field fills it"
                    )
                }
            }
        }
    }

    /// A batch request bypasses the context: it writes no canonical search attribute or its
    /// source, and no externally stored attribute (it would write the bytes inline).
    private func checkWritesOutsideContext(_ w: WorkloadSpec) throws {
        let entity = objectModel.entity(w.entity ?? dataset.entity)
        let canonical = entity?.model.attributes.filter { $0.canonicalOf != nil } ?? []
        let sources = Set(canonical.flatMap { [$0.name, $0.canonicalOf!] })
        if w.kind == .batchInsert, let a = canonical.first {
            throw fail(
                w.path + ".kind",
                "in variant \(spec.name), \(entity!.name).\(a.name) is kept by the context when it saves (canonicalOf); a batch insert bypasses the context and would leave it empty"
            )
        }
        if let hit = w.set.first(where: { sources.contains($0.attribute) }) {
            throw fail(
                w.path + ".set." + hit.attribute,
                "in variant \(spec.name), a batch update bypasses the context, which keeps \(entity!.name)'s canonical search attribute in step with '\(hit.attribute)'"
            )
        }
        let external = Set(entity?.model.attributes.filter(\.allowsExternalStorage).map(\.name) ?? [])
        if w.kind == .batchInsert, let name = external.sorted().first {
            throw fail(
                w.path + ".kind",
                "in variant \(spec.name), \(entity!.name).\(name) uses external storage, which the context writes when it saves; a batch insert would store the bytes inline"
            )
        }
        if let hit = w.set.first(where: { external.contains($0.attribute) }) {
            throw fail(
                w.path + ".set." + hit.attribute,
                "in variant \(spec.name), \(entity!.name).\(hit.attribute) uses external storage, which a batch update would bypass"
            )
        }
    }

    /// Dictionaries and sorts read the column itself, which holds a reference for an
    /// externally stored value: a fetch neither sorts, returns nor groups by one.
    private func checkNoExternalStorageInFetch(_ w: WorkloadSpec) throws {
        let entity = w.entity ?? dataset.entity
        func check(_ keyPath: String, _ path: String) throws {
            guard let r = try? model.resolve(keyPath: keyPath, from: entity), r.attribute.allowsExternalStorage else { return }
            throw fail(
                path,
                "in variant \(spec.name), '\(keyPath)' uses external storage: a fetch cannot sort by it or return it in a dictionary (touch it on objects)"
            )
        }
        for (i, s) in w.sort.enumerated() { try check(s.keyPath, w.path + ".sort[\(i)]") }
        for (i, p) in w.propertiesToFetch.enumerated() {
            switch p {
            case .keyPath(let k): try check(k, w.path + ".propertiesToFetch[\(i)]")
            case .expression(_, _, let k): try check(k, w.path + ".propertiesToFetch[\(i)].key")
            }
        }
        for (i, g) in w.groupBy.enumerated() { try check(g, w.path + ".groupBy[\(i)]") }
    }

    /// Builds each write workload on a three-row sample, so that what it cannot do in this
    /// variant is reported now.
    private func buildWriteWorkloads(_ placement: DataPlacement) throws {
        let sample = GeneratedData(spec: Self.leanSample(of: dataset), count: 3)
        for var w in scenario.workloads where !w.kind.readsOnly && runsHere(w) {
            if w.kind.takesCount { w.count = min(w.count, 3) }
            do {
                _ = try WorkloadFactory.make(
                    w, model: objectModel, dataset: dataset, data: sample, placement: placement, pragmas: scenario.pragmas)
            } catch {
                throw fail(w.path + (error.at ?? ""), error.message)
            }
        }
    }

    /// The data set without its related entries, for the write workloads' sample: a pool of
    /// millions would be generated whole, and no write workload reads the related data when
    /// it is built. Its byte values are short: a workload is built from the data's shape, and
    /// three values of a 100 MB `bytes` field took the fuzz test's validation past 20 s.
    static func leanSample(of dataset: DatasetSpec) -> DatasetSpec {
        var lean = dataset
        lean.related = []
        lean.fields = dataset.fields.map { f in
            var g = f
            switch f.generator {
            case .countOf: g.generator = .constant(.integer(0))  // its relationship is left out too
            case .joinedOf: g.generator = .constant(.text(""))
            case .bytes(let low, let high): g.generator = .bytes(minLength: min(low, 16), maxLength: min(high, 16))
            default: break
            }
            return g
        }
        return lean
    }

    /// Each sql workload's statement, prepared against the variant's schema (an empty store of
    /// it, in memory): SQLite's word on the tables and columns it names; it takes as many
    /// values as `arguments` gives, and it writes or not as its text says (a query runs on
    /// the filled store every case shares, so it must not write).
    private func checkStatements() throws {
        let statements = scenario.workloads.filter { $0.kind == .sql && runsHere($0) }
        guard !statements.isEmpty else { return }
        let store = try Store.create(path: ":memory:", model: model)
        for w in statements {
            let prepared: Statement
            do {
                prepared = try store.db.statement(w.sql ?? "")
            } catch let error as SQLiteError {
                throw fail(w.path + ".sql", "in variant \(spec.name), the statement does not prepare: \(error.message)")
            }
            let parameters = Int(prepared.parameterCount), given = w.sqlArguments.count
            if parameters != given {
                throw fail(
                    w.path + (given == 0 ? ".sql" : ".arguments"),
                    "the statement takes \(parameters) parameter\(parameters == 1 ? "" : "s") and 'arguments' gives \(given) value\(given == 1 ? "" : "s")"
                )
            }
            if prepared.readsOnly != w.readsOnly {
                throw fail(
                    w.path + ".sql",
                    "in variant \(spec.name), SQLite says the statement \(prepared.readsOnly ? "writes nothing" : "writes"), but it reads as \(w.readsOnly ? "a query" : "a write")"
                )
            }
        }
    }

    /// A read workload's entity, key paths and boxes resolve in this variant, and it builds.
    private func checkReadWorkload(_ w: WorkloadSpec) throws {
        let entity = w.entity ?? dataset.entity
        guard objectModel.entity(entity) != nil else { throw fail(w.path + ".entity", "variant \(spec.name) has no entity '\(entity)'") }
        func check(_ keyPath: String, _ path: String, sort: Bool = false) throws {
            do {
                _ = try sort ? model.resolve(sortKey: keyPath, from: entity) : model.resolve(keyPath: keyPath, from: entity)
            } catch {
                throw fail(path, "key path '\(keyPath)' does not resolve: \(error.message); every workload must run in every variant")
            }
        }
        for (i, s) in w.sort.enumerated() { try check(s.keyPath, w.path + ".sort[\(i)]", sort: true) }
        if let k = w.sectionKey { try check(k, w.path + ".sectionKey") }
        if let b = w.boxes { try checkBoxKeys(b) }
        do {
            // A box set is checked with one probe box; the real boxes come from the data.
            let probe: [[PredicateValue]] = w.boxes == nil ? [] : [[.real(0), .real(1), .real(0), .real(1)]]
            _ = try FetchWorkload(spec: w, model: objectModel, rootEntity: dataset.entity, boxes: probe)
        } catch {
            throw fail(w.path + (error.at ?? ""), error.message)
        }
    }

    /// A box set's keys are numeric fields of the data set (boxes are sized on its values).
    private func checkBoxKeys(_ b: BoxSetSpec) throws {
        let fields = dataset.fields.flatMap(\.names)
        let kinds = ScenarioPlan.valueKinds(dataset)
        for (i, k) in b.keys.enumerated() {
            guard fields.contains(k) else {
                throw fail(b.path + ".keys[\(i)]", "'\(k)' is not a field of the data set (boxes are sized on the data set's values)")
            }
            guard kinds[k, default: []].isSubset(of: [.integer, .real, .null]) else {
                throw fail(b.path + ".keys[\(i)]", "'\(k)' is not a number (a box bounds numeric fields, such as a latitude)")
            }
        }
    }
}
