import Foundation
import SchemaLabCoreData

extension ScenarioDecoder {
    /// A workload: its keys checked against its kind, decoded, then the combinations checked.
    static func decodeWorkload(_ n: JSONNode) throws -> WorkloadSpec {
        let o = try n.object(allowed: ScenarioKeys.workload)
        let kind = WorkloadKind(rawValue: try o.required("kind").choice(WorkloadKind.allCases.map(\.rawValue)))!
        let sort = try decodeSorts(o)
        let section = try decodeSectionKey(o, kind: kind, sort: sort, at: n)
        try checkKeys(of: kind, o, at: n)
        let touch = try decodeTouch(o)
        let name = try o.required("name").label()
        let entity = try o.optional("entity")?.identifier()
        let batchSize = try o.optional("batchSize")?.int(in: 0...1_000_000) ?? 0
        let touchKeys = try o.optional("touchKeys")?.array().map(keyPath)
        let prefetch = try o.optional("prefetch")?.array().map(keyPath) ?? []
        var spec = WorkloadSpec(
            name: name, kind: kind, entity: entity, sort: sort, sectionKey: section, batchSize: batchSize, prefetch: prefetch,
            touch: touch, touchKeys: touchKeys, path: n.path)
        try decodeFetchRequest(into: &spec, o)
        try decodeWriteOptions(into: &spec, o, at: n)
        try decodeUsage(into: &spec, o)
        if let x = o.optional("set") { try decodeSet(x, into: &spec) }
        if let d = o.optional("deliver") { spec.deliver = try decodeDelivery(d) }
        if let h = o.optional("history") { spec.history = try decodeHistoryRequest(h, kind: kind) }
        if kind.writesHistoryFirst, !o.has("set") {
            throw n.error("\(kind.phrase) needs 'set' (what each transaction written before the clock changes)")
        }
        if kind.writeKeys != nil {
            if [.batchUpdate, .update, .batchDelete, .delete].contains(kind), o.has("arguments"), !o.has("predicate") {
                throw try o.required("arguments").error("'arguments' needs 'predicate'")
            }
            if kind == .readerUnderWriter { try checkReader(spec, o) }
            if kind == .sql { try decodeSQL(into: &spec, o, at: n) }
            return spec
        }
        try checkShape(spec, o)
        // What the checks above allow is the kind's table (``ScenarioKeys/workload(_:)``): this
        // refuses a key the table leaves out that no rule above names.
        if let k = ScenarioKeys.workload.first(where: { o.has($0) && !ScenarioKeys.workload(kind).contains($0) }) {
            throw try o.required(k).error("\(kind.phrase) takes no '\(k)'")
        }
        return spec
    }

    /// `sort`: key paths (ascending) or `{"key", "ascending", "comparator"}` objects.
    private static func decodeSorts(_ o: JSONObject) throws -> [SortSpec] {
        try o.optional("sort")?.array().map { s -> SortSpec in
            if case .string = s.value { return SortSpec(keyPath: try keyPath(s), ascending: true) }
            let so = try s.object(allowed: ScenarioKeys.sort)
            var sort = SortSpec(keyPath: try keyPath(so.required("key")), ascending: try so.optional("ascending")?.bool() ?? true)
            if let c = so.optional("comparator") {
                sort.comparator = SortComparator(rawValue: try c.choice(SortComparator.allCases.map(\.rawValue)))!
            }
            return sort
        } ?? []
    }

    /// `sectionKey`: a fetchedResults workload's, equal to its first sort key (which it must have).
    private static func decodeSectionKey(_ o: JSONObject, kind: WorkloadKind, sort: [SortSpec], at n: JSONNode) throws -> String? {
        let section = try o.optional("sectionKey").map(keyPath)
        if kind == .fetchedResults {
            // Without 'sectionKey' the controller has one section (sectionNameKeyPath nil): its fetch only.
            guard let first = sort.first else {
                throw n.error(
                    "a fetchedResults workload needs 'sort' (NSFetchedResultsController requires sort descriptors; the first orders the sections)"
                )
            }
            if let section, first.keyPath != section {
                throw try o.required("sort").error(
                    "the first sort key must be the section key '\(section)', as NSFetchedResultsController requires")
            }
        } else if let s = o.optional("sectionKey") {
            throw s.error("'sectionKey' belongs to a fetchedResults workload")
        }
        return section
    }

