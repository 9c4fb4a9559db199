import SchemaLabCoreData
import SchemaLabEngine

/// One set of indexes measured: the starting variant with `adds` added and `drops` removed.
package struct AdviceTrial: Sendable, Equatable {
    /// The variant's name in the measured scenario (`advice-trial-3`).
    package var name: String
    /// Indexes added to the starting variant.
    package var adds: [IndexCandidate]
    /// The starting variant's indexes removed.
    package var drops: [IndexCandidate]

    /// The tables whose indexes differ from the starting variant's.
    package var tables: Set<String> { Set((adds + drops).map(\.table)) }

    /// The variant: it extends `base` (resolved as `model`), adds `adds` under the names the
    /// advice proposes (``named(_:model:)``), so that plans name the same index in every
    /// trial, and drops `drops`.
    package func variant(extending base: String, model: ResolvedModel) -> VariantSpec {
        VariantSpec(
            name: name, extends: base,
            dropIndexes: drops.compactMap { drop in drop.dropName.map { EntityMemberRef(entity: drop.entity, name: $0) } },
            addIndexes: Self.named(adds, model: model).map { $0.candidate.spec(name: $0.name) })
    }

    /// Names for additions: `byLikesDate`, unique within the entity's indexes.
    package static func named(_ adds: [IndexCandidate], model: ResolvedModel) -> [(candidate: IndexCandidate, name: String)] {
        var taken: [String: Set<String>] = [:]
        return adds.map { candidate in
            var names = taken[candidate.entity] ?? Set(model.entity(candidate.entity)?.indexes.map(\.name) ?? [])
            var name = candidate.suggestedName, number = 1
            while names.contains(name) {
                number += 1
                name = candidate.suggestedName + "\(number)"
            }
            names.insert(name)
            taken[candidate.entity] = names
            return (candidate, name)
        }
    }
}

/// What one workload cost in one trial.
package struct TrialCost: Sendable {
    /// The cost the search compares: instructions, or the median milliseconds on the time basis.
    package var cost: Double
    /// The case as measured (plans, counters, samples, result signature).
    package var result: CaseResult
}
