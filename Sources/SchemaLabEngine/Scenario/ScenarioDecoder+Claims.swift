extension ScenarioDecoder {
    /// `{"id": ..., "source": {...}, "claim": "...", "case": {...}, "against": {...}, "metric": ..., "expect": {...}}`.
    static func decodeClaim(_ node: JSONNode, reference: String) throws -> ClaimSpec {
        let o = try node.object(allowed: ScenarioKeys.claim)
        let description = try o.optional("description")?.string()
        let sourceNode = try o.required("source")
        let source = try sourceNode.object(allowed: ScenarioKeys.claimSource)
        let statement = try o.required("claim").string()
        guard !statement.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw try o.required("claim").error("say what the source claims")
        }
        func side(_ key: String, base: ClaimSpec.Side?) throws -> ClaimSpec.Side {
            let s = try o.required(key).object(allowed: ScenarioKeys.claimSide)
            let variant = try s.optional("variant")?.label() ?? base?.variant ?? reference
            guard let workload = try s.optional("workload")?.label() ?? base?.workload else {
                throw s.node.error("missing required key 'workload'")
            }
            return ClaimSpec.Side(variant: variant, workload: workload)
        }
        let subject = try side("case", base: nil)
        let against = try side("against", base: subject)
        guard subject != against else { throw try o.required("against").error("a claim compares two different cases; both are \(subject)") }
        let metricNode = try o.required("metric")
        guard let metric = ClaimMetric(rawValue: try metricNode.choice(ClaimMetric.allCases.map(\.rawValue))) else {
            throw metricNode.error("unknown metric")
        }
        let e = try o.required("expect").object(allowed: ScenarioKeys.claimExpectation)
        var direction = try e.optional("direction").map {
            ClaimSpec.Direction(rawValue: try $0.choice(ClaimSpec.Direction.allCases.map(\.rawValue)))!
        }
        var ratio: ClosedRange<Double>?
        if let r = e.optional("ratio") {
            let bounds: [Double]
            if case .array = r.value {
                let items = try r.array()
                guard items.count == 2 else { throw r.error("a ratio range is [low, high]") }
                bounds = try items.map { try $0.double() }
            } else {
                let one = try r.double()
                bounds = [one, one]
            }
            guard bounds[0] > 0, bounds[1] >= bounds[0] else {
                throw r.error("a ratio is above 0, and a range's low end is not above its high end")
            }
            guard bounds[1] < 1 || bounds[0] > 1 else {
                throw r.error("the ratio (case / against) must say which way the metric moves: below 1 for lower, above 1 for higher")
            }
            let implied: ClaimSpec.Direction = bounds[1] < 1 ? .lower : .higher
            if let direction, direction != implied {
                throw r.error(
                    "a ratio \(bounds[1] < 1 ? "below" : "above") 1 means \(implied.rawValue), but the direction is \(direction.rawValue)")
            }
            direction = implied
            ratio = bounds[0]...bounds[1]
        }
        guard let direction else { throw e.node.error("state the expected effect: 'direction' (lower or higher), 'ratio', or both") }
        let tolerance = try e.optional("tolerance")?.double() ?? 2
        guard tolerance > 1, tolerance <= 100 else {
            throw try e.required("tolerance").error("a tolerance is a factor above 1 (default 2)")
        }
        let year = try source.required("year").int(in: 1990...2100)
        return ClaimSpec(
            id: try o.required("id").label(),
            source: ClaimSpec.Source(
                document: try source.required("document").string(), year: year, location: try source.required("where").string()),
            statement: statement, subject: subject, against: against, metric: metric,
            expectation: ClaimSpec.Expectation(
                direction: direction, ratio: ratio, figure: try e.optional("figure")?.string(), tolerance: tolerance),
            size: try o.optional("size")?.int(in: 1...1_000_000_000), description: description, path: node.path)
    }

    /// The names a claim uses exist, its workloads run in its variants, and its metric is one
    /// its cases record.
    static func checkClaims(_ claims: [ClaimSpec], variants: [VariantSpec], workloads: [WorkloadSpec], file: String) throws {
        var ids = Set<String>()
        for claim in claims {
            guard ids.insert(claim.id).inserted else {
                throw ScenarioError(file: file, path: claim.path + ".id", message: "duplicate claim id '\(claim.id)'")
            }
            for (key, side) in [("case", claim.subject), ("against", claim.against)] {
                let at = claim.path + "." + key
                guard variants.contains(where: { $0.name == side.variant }) else {
                    throw ScenarioError(
                        file: file, path: at + ".variant",
                        message: "no variant named '\(side.variant)' (variants: \(variants.map(\.name).joined(separator: ", ")))")
                }
                guard let workload = workloads.first(where: { $0.name == side.workload }) else {
                    throw ScenarioError(
                        file: file, path: at + ".workload",
                        message: "no workload named '\(side.workload)' (workloads: \(workloads.map(\.name).joined(separator: ", ")))")
                }
                if let only = workload.variants, !only.contains(side.variant) {
                    throw ScenarioError(
                        file: file, path: at,
                        message:
                            "workload '\(workload.name)' does not run in variant '\(side.variant)' (its variants: \(only.joined(separator: ", ")))"
                    )
                }
                if let why = Self.unrecorded(claim.metric, workload) {
                    throw ScenarioError(file: file, path: claim.path + ".metric", message: "\(claim.metric.rawValue): \(why)")
                }
            }
            if claim.metric == .storeBytes && claim.subject.variant == claim.against.variant {
                throw ScenarioError(
                    file: file, path: claim.path + ".metric",
                    message: "storeBytes compares the stores of two variants; both sides are variant '\(claim.subject.variant)'")
            }
        }
    }

    /// Why a workload's cases do not record `metric`, or nil when they do.
    static func unrecorded(_ metric: ClaimMetric, _ workload: WorkloadSpec) -> String? {
        switch metric {
        case .readP99:
            return workload.kind == .readerUnderWriter || workload.boxes != nil
                ? nil : "workload '\(workload.name)' does not time single reads (only a reader under a writer and a box set do)"
        case .longestWrite:
            return workload.readsOnly ? "workload '\(workload.name)' only reads: it has no write transaction" : nil
        case .instructions:
            return workload.kind.countsInstructions
                ? nil : "the instructions of workload '\(workload.name)' are not counted (\(workload.kind.phrase))"
        case .storeBytes:
            return workload.storeKind == .empty
                ? "workload '\(workload.name)' starts from an empty store; storeBytes compares the filled stores of fetching workloads"
                : nil
        default:
            return nil
        }
    }
}
