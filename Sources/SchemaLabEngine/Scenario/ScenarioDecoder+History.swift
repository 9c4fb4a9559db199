extension ScenarioDecoder {
    /// `deliver`: `{"mode", "entity", "sort", "held", "shows", "filter"}`.
    static func decodeDelivery(_ n: JSONNode) throws -> DeliverySpec {
        let o = try n.object(allowed: ScenarioKeys.deliver)
        let mode = DeliverySpec.Mode(rawValue: try o.required("mode").choice(DeliverySpec.Mode.allCases.map(\.rawValue)))!
        let sort = try o.required("sort").nonEmptyArray().map { s -> SortSpec in
            if case .string = s.value { return SortSpec(keyPath: try s.identifier()) }
            let so = try s.object(allowed: ["key", "ascending"])
            return SortSpec(keyPath: try so.required("key").identifier(), ascending: try so.optional("ascending")?.bool() ?? true)
        }
        let filter = try o.optional("filter")?.bool() ?? false
        if filter && mode != .historyNotification {
            throw try o.required("filter").error(
                "'filter' chooses which history changes to merge: it needs \"mode\": \"historyNotification\"")
        }
        return DeliverySpec(
            mode: mode, entity: try o.optional("entity")?.identifier(), sort: sort,
            held: try o.optional("held")?.int(in: 1...100_000) ?? DeliverySpec.defaultHeld,
            shows: try o.optional("shows")?.array().map { try $0.identifier() } ?? [], filter: filter, path: n.path)
    }

    /// `history`: a fetchHistory's `{"after", "last", "entity", "object", "author",
    /// "updatedProperties", "filterIn"}` or a deleteHistory's `{"before", "keep"}`.
    static func decodeHistoryRequest(_ n: JSONNode, kind: WorkloadKind) throws -> HistoryRequestSpec {
        let bounds = HistoryRequestSpec.Bound.allCases.map(\.rawValue)
        if kind == .deleteHistory {
            let o = try n.object(allowed: ScenarioKeys.deleteHistory)
            return HistoryRequestSpec(
                bound: HistoryRequestSpec.Bound(rawValue: try o.optional("before")?.choice(bounds) ?? "token")!,
                last: try o.optional("keep")?.int(in: 0...10_000_000), path: n.path)
        }
        let o = try n.object(allowed: ScenarioKeys.fetchHistory)
        var spec = HistoryRequestSpec(
            bound: HistoryRequestSpec.Bound(rawValue: try o.optional("after")?.choice(bounds) ?? "token")!,
            last: try o.optional("last")?.int(in: 1...10_000_000), entity: try o.optional("entity")?.identifier(),
            object: try o.optional("object")?.bool() ?? false,
            author: try o.optional("author")?.choice(HistoryRequestSpec.authors),
            updatedProperties: try o.optional("updatedProperties")?.nonEmptyArray().map { try $0.identifier() } ?? [], path: n.path)
        if let f = o.optional("filterIn") {
            spec.filterIn = HistoryRequestSpec.FilterPlace(rawValue: try f.choice(HistoryRequestSpec.FilterPlace.allCases.map(\.rawValue)))!
        }
        if o.has("after") && spec.last == nil {
            throw try o.required("after").error("'after' needs 'last' (the request starts before the last N transactions)")
        }
        return spec
    }
}
