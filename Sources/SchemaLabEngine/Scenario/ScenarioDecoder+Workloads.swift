import Foundation
import SchemaLabCoreData

extension ScenarioDecoder {
    static let workloadKeys = [
        "name", "kind", "entity", "sort", "sectionKey", "batchSize", "touch", "touchKeys", "prefetch",
        "predicate", "arguments", "resultType", "propertiesToFetch", "groupBy", "having",
        "havingArguments", "distinct", "fetchLimit", "fetchOffset", "includesPropertyValues",
        "returnsObjectsAsFaults", "pageSize", "reduce", "agreesWith", "variants", "count", "saveEvery", "measurement",
        "boxes", "keyBinding",
    ]

    static func decodeWorkload(_ n: JSONNode) throws -> WorkloadSpec {
        let o = try n.object(allowed: workloadKeys + writeOnlyKeys)
        let kind = WorkloadKind(rawValue: try o.required("kind").choice(WorkloadKind.allCases.map(\.rawValue)))!
        let sort =
            try o.optional("sort")?.array().map { s -> SortSpec in
                if case .string = s.value { return SortSpec(keyPath: try keyPath(s), ascending: true) }
                let so = try s.object(allowed: ["key", "ascending", "comparator"])
                var sort = SortSpec(keyPath: try keyPath(so.required("key")), ascending: try so.optional("ascending")?.bool() ?? true)
                if let c = so.optional("comparator") {
                    sort.comparator = SortComparator(rawValue: try c.choice(SortComparator.allCases.map(\.rawValue)))!
                }
                return sort
            } ?? []
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
        if let allowed = kind.writeKeys {
            for k in workloadKeys + writeOnlyKeys where !(["name", "kind", "variants", "measurement"] + allowed).contains(k) && o.has(k) {
                throw try o.required(k).error("\(kind.phrase) takes no '\(k)' (it takes \(allowed.joined(separator: ", ")))")
            }
        } else {
            for k in writeOnlyKeys + ["count", "saveEvery"] where o.has(k) {
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
        var touch = TouchSpec.all
        if let t = o.optional("touch") {
            switch t.value {
            case .string:
                switch try t.choice(["all", "none", "scroll", "array"]) {
                case "none": touch = .none
                case "array": touch = .array
                default: touch = .all
                }
            default: touch = .first(try t.int(in: 0...Int(Int32.max)))
            }
        }
        var spec = WorkloadSpec(
            name: try o.required("name").label(),
            kind: kind,
            entity: try o.optional("entity")?.identifier(),
            sort: sort,
            sectionKey: section,
            batchSize: try o.optional("batchSize")?.int(in: 0...1_000_000) ?? 0,
            touch: touch,
            touchKeys: try o.optional("touchKeys")?.array().map(keyPath),
            prefetch: try o.optional("prefetch")?.array().map(keyPath) ?? [],
            path: n.path
        )
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
        spec.count = try o.optional("count")?.int(in: 1...10_000_000) ?? 0
        spec.saveEvery = try o.optional("saveEvery")?.int(in: 1...10_000_000) ?? (kind.takesCount ? spec.count : 0)
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
            let vo = try v.object(allowed: ["predicate", "arguments"])
            spec.verify = try predicate(vo, textKey: "predicate", argumentsKey: "arguments")
            if spec.verify == nil { throw v.error("'verify' needs a 'predicate'") }
        }
        if let x = o.optional("set") {
            guard case .object(let members) = x.value, !members.isEmpty else {
                throw x.error("expected an object of attribute names and values, such as {\"validated\": true}")
            }
            for m in members {
                let node = x.child(m.key, m.value)
                _ = try JSONNode(value: .string(m.key), file: x.file, path: node.path).identifier()
                if case .object(let inner) = m.value, inner.contains(where: { $0.key == "replaceWord" }) {
                    let r = try node.object(allowed: ["replaceWord", "with", "separator"])
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
                spec.set.append((m.key, v))
            }
        }
        if kind.writeKeys != nil {
            if [.batchUpdate, .update, .batchDelete, .delete].contains(kind), o.has("arguments"), !o.has("predicate") {
                throw try o.required("arguments").error("'arguments' needs 'predicate'")
            }
            if kind == .readerUnderWriter { try checkReader(spec, o) }
            return spec
        }
        try checkShape(spec, o)
        return spec
    }

    /// Keys only write-side workloads take.
    static let writeOnlyKeys = [
        "source", "mergePolicy", "feed", "key", "strategy", "mergeBatch", "set", "reads", "journalMode", "verify", "relationship",
        "operation", "positionKey",
    ]

    /// A re-ingest feed: `{"size": 1.0, "existing": 0.9, "seed": 7}`.
    static func feed(_ n: JSONNode) throws -> FeedSpec {
        let o = try n.object(allowed: ["size", "existing", "seed"])
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
        let o = try n.object(allowed: ["count", "seed", "keys", "selectivity"])
        let keysNode = try o.required("keys")
        let keys = try keysNode.array().map { try $0.identifier() }
        guard keys.count == 2 else {
            throw keysNode.error("a box bounds two fields, like [\"latitude\", \"longitude\"]; found \(keys.count)")
        }
        guard keys[0] != keys[1] else { throw keysNode.error("a box bounds two different fields") }
        var lo = 0.001, hi = 0.01
        if let sn = o.optional("selectivity") {
            let so = try sn.object(allowed: ["min", "max"])
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

    /// The reader of a readerUnderWriter workload is an object fetch (sorted, limited or batched).
    private static func checkReader(_ w: WorkloadSpec, _ o: JSONObject) throws {
        if o.has("arguments") && !o.has("predicate") { throw try o.required("arguments").error("'arguments' needs 'predicate'") }
        if w.fetchLimit > 0 && w.batchSize > 0 {
            throw try o.required("batchSize").error(
                "the reader fetches either a first page (fetchLimit) or a batched list (batchSize), not both")
        }
    }

    /// Combinations Core Data rejects or the lab does not model, reported at their key.
    private static func checkShape(_ w: WorkloadSpec, _ o: JSONObject) throws {
        if w.kind == .insert || w.kind == .append { return }
        func at(_ key: String, _ message: String) throws -> Never { throw try o.required(key).error(message) }
        let dictionaryOnly = ["groupBy", "having", "distinct"]
        if w.resultType != .dictionaries {
            for k in dictionaryOnly where o.has(k) { try at(k, "'\(k)' needs \"resultType\": \"dictionaries\"") }
            if o.has("propertiesToFetch") {
                guard w.resultType == .objects else {
                    try at(
                        "propertiesToFetch", "'propertiesToFetch' needs \"resultType\": \"dictionaries\" or \"objects\" (partial faults)")
                }
                for (i, p) in w.propertiesToFetch.enumerated() {
                    guard case .keyPath(let k) = p, !k.contains(".") else {
                        throw try o.required("propertiesToFetch").array()[i].error(
                            "propertiesToFetch on managed objects lists the entity's own attributes and to-one relationships by name")
                    }
                }
                if !w.includesPropertyValues {
                    try at("propertiesToFetch", "'propertiesToFetch' reads values; it cannot go with \"includesPropertyValues\": false")
                }
            }
            if o.has("keyBinding") && w.batchSize == 0 && w.prefetch.isEmpty {
                try at("keyBinding", "'keyBinding' applies to batch windows (batchSize) and prefetching (prefetch)")
            }
        } else if w.propertiesToFetch.isEmpty {
            throw o.node.error("a dictionaries fetch needs 'propertiesToFetch'")
        }
        if !w.groupBy.isEmpty {
            let plain = Set(w.propertiesToFetch.compactMap { if case .keyPath(let k) = $0 { return k } else { return nil } })
            for (i, k) in w.propertiesToFetch.enumerated() {
                if case .keyPath(let name) = k, !w.groupBy.contains(name) {
                    throw try o.required("propertiesToFetch").array()[i].error(
                        "'\(name)' is fetched but not in 'groupBy': with groupBy, propertiesToFetch holds the grouped key paths and aggregate expressions"
                    )
                }
            }
            _ = plain
        } else if o.has("having") {
            try at("having", "'having' needs 'groupBy'")
        }
        if o.has("havingArguments") && !o.has("having") { try at("havingArguments", "'havingArguments' needs 'having'") }
        if o.has("arguments") && !o.has("predicate") { try at("arguments", "'arguments' needs 'predicate'") }
        if o.has("boxes") {
            if w.kind != .fetch { try at("boxes", "'boxes' is a fetch workload's option") }
            if !o.has("predicate") {
                try at("boxes", "'boxes' needs a 'predicate' with four more %@ than 'arguments' for each box's bounds")
            }
            if w.pageSize > 0 { try at("boxes", "a fetch runs either pages or boxes, not both") }
            if w.resultType != .objects { try at("boxes", "a box set fetches managed objects") }
            if !w.reduce.isEmpty { try at("boxes", "a box set takes no 'reduce'") }
        }
        if w.resultType != .objects {
            for k in ["prefetch", "touchKeys", "touch", "includesPropertyValues", "returnsObjectsAsFaults", "reduce"] where o.has(k) {
                try at(k, "'\(k)' applies to managed objects; this fetch returns \(w.resultType.rawValue)")
            }
            if w.kind == .fetchedResults { try at("resultType", "a fetchedResults controller fetches managed objects") }
        }
        if w.resultType == .count && (w.fetchLimit > 0 || w.fetchOffset > 0 || w.batchSize > 0 || !w.sort.isEmpty) {
            throw o.node.error("a count fetch takes no fetchLimit, fetchOffset, batchSize or sort")
        }
        if w.pageSize > 0 {
            if w.kind != .fetch { try at("pageSize", "paging is a fetch workload's option") }
            for k in ["fetchLimit", "fetchOffset", "batchSize"] where o.has(k) && w.pageSize > 0 {
                try at(k, "'pageSize' sets fetchLimit and fetchOffset page by page; remove '\(k)'")
            }
            if w.resultType != .objects { try at("pageSize", "paging fetches managed objects") }
        }
        if w.kind == .fetchedResults && o.has("pageSize") { try at("pageSize", "paging is a fetch workload's option") }
        if !w.reduce.isEmpty && w.reduce.contains(where: { if case .keyPath = $0 { return true } else { return false } }) {
            try at("reduce", "'reduce' takes aggregate expressions ({\"name\", \"function\", \"key\"})")
        }
        var names = Set<String>()
        for (i, p) in (w.propertiesToFetch + w.reduce).enumerated() where !names.insert(p.name).inserted {
            throw o.node.error("two properties are named '\(p.name)' (entry \(i))")
        }
    }

    /// A `propertiesToFetch` / `reduce` entry: a key path string, or `{"name", "function", "key"}`.
    static func property(_ n: JSONNode) throws -> PropertySpec {
        if case .string = n.value { return .keyPath(try keyPath(n)) }
        let o = try n.object(allowed: ["name", "function", "key"])
        let f = AggregateFunction(rawValue: try o.required("function").choice(AggregateFunction.allCases.map(\.rawValue)))!
        return .expression(name: try o.required("name").identifier(), function: f, keyPath: try keyPath(o.required("key")))
    }

    /// A predicate string and its arguments; the syntax is checked when the plan compiles it.
    static func predicate(_ o: JSONObject, textKey: String, argumentsKey: String) throws -> PredicateSpec? {
        guard let t = o.optional(textKey) else { return nil }
        let text = try t.string()
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw t.error("the predicate is empty (leave the key out, or write TRUEPREDICATE)")
        }
        if let e = PredicateBounds.check(text) { throw t.error("column \(e.column): \(e.message)") }
        let args = try o.optional(argumentsKey)?.array().map(predicateArgument) ?? []
        return PredicateSpec(text: text, arguments: args, path: t.path)
    }

    /// One `%@` argument: a number, string, boolean, null, `{"date": "2014-10-01T00:00:00Z"}`, or an array of these.
    static func predicateArgument(_ n: JSONNode) throws -> PredicateValue {
        switch n.value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .number(let d, let literal):
            if !literal.contains("."), !literal.lowercased().contains("e"), let i = Int64(literal) { return .integer(i) }
            return .real(d)
        case .array: return .array(try n.array().map(predicateArgument))
        case .object:
            let o = try n.object(allowed: ["date"])
            return .date(try parseInstant(o.required("date")))
        }
    }

    /// An ISO 8601 instant (`2014-10-01T00:00:00Z`, offsets and fractions allowed, or a bare
    /// `YYYY-MM-DD` meaning midnight UTC) as seconds since 2001-01-01 UTC.
    static func parseInstant(_ n: JSONNode) throws -> Double {
        let s = try n.string()
        if s.count == 10 { return try parseDay(n) }
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        var date = f.date(from: s)
        if date == nil {
            f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            date = f.date(from: s)
        }
        guard let date else {
            throw n.error("expected a date as \"YYYY-MM-DD\" or ISO 8601 \"2014-10-01T00:00:00Z\", found \"\(s)\"")
        }
        return date.timeIntervalSinceReferenceDate
    }

    /// A key path: plain names joined by dots (`likes`, `meta.likes`).
    static func keyPath(_ n: JSONNode) throws -> String {
        let s = try n.string()
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 8, parts.allSatisfy({ Identifier.isPlainName(String($0)) }) else {
            throw n.error("'\(s)' is not a key path: plain names joined by dots, such as 'likes' or 'meta.likes'")
        }
        return s
    }
}
