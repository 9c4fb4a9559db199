/// The rule for a case's result checks: its result against the reference variant's for the
/// same workload and size, and against its `agreesWith` workload's in the same variant and
/// size (or the reference variant's, when that workload does not run in this variant).
///
/// One value per scenario: the runner marks its results with it, and a run directory
/// marks its rows with it each time it rewrites results.csv (the reference case of a
/// workload can finish after the others).
package struct ResultChecker: Sendable {
    /// The reference variant's name.
    package let reference: String
    /// Each workload's `agreesWith`: the other workload and the variants it runs in (nil: all).
    package let agreements: [String: Agreement]

    /// A workload's `agreesWith`: the other workload and the variants it runs in (nil: all).
    package struct Agreement: Sendable {
        package let other: String
        package let otherVariants: [String]?
    }

    /// The checks of a scenario with reference variant `reference` and these workloads.
    package init(reference: String, workloads: [WorkloadSpec]) {
        self.reference = reference
        let variants = Dictionary(workloads.map { ($0.name, $0.variants) }, uniquingKeysWith: { first, _ in first })
        agreements = Dictionary(
            workloads.compactMap { workload in
                workload.agreesWith.map { (workload.name, Agreement(other: $0, otherVariants: variants[$0] ?? nil)) }
            }, uniquingKeysWith: { first, _ in first })
    }

    /// The checks of `scenario`'s cases.
    package init(scenario: Scenario) {
        self.init(reference: scenario.reference, workloads: scenario.workloads)
    }

    /// The reference and agreement check of each case in `cases`, against the others in
    /// `cases` (a case whose counterpart is not there is ``ResultCheck/notChecked``).
    package func checks(_ cases: [(key: CaseKey, signature: ResultSignature)]) -> [(reference: ResultCheck, agreement: ResultCheck)] {
        let index = Dictionary(cases.enumerated().map { ($0.element.key, $0.offset) }, uniquingKeysWith: { first, _ in first })
        return cases.map { current in
            var referenceCheck = ResultCheck.notChecked, agreementCheck = ResultCheck.notChecked
            if current.key.variant == reference {
                referenceCheck = .reference
            } else if let other = index[CaseKey(variant: reference, workload: current.key.workload, size: current.key.size)] {
                referenceCheck = current.signature.matches(cases[other].signature) ? .same : .differs
            }
            // The other workload in the same variant, or in the reference variant when its
            // `variants` leave this one out (a strategy only one schema can express).
            if let agreement = agreements[current.key.workload] {
                let variant = agreement.otherVariants?.contains(current.key.variant) ?? true ? current.key.variant : reference
                if let other = index[CaseKey(variant: variant, workload: agreement.other, size: current.key.size)] {
                    agreementCheck = current.signature.agrees(with: cases[other].signature) ? .same : .differs
                }
            }
            return (referenceCheck, agreementCheck)
        }
    }
}