    /// The keys a kind takes and needs: a write kind only its own, a fetch kind none of the writes'.
    private static func checkKeys(of kind: WorkloadKind, _ o: JSONObject, at n: JSONNode) throws {
        if let allowed = kind.writeKeys {
            for k in ScenarioKeys.workload where !ScenarioKeys.workload(kind).contains(k) && o.has(k) {
                throw try o.required(k).error("\(kind.phrase) takes no '\(k)' (it takes \(allowed.joined(separator: ", ")))")
            }
        } else {
            for k in ScenarioKeys.writeOnly where o.has(k) {
                let owners = WorkloadKind.allCases.filter { $0.writeKeys?.contains(k) ?? false }.map { $0.phrase }
                throw try o.required(k).error("'\(k)' belongs to \(owners.joined(separator: " or "))")
            }
        }
        if kind.takesCount, !o.has("count") {
            throw n.error("\(kind.phrase) needs 'count' (objects to insert)")
        }
        if kind == .updateOrInsert {
            for k in ["feed", "key"] where !o.has(k) { throw n.error("an updateOrInsert workload needs '\(k)'") }
        }
        if [.batchUpdate, .update].contains(kind), !o.has("set") {
            throw n.error("\(kind.phrase) needs 'set' (the attributes to change and their values)")
        }
    }

    /// `touch`: `"all"` (the default; `"scroll"` is the same), `"none"`, `"array"`, or a count.
    private static func decodeTouch(_ o: JSONObject) throws -> TouchSpec {
        guard let t = o.optional("touch") else { return .all }
        switch t.value {
        case .string:
            switch try t.choice(ScenarioKeys.touchWords) {
            case "none": return .none
            case "array": return .array
            default: return .all
            }
        default: return .first(try t.int(in: 0...Int(Int32.max)))
        }
    }

    /// The fetch request's keys after the first ones: predicate, having, result type, ... variants.
    private static func decodeFetchRequest(into spec: inout WorkloadSpec, _ o: JSONObject) throws {
        spec.predicate = try predicate(o, textKey: "predicate", argumentsKey: "arguments")
        spec.having = try predicate(o, textKey: "having", argumentsKey: "havingArguments")
        if let r = o.optional("resultType") {
            spec.resultType = ResultTypeSpec(rawValue: try r.choice(ResultTypeSpec.allCases.map(\.rawValue)))!
        }
        spec.propertiesToFetch = try o.optional("propertiesToFetch")?.nonEmptyArray().map(property) ?? []
        spec.groupBy = try o.optional("groupBy")?.nonEmptyArray().map(keyPath) ?? []
        spec.distinct = try o.optional("distinct")?.bool() ?? false
        spec.fetchLimit = try o.optional("fetchLimit")?.int(in: 0...Int(Int32.max)) ?? 0
        spec.fetchOffset = try o.optional("fetchOffset")?.int(in: 0...Int(Int32.max)) ?? 0
        spec.includesPropertyValues = try o.optional("includesPropertyValues")?.bool() ?? true
        spec.returnsObjectsAsFaults = try o.optional("returnsObjectsAsFaults")?.bool() ?? true
        spec.pageSize = try o.optional("pageSize")?.int(in: 0...1_000_000) ?? 0
        if let x = o.optional("keyBinding") {
            spec.keyBinding = KeyBinding(rawValue: try x.choice(KeyBinding.allCases.map(\.rawValue)))!
        }
        spec.reduce = try o.optional("reduce")?.nonEmptyArray().map(property) ?? []
        spec.agreesWith = try o.optional("agreesWith")?.label()
        spec.variants = try o.optional("variants")?.nonEmptyArray().map { try $0.label() }
    }

