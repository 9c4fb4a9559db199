import Foundation
import SchemaLabCoreData
import SchemaLabSQLite

extension ScenarioDecoder {
    static func decodeDataset(_ n: JSONNode) throws -> DatasetSpec {
        let o = try n.object(allowed: ScenarioKeys.dataset)
        let seedNode = try o.required("seed")
        let seed = try seedNode.int()
        guard seed >= 0 else { throw seedNode.error("the seed must be 0 or greater") }
        let counts = try decodeCounts(o.required("counts"))
        let fields = try decodeFields(o.required("fields").nonEmptyArray(), in: n)
        let related = try decodeRelatedList(o.optional("related"), atRoot: true)
        try checkNestedFanOut(related, above: 1, file: n.file)
        try checkDerived(fields, related: related, parentFields: nil, inPool: false, file: n.file)
        return DatasetSpec(
            seed: UInt64(seed), entity: try o.required("entity").identifier(), counts: counts, fields: fields,
            related: related, path: n.path)
    }

    /// `counts`: a list of sizes, or a sweep `{"from", "to", "steps", "scale": "log"|"linear"}`.
    static func decodeCounts(_ n: JSONNode) throws -> [Int] {
        func count(_ c: JSONNode) throws -> Int {
            let v = try c.int()
            guard v > 0 else { throw c.error("a count must be greater than 0, found \(v)") }
            guard v <= 50_000_000 else { throw c.error("a count must be at most 50000000, found \(v)") }
            return v
        }
        if case .object = n.value {
            let o = try n.object(allowed: ScenarioKeys.sweep)
            let from = try count(o.required("from")), to = try count(o.required("to"))
            guard to > from else { throw try o.required("to").error("a sweep goes up: 'to' (\(to)) must be greater than 'from' (\(from))") }
            let steps = try o.required("steps").int(in: 2...50)
            let scale =
                try o.optional("scale").map { try SizeSweep.Scale(rawValue: $0.choice(SizeSweep.Scale.allCases.map(\.rawValue)))! } ?? .log
            return SizeSweep(from: from, to: to, steps: steps, scale: scale).sizes
        }
        let nodes = try n.nonEmptyArray()
        let counts = try nodes.map(count)
        for (i, c) in counts.enumerated().dropFirst() where counts[..<i].contains(c) {
            throw nodes[i].error("the size \(c) is listed twice")
        }
        return counts
    }

    /// Fields of one level (the root, a related entry or a pool); a name generated twice is an error.
    static func decodeFields(_ nodes: [JSONNode], in n: JSONNode) throws -> [FieldSpec] {
        let fields = try nodes.map(decodeField)
        var seen = Set<String>()
        for f in fields {
            for name in f.names where !seen.insert(name).inserted {
                throw ScenarioError(file: n.file, path: f.path, message: "field '\(name)' is generated twice")
            }
        }
        return fields
    }

    /// A `related` list: the root data set's (`atRoot`) or a related entry's.
    static func decodeRelatedList(_ n: JSONNode?, atRoot: Bool) throws -> [RelatedSpec] {
        guard let n else { return [] }
        let list = try n.array().map { try decodeRelated($0, atRoot: atRoot) }
        // One entry per relationship (per entity an entry is `for`: two roots may share a name).
        var seen = Set<String>()
        for r in list where !seen.insert((r.forEntity.map { $0 + "/" } ?? "") + r.relationship).inserted {
            throw ScenarioError(file: n.file, path: r.path + ".relationship", message: "relationship '\(r.relationship)' is filled twice")
        }
        return list
    }

