import SchemaLabCoreData
import SchemaLabEngine

/// Beyond indexes: a fetch whose touched objects fire a fault per row through a relationship
/// (`touchKeys` like `author.name`) that the request does not prefetch is a prefetching
/// problem, not an index problem. The probe measures the same request with
/// `relationshipKeyPathsForPrefetching` set to those relationships, in the starting variant,
/// and keeps it when it gains more than the threshold and returns the same result.
struct PrefetchProbe {
    let scenario: Scenario
    let base: String
    let model: ResolvedModel
    let options: AdviceOptions

    /// The suffix of a probed copy's name: `book-list+prefetch`.
    static let suffix = "+prefetch"

    /// Each read workload's copy with the relationships its touch keys fault through added to its prefetch.
    func copies(of workloads: [AdvisedWorkload]) -> [WorkloadSpec] {
        let reads = Set(workloads.filter(\.isRead).map(\.name))
        return scenario.workloads.compactMap { spec in
            guard reads.contains(spec.name), spec.kind.fetches, spec.resultType == .objects, spec.touch != .none,
                let entity = model.entity(spec.entity ?? scenario.dataset.entity)
            else { return nil }
            var faulted: [String] = []
            for key in spec.touchKeys ?? [] {
                guard let first = key.split(separator: ".").first.map(String.init), entity.relationship(first) != nil,
                    !spec.prefetch.contains(where: { $0 == first || $0.hasPrefix(first + ".") }), !faulted.contains(first)
                else { continue }
                faulted.append(first)
            }
            guard !faulted.isEmpty else { return nil }
            var copy = spec
            copy.name = spec.name + Self.suffix
            copy.prefetch += faulted
            copy.agreesWith = nil
            return copy
        }
    }

    /// Measures the copies against the starting costs; returns the proposals that gain.
    func measure(
        workloads: [AdvisedWorkload], start: [String: TrialCost], threshold: Double, measurer: inout AdviceMeasurer
    ) throws(OperationError) -> [PrefetchProposal] {
        let copies = copies(of: workloads)
        guard !copies.isEmpty else { return [] }
        var probed = scenario
        probed.workloads += copies
        var probe = AdviceMeasurer(scenario: probed, base: base, model: model, options: options)
        let measured = try probe.measure(
            [AdviceTrial(name: base, adds: [], drops: [])], workloads: [base: copies.map(\.name)], size: options.size)[base]
        measurer.absorb(probe)
        var out: [PrefetchProposal] = []
        for copy in copies {
            let name = String(copy.name.dropLast(Self.suffix.count))
            guard let workload = workloads.first(where: { $0.name == name }), let before = start[name],
                let after = measured?.costs[copy.name]
            else { continue }
            let gain = workload.weighted(before.cost) - workload.weighted(after.cost)
            let same = before.result.signature.agrees(with: after.result.signature)
            out.append(
                PrefetchProposal(
                    workload: name,
                    keyPaths: Array(
                        copy.prefetch.suffix(copy.prefetch.count - (scenario.workloads.first { $0.name == name }?.prefetch.count ?? 0))),
                    before: before.cost, after: after.cost, statementsBefore: before.result.statements,
                    statementsAfter: after.result.statements, gain: gain, sameResult: same, proposed: same && gain > threshold))
        }
        return out
    }
}
