extension ScenarioDecoder {
    static func decodeWorkload(_ n: JSONNode) throws -> WorkloadSpec {
        let o = try n.object(allowed: ["name", "kind", "entity", "sort", "sectionKey", "batchSize", "touch", "touchKeys", "prefetch"])
        let kind = WorkloadKind(rawValue: try o.required("kind").choice(WorkloadKind.allCases.map(\.rawValue)))!
        let sort = try o.optional("sort")?.array().map { s -> SortSpec in
            if case .string = s.value { return SortSpec(keyPath: try keyPath(s), ascending: true) }
            let so = try s.object(allowed: ["key", "ascending"])
            return SortSpec(keyPath: try keyPath(so.required("key")), ascending: try so.optional("ascending")?.bool() ?? true)
        } ?? []
        let section = try o.optional("sectionKey").map(keyPath)
        if kind == .fetchedResults {
            guard section != nil else { throw n.error("a fetchedResults workload needs 'sectionKey'") }
            guard let first = sort.first else { throw n.error("a fetchedResults workload needs 'sort' (its first key orders the sections)") }
            if first.keyPath != section {
                throw try o.required("sort").error("the first sort key must be the section key '\(section!)', as NSFetchedResultsController requires")
            }
        } else if let s = o.optional("sectionKey") {
            throw s.error("'sectionKey' belongs to a fetchedResults workload")
        }
        if kind == .insert {
            for k in ["sort", "batchSize", "touch", "touchKeys", "prefetch", "entity"] where o.has(k) {
                throw try o.required(k).error("an insert workload inserts the whole data set and takes no '\(k)'")
            }
        }
        var touch = TouchSpec.all
        if let t = o.optional("touch") {
            switch t.value {
            case .string: touch = try t.choice(["all", "none"]) == "all" ? .all : .none
            default: touch = .first(try t.int(in: 0...Int(Int32.max)))
            }
        }
        return WorkloadSpec(
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