    /// The write kinds' keys: count and saveEvery, the batch insert's, the upsert's, the
    /// reader's, the reorder's, the feed, the boxes and `verify`.
    private static func decodeWriteOptions(into spec: inout WorkloadSpec, _ o: JSONObject, at n: JSONNode) throws {
        let kind = spec.kind
        spec.count = try o.optional("count")?.int(in: 1...10_000_000) ?? 0
        spec.saveEvery =
            try o.optional("saveEvery")?.int(in: 1...10_000_000) ?? WorkloadSpec.defaultSaveEvery(kind: kind, count: spec.count)
        if let x = o.optional("source") {
            spec.source = InsertSourceSpec(rawValue: try x.choice(InsertSourceSpec.allCases.map(\.rawValue)))!
        }
        if let x = o.optional("mergePolicy") {
            spec.mergePolicy = MergePolicy(rawValue: try x.choice(MergePolicy.allCases.map(\.rawValue)))!
        }
        if let x = o.optional("strategy") {
            spec.strategy = UpsertStrategySpec(rawValue: try x.choice(UpsertStrategySpec.allCases.map(\.rawValue)))!
        }
        if let x = o.optional("journalMode") {
            spec.journalMode = JournalModeSpec(rawValue: try x.choice(JournalModeSpec.allCases.map(\.rawValue)))!
        }
        // At most SQLite's default limit of bound parameters (SQLITE_MAX_VARIABLE_NUMBER).
        spec.mergeBatch = try o.optional("mergeBatch")?.int(in: 1...32_766) ?? 500
        if o.has("mergeBatch") && spec.strategy != .sortedMerge {
            throw try o.required("mergeBatch").error("'mergeBatch' belongs to the sortedMerge strategy")
        }
        spec.reads = try o.optional("reads")?.int(in: 1...10_000_000) ?? 0
        spec.relationship = try o.optional("relationship")?.identifier()
        spec.relate = try o.optional("relate")?.nonEmptyArray().map { try $0.identifier() } ?? []
        if let x = o.optional("operation") {
            spec.operation = ReorderOperation(rawValue: try x.choice(ReorderOperation.allCases.map(\.rawValue)))!
        }
        spec.positionKey = try o.optional("positionKey")?.identifier()
        if kind == .reorder, !o.has("relationship") {
            throw n.error("a reorder workload needs 'relationship' (the to-many whose lists it edits)")
        }
        spec.key = try o.optional("key")?.nonEmptyArray().map { try $0.identifier() } ?? []
        if let f = o.optional("feed") { spec.feed = try feed(f) }
        if let b = o.optional("boxes") { spec.boxes = try boxes(b) }
        if let v = o.optional("verify") {
            let vo = try v.object(allowed: ScenarioKeys.verify)
            spec.verify = try predicate(vo, textKey: "predicate", argumentsKey: "arguments")
            if spec.verify == nil { throw v.error("'verify' needs a 'predicate'") }
        }
    }

    /// Every kind's `weight` (a number above 0, default 1) and `device` (`{"runs", "rows",
    /// "seconds"}`: what the app's log says the workload cost on the device).
    private static func decodeUsage(into spec: inout WorkloadSpec, _ o: JSONObject) throws {
        if let w = o.optional("weight") {
            spec.weight = try w.double()
            guard spec.weight > 0 else { throw w.error("'weight' is above 0 (how much the workload counts), found \(spec.weight)") }
        }
        guard let d = o.optional("device") else { return }
        let u = try d.object(allowed: ScenarioKeys.device)
        let seconds = try u.optional("seconds")?.double()
        if let seconds, seconds < 0 { throw try u.required("seconds").error("'seconds' is at least 0, found \(seconds)") }
        spec.device = DeviceUsage(
            runs: try u.required("runs").int(in: 1...Int(Int32.max)), rows: try u.optional("rows")?.int(in: 0...1_000_000_000_000_000),
            seconds: seconds)
    }

