extension ScenarioDecoder {
    /// `{"workload": "frc-sections", "variant": "V1+compound", "usesIndex": "Z_Photo_byLikesDate"}`, ...
    static func decodeAssertion(_ n: JSONNode) throws -> AssertionSpec {
        let o = try n.object(allowed: ScenarioKeys.assertion)
        let kinds = ScenarioKeys.assertionKinds.filter { o.has($0) }
        guard kinds.count == 1 else {
            throw n.error(
                kinds.isEmpty
                    ? "an assertion states one of \(ScenarioKeys.assertionKinds.joined(separator: ", "))"
                    : "an assertion states one thing; this one has \(kinds.joined(separator: " and "))")
        }
        let description = try o.optional("description")?.string()
        let workload = try o.required("workload").label()
        let variant = try o.optional("variant")?.label()
        let kind: AssertionSpec.Kind
        func flag(_ key: String) throws {
            guard try o.required(key).bool() else { throw try o.required(key).error("write \"\(key)\": true (or leave the assertion out)") }
        }
        switch kinds[0] {
        case "usesIndex": kind = .usesIndex(try o.required("usesIndex").string())
        case "noTempBTree": try flag("noTempBTree"); kind = .noTempBTree
        case "usesTempBTree": try flag("usesTempBTree"); kind = .usesTempBTree
        case "noFullScan": try flag("noFullScan"); kind = .noFullScan
        case "maxStatements": kind = .maxStatements(try o.required("maxStatements").int(in: 1...100_000_000))
        case "sameResults":
            let list = try o.required("sameResults").nonEmptyArray().map { try $0.label() }
            guard list.count >= 2 else { throw try o.required("sameResults").error("sameResults names at least two variants") }
            kind = .sameResults(list)
        default:
            kind = .faster(than: try o.required("fasterThan").label())
            if variant == kind.slower { throw try o.required("fasterThan").error("a variant cannot be faster than itself") }
        }
        if case .sameResults = kind {
            if o.has("variant") { throw try o.required("variant").error("sameResults names its variants in its list, not in 'variant'") }
        } else if variant == nil {
            throw n.error("this assertion is about one case: give 'variant'")
        }
        return AssertionSpec(workload: workload, variant: variant, kind: kind, description: description, path: n.path)
    }
}
