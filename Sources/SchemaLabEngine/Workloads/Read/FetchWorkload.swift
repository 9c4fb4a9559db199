import SchemaLabSQLite
import SchemaLabCoreData

/// A fetch request or a fetched-results controller, then reading ("touching") some of
/// the results: each touched object's `touchKeys` are read, which loads its batch when
/// batched and fires relationship faults when a key needs one.
///
/// Result types: managed objects (touched as above, optionally paged with
/// fetchLimit/fetchOffset, optionally reduced in Swift), object IDs, a count, or
/// dictionaries (properties, aggregates, GROUP BY, HAVING).
///
/// Timed: the fetch (and the section computation), the touching, any Swift reduction,
/// on a fresh context. Not timed: resolving key paths and rendering SQL (done once here),
/// the result signature.
package final class FetchWorkload: Workload {
    package let spec: WorkloadSpec
    let model: ManagedObjectModel
    let request: FetchRequest
    let sectionKey: ResolvedKeyPath?
    let touchKeys: [TouchKey]
    let touchPlan: TouchPlan
    /// Reduction in Swift: function and accessor per expression.
    let reductions: [(AggregateFunction, KeyPathAccessor)]
    /// With `boxes`: one request per box, run in order, each timed.
    let boxRequests: [FetchRequest]
    /// Set when the data set chooses each row's entity: results are compared by logical identity.
    var logicalIdentity: LogicalIdentity?
    /// The dictionary columns that are the fetched object's ID (`objectID` in propertiesToFetch),
    /// found once here rather than in the timed run.
    let objectIDColumns: [Int]
    /// `spec.touch`, held on its own: the timed loop reads it once per fetch (per box), and
    /// reading it through `spec` copied the whole request spec.
    let touch: TouchSpec

    /// The IDs a signature covers: as fetched, or by logical identity; sorted when `unordered`.
    func signatureIDs(_ ids: [Int64], unordered: Bool, store: Store) throws -> [Int64] {
        var out = ids
        if let logicalIdentity {
            out = try logicalIdentity.map(ids, entity: request.entity.model, model: model.model, store: store)
        }
        return unordered ? out.sorted() : out
    }

    /// `boxes`: the bounds each box appends to the predicate's arguments (the factory
    /// generates them from the data; validation passes one probe box).
    init(
        spec: WorkloadSpec, model: ManagedObjectModel, rootEntity: String,
        boxes: [[PredicateValue]] = []
    ) throws(KeyPathError) {
        self.spec = spec
        self.touch = spec.touch
        self.model = model
        objectIDColumns = spec.propertiesToFetch.indices.filter { spec.propertiesToFetch[$0] == .keyPath("objectID") }
        let name = spec.entity ?? rootEntity
        guard let entity = model.entity(name) else {
            throw KeyPathError(message: "variant \(model.model.variant) has no entity '\(name)'", at: ".entity")
        }
        let resolver = FetchSpecResolver(spec: spec, model: model.model, name: name, entity: entity)
        let sorts = try resolver.sortDescriptors()
        let prefetch = try resolver.prefetchPaths()
        let section = try spec.sectionKey.map { k throws(KeyPathError) in try resolver.keyPath(k, at: ".sectionKey") }
        sectionKey = section
        let keys = try resolver.touchKeys()
        touchKeys = keys
        touchPlan = TouchPlan(keys)
        reductions = try resolver.reductions()
        let dictionary = try resolver.dictionaryShape()
        let parts = FetchSpecResolver.RequestParts(
            sorts: sorts, prefetch: prefetch, section: section, dictionary: dictionary, partial: try resolver.partialProperties())
        guard spec.boxes != nil, let base = spec.predicate else {
            request = try resolver.request(spec.predicate, parts)
            boxRequests = []
            return
        }
        let requests = try resolver.boxRequests(base, boxes: boxes, parts)
        guard let first = requests.first else { preconditionFailure("a box set has at least one box") }
        request = first
        boxRequests = requests
    }

    package var floorStatements: [(sql: String, bindings: [SQLValue])] {
        let q: FetchRequestSQL.Query?
        switch spec.resultType {
        case .objects: q = nil
        case .objectIDs: q = request.sql.ids
        case .count: q = request.sql.count
        case .dictionaries: q = request.sql.dictionaries
        }
        return q.map { [($0.sql, $0.bindings)] } ?? []
    }

    package func run(store: Store) throws -> WorkloadOutcome {
        let context = ManagedObjectContext(store: store, objectModel: model)
        switch spec.resultType {
        case .objectIDs:
            let ids = try context.executeIDs(request)
            let unordered = spec.sort.isEmpty
            return WorkloadOutcome(rows: ids.count, valuesRead: 0) {
                Self.signature(ids: try self.signatureIDs(ids, unordered: unordered, store: store), sections: [])
            }
        case .count:
            let n = try context.executeCount(request)
            return WorkloadOutcome(rows: 1, valuesRead: 0) { ResultSignature.of(rows: [[.integer(Int64(n))]]) }
        case .dictionaries:
            let result = try context.executeDictionaries(request)
            // Without a sort the rows' order is SQLite's choice: variants compare them as a multiset.
            let unordered = spec.sort.isEmpty
            // The fetched objects' IDs (`objectID`) are compared by logical identity when the data
            // set chooses each row's entity: a hierarchy and separate tables number them apart.
            let identity = logicalIdentity, entity = request.entity.model, resolved = model.model, idColumns = objectIDColumns
            return WorkloadOutcome(rows: result.count, valuesRead: 0) {
                var rows = result.rows
                if let identity {
                    for c in idColumns {
                        let mapped = try identity.map(rows.map { $0[c].integerValue ?? 0 }, entity: entity, model: resolved, store: store)
                        for r in rows.indices { rows[r][c] = .integer(mapped[r]) }
                    }
                }
                return unordered ? ResultSignature.of(unorderedRows: rows) : ResultSignature.of(rows: rows)
            }
        case .objects:
            if !boxRequests.isEmpty { return try runBoxes(store) }
            if spec.pageSize > 0 { return try runPaged(context) }
            return try runObjects(context)
        }
    }

    /// One fetch per box, each on a fresh context and timed on its own (fetch and touch);
    /// the signature covers every box's result, in order.
    private func runBoxes(_ store: Store) throws -> WorkloadOutcome {
        var perBox: [[Int64]] = []
        perBox.reserveCapacity(boxRequests.count)
        var reads: [(ms: Double, writerActive: Bool, rows: Int)] = []
        reads.reserveCapacity(boxRequests.count)
        var rows = 0, nonNull = 0
        for request in boxRequests {
            let context = ManagedObjectContext(store: store, objectModel: model)
            let t0 = Clock.wallNanoseconds()
            let (results, _, touched) = try fetchAndTouch(context, request)
            let ms = Double(Clock.wallNanoseconds() - t0) / 1e6
            reads.append((ms, false, results.count))
            rows += results.count
            nonNull += touched
            perBox.append(results.ids)
        }
        let unordered = spec.sort.isEmpty
        var result = WorkloadOutcome(rows: rows, valuesRead: nonNull) {
            // Without a sort the order is the plan's: a box's result is compared as a set. A
            // box boundary is in the signature, so that rows moving between boxes show.
            let ids = try perBox.flatMap { try self.signatureIDs($0, unordered: unordered, store: store) }
            let sections = perBox.enumerated().map { ResultsSection(value: .integer(Int64($0.offset)), count: $0.element.count) }
            return Self.signature(ids: ids, sections: sections)
        }
        result.reads = reads
        return result
    }

    private func runObjects(_ context: ManagedObjectContext) throws -> WorkloadOutcome {
        let (results, sections, nonNull) = try fetchAndTouch(context, request)
        if !reductions.isEmpty {
            let row = try reduce(try results.allObjects(), context)
            return WorkloadOutcome(rows: results.count, valuesRead: nonNull, keepAlive: results) { ResultSignature.of(rows: [row]) }
        }
        let ids = results.ids
        // Without a sort the order is the plan's (an index changes it): compared as a set.
        let unordered = spec.sort.isEmpty
        return WorkloadOutcome(rows: results.count, valuesRead: nonNull, keepAlive: results) {
            var signature = Self.signature(ids: try self.signatureIDs(ids, unordered: unordered, store: context.store), sections: sections)
            if let values = try self.touchedValuesDigest(results, context) {
                signature = ResultSignature(digest: signature.digest + values)
            }
            return signature
        }
    }

    /// With explicit `touchKeys`: a digest of the attribute values the touch step read (after
    /// the clock), so that variants storing a value differently (a blob inline, in another
    /// entity, in a file) are checked on the values too, not only on which objects came back.
    /// The default keys (each variant's own attributes) differ between variants: nil.
    private func touchedValuesDigest(_ results: FetchedObjects, _ context: ManagedObjectContext) throws -> String? {
        guard spec.touchKeys != nil else { return nil }
        let accessors = touchKeys.compactMap { if case .value(let a) = $0 { return a } else { return nil } }
        guard !accessors.isEmpty else { return nil }
        var n = results.count
        switch spec.touch {
        case .none: return nil
        case .first(let k): n = min(k, n)
        case .all, .array: break
        }
        var order = Array(0..<n)
        if spec.sort.isEmpty { order.sort { results.ids[$0] < results.ids[$1] } }
        var d = ResultDigest()
        for i in order {
            let o = try results.object(at: i)
            for a in accessors { d.add(ResultSignature.rounded(try context.value(of: o, at: a))) }
        }
        return "-" + d.hex
    }

    /// The fetch (or the controller's) and the touching of its objects.
    private func fetchAndTouch(
        _ context: ManagedObjectContext,
        _ request: FetchRequest
    ) throws -> (FetchedObjects, [ResultsSection], Int) {
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
        var nonNull = 0
        switch touch {
        case .none: break
        case .array:
            for o in try results.allObjects() {
                nonNull += try context.touch(touchPlan, on: o)
            }
        case .all, .first:
            var n = results.count
            if case .first(let k) = touch { n = min(k, n) }
            for i in 0..<n {
                let o = try results.object(at: i)
                nonNull += try context.touch(touchPlan, on: o)
            }
        }
        return (results, sections, nonNull)
    }

    /// Successive pages of `pageSize` objects with fetchLimit/fetchOffset, each page's
    /// objects touched, until a short page.
    private func runPaged(_ context: ManagedObjectContext) throws -> WorkloadOutcome {
        var ids: [Int64] = []
        var nonNull = 0
        var offset = 0
        let limitTouched: Int
        if case .first(let k) = spec.touch { limitTouched = k } else { limitTouched = spec.touch == .none ? 0 : Int.max }
        while true {
            let page = try context.executePage(request, query: request.sql.page(limit: spec.pageSize, offset: offset))
            for o in page {
                if ids.count < limitTouched { nonNull += try context.touch(touchPlan, on: o) }
                ids.append(o.objectID)
            }
            if page.count < spec.pageSize || ids.count >= limitTouched { break }
            offset += spec.pageSize
        }
        let unordered = spec.sort.isEmpty
        return WorkloadOutcome(rows: ids.count, valuesRead: nonNull, keepAlive: context) {
            Self.signature(ids: try self.signatureIDs(ids, unordered: unordered, store: context.store), sections: [])
        }
    }

    /// The Swift reduction: SQL's semantics (NULLs skipped; avg of nothing is NULL; sum is
    /// `total()`, a real, 0.0 of nothing; count counts non-NULL values).
    private func reduce(_ objects: [ManagedObject], _ context: ManagedObjectContext) throws -> [SQLValue] {
        var out: [SQLValue] = []
        for (f, accessor) in reductions {
            var minV: SQLValue? = nil, maxV: SQLValue? = nil
            var sum = 0.0, n = 0
            for o in objects {
                let v = try context.value(of: o, at: accessor)
                guard let d = v.doubleValue else { continue }
                n += 1
                sum += d
                if minV == nil || d < minV!.doubleValue! { minV = v }
                if maxV == nil || d > maxV!.doubleValue! { maxV = v }
            }
            switch f {
            case .min: out.append(minV ?? .null)
            case .max: out.append(maxV ?? .null)
            case .avg: out.append(n == 0 ? .null : .real(sum / Double(n)))
            case .sum: out.append(.real(sum))
            case .count: out.append(.integer(Int64(n)))
            }
        }
        return out
    }

    static func signature(ids: [Int64], sections: [ResultsSection]) -> ResultSignature {
        var d = ResultDigest()
        for id in ids { d.add(UInt64(bitPattern: id)) }
        for s in sections { d.add(s.value); d.add(UInt64(s.count)) }
        return ResultSignature(digest: d.hex)
    }
}
