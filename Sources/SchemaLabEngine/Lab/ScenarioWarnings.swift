import SchemaLabCoreData

/// What a scenario asks for that the lab accepts as Core Data does but that does nothing:
/// each a line `FILE: PATH: warning: ...`, printed by `validate` and at the start of `run`.
///
/// - Arguments a predicate's format does not use: `predicateWithFormat:` reads its arguments
///   from a C variadic list, which cannot say how many there are, so it ignores the rest.
/// - `fetchLimit` or `fetchOffset` without a sort: which rows are kept is SQLite's choice, and
///   variants (a scan against an index) may keep different ones.
/// - `batchSize` on a dictionary fetch: batching records each matching object's identity and
///   fetches the objects' data a batch at a time (the `fetchBatchSize` documentation); a
///   dictionary fetch returns rows, not objects, and the lab runs it in one statement.
package enum ScenarioWarnings {
    /// The warnings of `scenario`, in workload order.
    package static func of(_ scenario: Scenario) -> [String] {
        var lines: [String] = []
        for workload in scenario.workloads {
            let predicates: [PredicateSpec?] = [workload.boxes == nil ? workload.predicate : nil, workload.verify, workload.having]
            for spec in predicates.compactMap({ $0 }) where !spec.arguments.isEmpty {
                // A predicate that does not parse is the plan's error, not a warning.
                guard let used = try? PredicateParser.argumentsUsed(spec.text, arguments: spec.arguments),
                    used < spec.arguments.count
                else { continue }
                let extra = spec.arguments.count - used
                lines.append(
                    "\(scenario.file): \(spec.path): warning: "
                        + PredicateParser.unusedArgumentsText(given: spec.arguments.count, used: used)
                        + ": the last \(extra == 1 ? "one is" : "\(extra) are") ignored, as predicateWithFormat: ignores them")
            }
            if workload.kind == .fetch, workload.sort.isEmpty, workload.fetchLimit > 0 || workload.fetchOffset > 0,
                workload.resultType != .count
            {
                lines.append(
                    "\(scenario.file): \(workload.path).\(workload.fetchLimit > 0 ? "fetchLimit" : "fetchOffset"): warning: without a sort, which rows a limit or offset keeps is SQLite's choice, so variants may return different rows and the result check may say differs; add a sort"
                )
            }
            if workload.kind == .fetch, workload.resultType == .dictionaries, workload.batchSize > 0 {
                lines.append(
                    "\(scenario.file): \(workload.path).batchSize: warning: a dictionary fetch is not batched (batching faults objects "
                        + "in by their IDs; these rows are not objects): it runs in one statement, as without batchSize")
            }
        }
        return lines
    }
}
