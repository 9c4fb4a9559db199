/// A fetch request or a fetched-results controller, then reading ("touching")
/// some of the results: each touched object's `touchKeys` are read, which loads
/// its batch when batched and fires relationship faults when a key needs one.
///
/// Timed: the fetch (and the section computation) and the touching, on a fresh
/// context. Not timed: resolving key paths, the result digest.
public final class FetchWorkload: Workload {
    public let spec: WorkloadSpec
    let model: ManagedObjectModel
    let request: FetchRequest
    let sectionKey: ResolvedKeyPath?
    let touchKeys: [KeyPathAccessor]
    public var needsEmptyStore: Bool { false }

    init(spec: WorkloadSpec, model: ManagedObjectModel, rootEntity: String) throws(KeyPathError) {
        self.spec = spec
        self.model = model
        let variant = model.model.variant
        let name = spec.entity ?? rootEntity
        guard let entity = model.entity(name) else { throw KeyPathError(message: "variant \(variant) has no entity '\(name)'") }
        let om = model.model
        var sorts: [(ResolvedKeyPath, Bool)] = []
        for s in spec.sort { sorts.append((try om.resolve(keyPath: s.keyPath, from: name), s.ascending)) }
        var prefetch: [[RelationshipModel]] = []
        for p in spec.prefetch {
            var e = entity.model
            var path: [RelationshipModel] = []
            for part in p.split(separator: ".").map(String.init) {
                guard let r = e.relationship(part), r.foreignKeyColumn != nil else {
                    throw KeyPathError(message: "in variant \(variant), '\(p)' is not a path of to-one relationships from \(name)")
                }
                path.append(r)
                e = om.entity(r.destination)!
            }
            prefetch.append(path)
        }
        request = FetchRequest(entity: entity, sortDescriptors: sorts, batchSize: spec.batchSize, prefetch: prefetch)
        sectionKey = try spec.sectionKey.map { k throws(KeyPathError) in try om.resolve(keyPath: k, from: name) }
        var keys: [KeyPathAccessor] = []
        if let explicit = spec.touchKeys {
            for k in explicit { keys.append(KeyPathAccessor(try om.resolve(keyPath: k, from: name), from: entity)) }
        } else {
            keys = entity.model.attributes.map {
                KeyPathAccessor(ResolvedKeyPath(text: $0.name, relationships: [], owner: name, attribute: $0), from: entity)
            }
        }
        touchKeys = keys
    }

    public func run(store: Store) throws -> WorkloadOutcome {
        let context = ManagedObjectContext(store: store, objectModel: model)
        let results: FetchedObjects
        var sections: [ResultsSection] = []
        if let sectionKey {
            let frc = FetchedResultsController(context: context, request: request, sectionKey: sectionKey)
            try frc.performFetch()
            results = frc.fetchedObjects!
            sections = frc.sections
        } else {
            results = try context.execute(request)
        }
        let n: Int
        switch spec.touch {
        case .none: n = 0
        case .all: n = results.count
        case .first(let k): n = min(k, results.count)
        }
        var nonNull = 0
        for i in 0..<n {
            let o = try results.object(at: i)
            for k in touchKeys {
                if case .null = try context.value(of: o, at: k) {} else { nonNull += 1 }
            }
        }
        return WorkloadOutcome(rows: results.count, valuesRead: nonNull) {
            var d = ResultDigest()
            for id in results.ids { d.add(UInt64(bitPattern: id)) }
            for s in sections { d.add(s.value); d.add(UInt64(s.count)) }
            return d.hex
        }
    }
}