    /// `set`: attribute names and their new values, or `{"replaceWord", "with", "separator"}`
    /// (an update's word replaced inside a separated list).
    private static func decodeSet(_ x: JSONNode, into spec: inout WorkloadSpec) throws {
        let kind = spec.kind
        guard case .object(let members) = x.value, !members.isEmpty else {
            throw x.error("expected an object of attribute names and values, such as {\"validated\": true}")
        }
        for m in members {
            let node = x.child(m.key, m.value)
            _ = try JSONNode(value: .string(m.key), file: x.file, path: node.path).identifier()
            if case .object(let inner) = m.value, inner.contains(where: { $0.key == "replaceWord" }) {
                let r = try node.object(allowed: ScenarioKeys.wordReplacement)
                guard kind == .update else {
                    throw node.error("'replaceWord' changes each object's value in memory: it needs an update workload (objects)")
                }
                let separator = try r.optional("separator")?.string() ?? ","
                guard !separator.isEmpty else { throw try r.required("separator").error("the separator must not be empty") }
                spec.replacements.append(
                    WordReplacement(
                        attribute: m.key, word: try r.required("replaceWord").string(),
                        with: try r.required("with").string(), separator: separator))
                continue
            }
            let v = try predicateArgument(node)
            if case .array = v { throw node.error("'set' takes one value per attribute, not an array") }
            spec.set.append(AttributeAssignment(attribute: m.key, value: v))
        }
    }

    /// A re-ingest feed: `{"size": 1.0, "existing": 0.9, "seed": 7}`.
    static func feed(_ n: JSONNode) throws -> FeedSpec {
        let o = try n.object(allowed: ScenarioKeys.feed)
        let existing = try o.optional("existing")?.double() ?? 0.9
        guard (0...1).contains(existing) else {
            throw try o.required("existing").error("'existing' is a fraction in 0...1, found \(existing)")
        }
        let size = try o.optional("size")?.double() ?? 1.0
        guard size > 0, size <= 10 else {
            throw try o.required("size").error(
                "'size' is the feed's length as a multiple of the data set's size, in (0, 10]; found \(size)")
        }
        return FeedSpec(
            size: size, existing: existing,
            seed: UInt64(try o.optional("seed")?.int(in: 0...Int(Int32.max)) ?? 1), path: n.path)
    }

    /// Bounding boxes: `{"count": 100, "seed": 11, "keys": ["latitude", "longitude"],
    /// "selectivity": {"min": 0.0005, "max": 0.1}}`.
    static func boxes(_ n: JSONNode) throws -> BoxSetSpec {
        let o = try n.object(allowed: ScenarioKeys.boxes)
        let keysNode = try o.required("keys")
        let keys = try keysNode.array().map { try $0.identifier() }
        guard keys.count == 2 else {
            throw keysNode.error("a box bounds two fields, like [\"latitude\", \"longitude\"]; found \(keys.count)")
        }
        guard keys[0] != keys[1] else { throw keysNode.error("a box bounds two different fields") }
        var lo = 0.001, hi = 0.01
        if let sn = o.optional("selectivity") {
            let so = try sn.object(allowed: ScenarioKeys.selectivity)
            lo = try so.optional("min")?.double() ?? lo
            hi = try so.optional("max")?.double() ?? max(lo, hi)
            for (k, v) in [("min", lo), ("max", hi)] where !(v > 0 && v <= 1) {
                throw try so.required(k).error("a selectivity is the fraction of the rows inside a box, in (0, 1]; found \(v)")
            }
            if lo > hi { throw try so.required("min").error("'min' (\(lo)) is above 'max' (\(hi))") }
        }
        return BoxSetSpec(
            count: try o.required("count").int(in: 1...100_000),
            seed: UInt64(try o.optional("seed")?.int(in: 0...Int(Int32.max)) ?? 1),
            keys: keys, minSelectivity: lo, maxSelectivity: hi, path: n.path)
    }
}
