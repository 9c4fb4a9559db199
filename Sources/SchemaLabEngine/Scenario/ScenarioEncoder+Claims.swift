extension ScenarioEncoder {
    /// An assertion: the key of its kind and that key's value.
    static func assertion(_ a: AssertionSpec) -> JSONValue {
        let stated: (String, JSONValue)
        switch a.kind {
        case .usesIndex(let index): stated = ("usesIndex", .string(index))
        case .noTempBTree: stated = ("noTempBTree", .bool(true))
        case .usesTempBTree: stated = ("usesTempBTree", .bool(true))
        case .noFullScan: stated = ("noFullScan", .bool(true))
        case .maxStatements(let n): stated = ("maxStatements", .int(n))
        case .sameResults(let variants): stated = ("sameResults", .array(variants.map(JSONValue.string)))
        case .faster(let than): stated = ("fasterThan", .string(than))
        }
        return object(
            ScenarioKeys.assertion,
            [
                ("workload", .string(a.workload)), ("variant", a.variant.map(JSONValue.string)), (stated.0, stated.1),
                ("description", a.description.map(JSONValue.string)),
            ])
    }

    /// A claim; a side's keys that the format's defaults give are left out (the case's
    /// variant when it is the reference, the other side's when they are the case's).
    static func claim(_ c: ClaimSpec, reference: String) -> JSONValue {
        let e = c.expectation
        var ratio: JSONValue?
        if let r = e.ratio {
            ratio = r.lowerBound == r.upperBound ? number(r.lowerBound) : .array([number(r.lowerBound), number(r.upperBound)])
        }
        let implied: ClaimSpec.Direction? = e.ratio.map { $0.upperBound < 1 ? .lower : .higher }
        return object(
            ScenarioKeys.claim,
            [
                ("id", .string(c.id)),
                (
                    "source",
                    object(
                        ScenarioKeys.claimSource,
                        [("document", .string(c.source.document)), ("year", .int(c.source.year)), ("where", .string(c.source.location))])
                ),
                ("claim", .string(c.statement)),
                ("case", side(c.subject, base: ClaimSpec.Side(variant: reference, workload: ""))),
                ("against", side(c.against, base: c.subject)),
                ("metric", .string(c.metric.rawValue)),
                (
                    "expect",
                    object(
                        ScenarioKeys.claimExpectation,
                        [
                            ("direction", e.direction == implied ? nil : .string(e.direction.rawValue)), ("ratio", ratio),
                            ("figure", e.figure.map(JSONValue.string)), ("tolerance", unless(e.tolerance, is: 2, number)),
                        ])
                ),
                ("size", c.size.map(JSONValue.int)),
                ("description", c.description.map(JSONValue.string)),
            ])
    }

    /// A side: its variant and workload where they differ from `base`'s (the defaults).
    static func side(_ s: ClaimSpec.Side, base: ClaimSpec.Side) -> JSONValue {
        object(
            ScenarioKeys.claimSide,
            [
                ("variant", s.variant == base.variant ? nil : .string(s.variant)),
                ("workload", s.workload == base.workload ? nil : .string(s.workload)),
            ])
    }
}
