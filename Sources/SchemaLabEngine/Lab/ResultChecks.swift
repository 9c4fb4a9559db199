/// Compares each case's result with the reference variant's for the same workload and
/// size, and with its `agreesWith` workload's in the same variant and size (or the
/// reference variant's, when that workload does not run in this variant).
public enum ResultChecks {
    /// The reference and agreement check of each case in `cases`, against the others in
    /// `cases` (a case whose counterpart is not there is ``ResultCheck/notChecked``).
    public static func compute(_ cases: [(key: CaseKey, signature: ResultSignature)], reference: String,
                               agreesWith: [String: Agreement]) -> [(reference: ResultCheck, agreement: ResultCheck)] {
        let index = Dictionary(cases.enumerated().map { ($0.element.key, $0.offset) }, uniquingKeysWith: { a, _ in a })
        return cases.map { c in
            var ref = ResultCheck.notChecked, agree = ResultCheck.notChecked
            if c.key.variant == reference {
                ref = .reference
            } else if let r = index[CaseKey(variant: reference, workload: c.key.workload, size: c.key.size)] {
                ref = c.signature.matches(cases[r].signature) ? .same : .differs
            }
            // The other workload in the same variant, or in the reference variant when its
            // `variants` leave this one out (a strategy only one schema can express).
            if let a = agreesWith[c.key.workload] {
                let variant = a.otherVariants?.contains(c.key.variant) ?? true ? c.key.variant : reference
                if let j = index[CaseKey(variant: variant, workload: a.other, size: c.key.size)] {
                    agree = c.signature.agrees(with: cases[j].signature) ? .same : .differs
                }
            }
            return (ref, agree)
        }
    }

    /// A workload's `agreesWith`: the other workload and the variants it runs in (nil: all).
    public struct Agreement: Sendable {
        public let other: String
        public let otherVariants: [String]?
    }

    /// The `agreesWith` pairs of a scenario's workloads.
    public static func agreements(_ workloads: [WorkloadSpec]) -> [String: Agreement] {
        let variants = Dictionary(workloads.map { ($0.name, $0.variants) }, uniquingKeysWith: { a, _ in a })
        return Dictionary(workloads.compactMap { w in
            w.agreesWith.map { (w.name, Agreement(other: $0, otherVariants: variants[$0] ?? nil)) }
        }, uniquingKeysWith: { a, _ in a })
    }
}

