extension ScenarioDecoder {
    /// The reader of a readerUnderWriter workload is an object fetch (sorted, limited or batched).
    static func checkReader(_ w: WorkloadSpec, _ o: JSONObject) throws {
        if o.has("arguments") && !o.has("predicate") { throw try o.required("arguments").error("'arguments' needs 'predicate'") }
        if w.fetchLimit > 0 && w.batchSize > 0 {
            throw try o.required("batchSize").error(
                "the reader fetches either a first page (fetchLimit) or a batched list (batchSize), not both")
        }
    }

    /// Combinations Core Data rejects or the lab does not model, reported at their key.
    static func checkShape(_ w: WorkloadSpec, _ o: JSONObject) throws {
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
            // What SQL Core Data issues for a count with a limit is not known (no log shows one):
            // the lab does not guess, and says how to write the existence check it usually is.
            let key = ["fetchLimit", "fetchOffset", "batchSize", "sort"].first(where: o.has) ?? "resultType"
            let remedy =
                key == "fetchLimit"
                ? " (no logged statement shows the SQL Core Data issues for one); for an existence check (count with fetchLimit 1), write resultType objectIDs with fetchLimit 1: SELECT 0, t0.Z_PK ... LIMIT 1"
                : ": a count returns one number, which none of them changes; remove '\(key)'"
            try at(key, "a count fetch takes no fetchLimit, fetchOffset, batchSize or sort" + remedy)
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
}