    /// A related entry; its random streams are named by the data set (``RelatedSpec/relationshipPath``).
    static func decodeRelated(_ n: JSONNode, atRoot: Bool) throws -> RelatedSpec {
        let o = try n.object(allowed: ScenarioKeys.related)
        let name = try o.required("relationship").identifier()
        let fanOut = try decodeFanOut(o.required("fanOut"))
        var pool: PoolSpec?
        var popularity: Double?
        if let p = o.optional("pool") {
            for key in ["fields", "related"] where o.has(key) {
                throw n.child(key, .null).error(
                    "a pool entry takes its fields inside 'pool' and cannot nest 'related': pool members are shared by many rows")
            }
            let po = try p.object(allowed: ScenarioKeys.pool)
            let count = try po.required("count").int(in: 1...10_000_000)
            let fields = try po.optional("fields").map { try decodeFields($0.array(), in: p) } ?? []
            pool = PoolSpec(count: count, fields: fields, path: p.path)
            if let pop = o.optional("popularity") {
                let po = try pop.object(allowed: ScenarioKeys.popularity)
                let z = try po.required("zipf")
                let s = try z.double()
                guard s >= 0, s <= 10 else { throw z.error("the zipf exponent must be in 0...10, found \(s)") }
                popularity = s
            }
        } else if let pop = o.optional("popularity") {
            throw pop.error("popularity weights the members of a pool: give it together with 'pool'")
        }
        let fields = try o.optional("fields").map { try decodeFields($0.array(), in: n) } ?? []
        let related = try decodeRelatedList(o.optional("related"), atRoot: false)
        if case .wordsOf = fanOut, let p = o.optional("pool") {
            throw p.error("a wordsOf fan-out makes new children, one per word: it takes no pool")
        }
        var spec = RelatedSpec(
            relationship: name, pool: pool, popularity: popularity, fanOut: fanOut, fields: fields, related: related, path: n.path)
        spec.optional = try o.optional("optional")?.bool() ?? false
        if let f = o.optional("for") {
            guard atRoot else { throw f.error("'for' belongs to an entry of the root data set (its rows choose their entity)") }
            spec.forEntity = try f.identifier()
        }
        return spec
    }

    /// A fan-out: an integer generator whose values are all 0 or greater.
    static func decodeFanOut(_ n: JSONNode) throws -> GeneratorSpec {
        let g = try decodeGenerator(n)
        if case .wordsOf = g { return g }
        func negative(_ key: String, _ v: Int64) -> ScenarioError {
            n.child(key, .null).error("a fan-out must be 0 or greater, found \(v)")
        }
        switch g {
        case .constant(let v):
            guard case .integer(let i) = v else { throw n.child("value", .null).error("a fan-out must be an integer, found \(v)") }
            guard i >= 0 else { throw negative("value", i) }
            guard i <= maxFanOut else { throw n.child("value", .null).error("a fan-out must be at most \(maxFanOut), found \(i)") }
        case .uniformInt(let lo, let hi):
            guard lo >= 0 else { throw negative("min", lo) }
            guard hi <= maxFanOut else { throw n.child("max", .null).error("a fan-out must be at most \(maxFanOut), found \(hi)") }
        case .pareto(_, _, let maxV, _, _):
            guard maxV <= maxFanOut else { throw n.child("max", .null).error("a fan-out must be at most \(maxFanOut), found \(maxV)") }
        case .choice(let values, _):
            for (i, v) in values.enumerated() {
                let path = n.path + ".values[\(i)]"
                guard case .integer(let x) = v else {
                    throw ScenarioError(file: n.file, path: path, message: "a fan-out must be an integer, found \(v)")
                }
                guard x >= 0, x <= maxFanOut else {
                    throw ScenarioError(file: n.file, path: path, message: "a fan-out must be in 0...\(maxFanOut), found \(x)")
                }
            }
        default:
            throw n.child("kind", .null).error("a fan-out takes an integer generator: constant, uniformInt, pareto or choice (or wordsOf)")
        }
        return g
    }

    /// The least share of pareto draws that may fall at or below `max` (the rest are redrawn).
    static let minParetoAcceptance = 0.01

    /// Refuses nested fan-outs whose product could give one root row more than ``maxFanOut``
    /// descendants (1000000 x 1000000 would not fit in memory for even a few root rows).
    static func checkNestedFanOut(_ related: [RelatedSpec], above: Int64, file: String) throws {
        for r in related where r.pool == nil {
            let most = largestFanOut(r.fanOut)
            let product = above.multipliedReportingOverflow(by: most)
            guard !product.overflow, product.partialValue <= maxFanOut else {
                throw ScenarioError(
                    file: file, path: r.path + ".fanOut",
                    message: "nested fan-outs reach up to \(above) x \(most) objects per root row: at most \(maxFanOut)")
            }
            try checkNestedFanOut(r.related, above: product.partialValue, file: file)
        }
    }

    /// The largest value a (checked) fan-out generator gives.
    static func largestFanOut(_ g: GeneratorSpec) -> Int64 {
        switch g {
        case .constant(let v): return v.integerValue ?? 0
        case .uniformInt(_, let hi): return hi
        case .pareto(_, _, let maxV, _, _): return maxV
        case .choice(let values, _): return values.compactMap(\.integerValue).max() ?? 0
        default: return maxFanOut
        }
    }

    /// The largest fan-out of one row.
    static let maxFanOut: Int64 = 1_000_000
}
