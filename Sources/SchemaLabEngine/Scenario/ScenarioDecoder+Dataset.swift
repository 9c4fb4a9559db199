extension ScenarioDecoder {
    static func decodeDataset(_ n: JSONNode) throws -> DatasetSpec {
        let o = try n.object(allowed: ["seed", "entity", "counts", "fields", "related"])
        let seedNode = try o.required("seed")
        let seed = try seedNode.int()
        guard seed >= 0 else { throw seedNode.error("the seed must be 0 or greater") }
        let counts = try decodeCounts(o.required("counts"))
        let fields = try decodeFields(o.required("fields").nonEmptyArray(), in: n)
        let related = try decodeRelatedList(o.optional("related"), parentPath: "")
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
            let o = try n.object(allowed: ["from", "to", "steps", "scale"])
            let from = try count(o.required("from")), to = try count(o.required("to"))
            guard to > from else { throw try o.required("to").error("a sweep goes up: 'to' (\(to)) must be greater than 'from' (\(from))") }
            let steps = try o.required("steps").int(in: 2...50)
            let scale = try o.optional("scale").map { try SizeSweep.Scale(rawValue: $0.choice(["log", "linear"]))! } ?? .log
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

    static func decodeRelatedList(_ n: JSONNode?, parentPath: String) throws -> [RelatedSpec] {
        guard let n else { return [] }
        let list = try n.array().map { try decodeRelated($0, parentPath: parentPath) }
        // One entry per relationship (per entity an entry is `for`: two roots may share a name).
        var seen = Set<String>()
        for r in list where !seen.insert((r.forEntity.map { $0 + "/" } ?? "") + r.relationship).inserted {
            throw ScenarioError(file: n.file, path: r.path + ".relationship", message: "relationship '\(r.relationship)' is filled twice")
        }
        return list
    }

    static func decodeRelated(_ n: JSONNode, parentPath: String) throws -> RelatedSpec {
        let o = try n.object(allowed: ["relationship", "fanOut", "fields", "related", "pool", "popularity", "optional", "for"])
        let name = try o.required("relationship").identifier()
        let relPath = parentPath.isEmpty ? name : parentPath + "." + name
        let fanOut = try decodeFanOut(o.required("fanOut"))
        var pool: PoolSpec?
        var popularity: Double?
        if let p = o.optional("pool") {
            for key in ["fields", "related"] where o.has(key) {
                throw n.child(key, .null).error(
                    "a pool entry takes its fields inside 'pool' and cannot nest 'related': pool members are shared by many rows")
            }
            let po = try p.object(allowed: ["count", "fields"])
            let count = try po.required("count").int(in: 1...10_000_000)
            let fields = try po.optional("fields").map { try decodeFields($0.array(), in: p) } ?? []
            pool = PoolSpec(count: count, fields: fields, path: p.path)
            if let pop = o.optional("popularity") {
                let po = try pop.object(allowed: ["zipf"])
                let z = try po.required("zipf")
                let s = try z.double()
                guard s >= 0, s <= 10 else { throw z.error("the zipf exponent must be in 0...10, found \(s)") }
                popularity = s
            }
        } else if let pop = o.optional("popularity") {
            throw pop.error("popularity weights the members of a pool: give it together with 'pool'")
        }
        let fields = try o.optional("fields").map { try decodeFields($0.array(), in: n) } ?? []
        let related = try decodeRelatedList(o.optional("related"), parentPath: relPath)
        if case .wordsOf = fanOut, let p = o.optional("pool") {
            throw p.error("a wordsOf fan-out makes new children, one per word: it takes no pool")
        }
        var spec = RelatedSpec(
            relationship: name, fanOut: fanOut, fields: fields, pool: pool, popularity: popularity,
            related: related, relationshipPath: relPath, path: n.path)
        spec.optional = try o.optional("optional")?.bool() ?? false
        if let f = o.optional("for") {
            guard parentPath.isEmpty else { throw f.error("'for' belongs to an entry of the root data set (its rows choose their entity)") }
            spec.forEntity = try f.identifier()
            // Its own random streams, apart from another root's entry of the same name.
            spec.relationshipPath = spec.forEntity! + "/" + relPath
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

    /// Checks the derived generators of one level: `countOf` names one of the level's
    /// `related` relationships; `parentField` names a field of the parent level.
    static func checkDerived(
        _ fields: [FieldSpec], related: [RelatedSpec], parentFields: [FieldSpec]?, inPool: Bool, file: String,
        wordChildren: Bool = false
    ) throws {
        for r in related {
            guard case .wordsOf(let field) = r.fanOut else { continue }
            guard let source = fields.first(where: { $0.names.contains(field) }) else {
                throw ScenarioError(
                    file: file, path: r.path + ".fanOut.field", message: "wordsOf names '\(field)', which this level does not generate")
            }
            if ValueKind.produced(by: source)[field].map({ !$0.isSubset(of: [.text, .null]) }) ?? false {
                throw ScenarioError(
                    file: file, path: r.path + ".fanOut.field", message: "wordsOf needs a text field; '\(field)' is not one")
            }
            if case .joinedOf = source.generator {
                throw ScenarioError(
                    file: file, path: r.path + ".fanOut.field",
                    message: "wordsOf cannot read '\(field)', a joinedOf field (it is joined after the related rows exist)")
            }
        }
        for (i, f) in fields.enumerated() {
            let g = f.path + ".generator"
            switch f.generator {
            case .word:
                if !wordChildren {
                    throw ScenarioError(file: file, path: g, message: "word is the field of a related entry whose fan-out is wordsOf")
                }
            case .position:
                if parentFields == nil || inPool {
                    throw ScenarioError(
                        file: file, path: g,
                        message:
                            "position is the field of a related entry's children (their place among a parent's children); \(inPool ? "a pool member is shared by many parents" : "the root entity has no parent row")"
                    )
                }
            case .joinedOf(let r, let field, _):
                guard let entry = related.first(where: { $0.relationship == r }) else {
                    throw ScenarioError(
                        file: file, path: g + ".relationship", message: "joinedOf names '\(r)', which is not a relationship filled here")
                }
                let memberFields = entry.pool?.fields ?? entry.fields
                guard memberFields.contains(where: { $0.names.contains(field) }) else {
                    throw ScenarioError(
                        file: file, path: g + ".field",
                        message:
                            "joinedOf names '\(field)', which the members of '\(r)' do not have (fields: \(memberFields.flatMap(\.names).joined(separator: ", ")))"
                    )
                }
            case .derived(let from, _):
                guard let source = fields[..<i].first(where: { $0.names.contains(from) }) else {
                    throw ScenarioError(
                        file: file, path: g + ".from",
                        message: "derived names '\(from)', which is not a field generated before it at this level")
                }
                switch source.generator {
                case .text, .uuid, .bytes, .bool, .word, .joinedOf, .sequence(_, _, .some):
                    throw ScenarioError(
                        file: file, path: g + ".from", message: "derived needs a numeric or date field; '\(from)' is not one")
                default: break
                }
            case .countOf(let r):
                if let entry = related.first(where: { $0.relationship == r }), case .wordsOf = entry.fanOut {
                    throw ScenarioError(
                        file: file, path: g + ".relationship",
                        message: "countOf cannot count a wordsOf relationship (its fan-out is known only after the fields)")
                }
                guard related.contains(where: { $0.relationship == r }) else {
                    let have = related.map(\.relationship)
                    let why =
                        inPool
                        ? "a pool member fills no relationships"
                        : have.isEmpty ? "this level's 'related' is empty" : "this level's 'related' fills \(have.joined(separator: ", "))"
                    throw ScenarioError(
                        file: file, path: g + ".relationship",
                        message: "countOf names '\(r)', which is not a relationship filled here: \(why)")
                }
            case .parentField(let name):
                if inPool {
                    throw ScenarioError(
                        file: file, path: g, message: "parentField cannot be used in a pool: a pool member is shared by many parent rows")
                }
                guard let parent = parentFields else {
                    throw ScenarioError(
                        file: file, path: g, message: "parentField is for the fields of a related entry: the root entity has no parent row")
                }
                if let source = parent.first(where: { $0.names.contains(name) }), case .joinedOf = source.generator {
                    throw ScenarioError(
                        file: file, path: g + ".field",
                        message: "parentField cannot read '\(name)', a joinedOf field (it is joined after the related rows exist)")
                }
                guard parent.contains(where: { $0.names.contains(name) }) else {
                    throw ScenarioError(
                        file: file, path: g + ".field",
                        message:
                            "parentField names '\(name)', which the parent level does not generate (fields: \(parent.flatMap(\.names).joined(separator: ", ")))"
                    )
                }
            default: break
            }
        }
        for r in related {
            if let pool = r.pool {
                try checkDerived(pool.fields, related: [], parentFields: nil, inPool: true, file: file)
            } else {
                var wordChildren = false
                if case .wordsOf = r.fanOut { wordChildren = true }
                try checkDerived(r.fields, related: r.related, parentFields: fields, inPool: false, file: file, wordChildren: wordChildren)
            }
        }
    }

    static let generatorKinds = [
        "sequence", "uniformInt", "uniformDouble", "normal", "pareto", "choice", "text", "uuid",
        "dateRange", "clusteredLocation", "bool", "bytes", "constant", "countOf", "parentField", "derived",
        "wordsOf", "word", "joinedOf", "position",
    ]

    /// A field's name: an attribute name (`likes`: every attribute of that name the row
    /// reaches), or `Entity.attribute` (that entity's attribute only).
    static func fieldName(_ n: JSONNode) throws -> String {
        let s = try n.string()
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ Identifier.isPlainName(String($0)) }) else {
            throw n.error("'\(s)' is not a field name: an attribute name, or Entity.attribute for one entity's attribute")
        }
        return s
    }

    static func decodeField(_ n: JSONNode) throws -> FieldSpec {
        let o = try n.object(allowed: ["field", "fields", "generator", "optional"])
        let names: [String]
        if let f = o.optional("field") {
            if o.has("fields") { throw n.error("give 'field' or 'fields', not both") }
            names = [try fieldName(f)]
        } else if let fs = o.optional("fields") {
            names = try fs.nonEmptyArray().map(fieldName)
        } else {
            throw n.error("missing required key 'field' (or 'fields')")
        }
        let g = try decodeGenerator(o.required("generator"))
        if case .wordsOf = g {
            throw try o.required("generator").child("kind", .null).error("wordsOf is a related entry's fan-out, not a field's generator")
        }
        guard g.fieldCounts.contains(names.count) else {
            let want =
                g.fieldCounts.count == 1 ? "\(g.fieldCounts.lowerBound)" : "\(g.fieldCounts.lowerBound) or \(g.fieldCounts.upperBound)"
            throw n.error("this generator fills \(want) field(s), \(names.count) given")
        }
        return FieldSpec(names: names, generator: g, optional: try o.optional("optional")?.bool() ?? false, path: n.path)
    }

    static func decodeGenerator(_ n: JSONNode) throws -> GeneratorSpec {
        guard case .object(let members) = n.value else { throw n.error("expected an object, found \(n.value.typeName)") }
        guard let kindValue = members.first(where: { $0.key == "kind" })?.value else { throw n.error("missing required key 'kind'") }
        let kind = try n.child("kind", kindValue).choice(generatorKinds)
        func obj(_ keys: [String]) throws -> JSONObject { try n.object(allowed: ["kind"] + keys) }
        func num(_ o: JSONObject, _ k: String) throws -> Double { try o.required(k).double() }
        func int64(_ o: JSONObject, _ k: String) throws -> Int64 { Int64(try o.required(k).int()) }
        switch kind {
        case "sequence":
            let o = try obj(["start", "step", "prefix"])
            return .sequence(
                start: Int64(try o.optional("start")?.int() ?? 1), step: Int64(try o.optional("step")?.int() ?? 1),
                prefix: try o.optional("prefix")?.string())
        case "uniformInt":
            let o = try obj(["min", "max"])
            let lo = try int64(o, "min"), hi = try int64(o, "max")
            guard lo <= hi else { throw n.error("min must not exceed max") }
            return .uniformInt(min: lo, max: hi)
        case "uniformDouble":
            let o = try obj(["min", "max"])
            let lo = try num(o, "min"), hi = try num(o, "max")
            guard lo <= hi else { throw n.error("min must not exceed max") }
            return .uniformDouble(min: lo, max: hi)
        case "normal":
            let o = try obj(["mean", "stddev", "min", "max"])
            let sd = try num(o, "stddev")
            guard sd >= 0 else { throw try o.required("stddev").error("stddev must be 0 or greater") }
            return .normal(mean: try num(o, "mean"), stddev: sd, min: try o.optional("min")?.double(), max: try o.optional("max")?.double())
        case "pareto":
            let o = try obj(["scale", "alpha", "max", "roundAbove", "roundTo"])
            let alpha = try num(o, "alpha"), scale = try num(o, "scale")
            guard alpha > 0, scale > 0 else { throw n.error("scale and alpha must be greater than 0") }
            let maxV = try int64(o, "max")
            guard maxV >= 0 else { throw try o.required("max").error("max must be 0 or greater") }
            // Draws above max are redrawn: refuse parameters that would redraw (nearly) forever.
            let accepted = -expm1(-alpha * log1p((Double(maxV) + 1) / scale))
            guard accepted >= minParetoAcceptance else {
                throw n.error(
                    "with scale \(scale) and alpha \(alpha), only \(accepted) of the draws are at most max \(maxV) (the rest are redrawn): at least \(minParetoAcceptance) must be; raise max or alpha, or lower scale"
                )
            }
            let roundTo = Int64(try o.optional("roundTo")?.int(in: 1...1_000_000) ?? 1)
            return .pareto(
                scale: scale, alpha: alpha, max: maxV, roundAbove: try o.optional("roundAbove").map { Int64(try $0.int()) },
                roundTo: roundTo)
        case "choice":
            let o = try obj(["values", "weights", "zipf"])
            let values = try o.required("values").nonEmptyArray().map(scalarValue)
            var weights: [Double]
            if let w = o.optional("weights") {
                if o.has("zipf") { throw n.error("give 'weights' or 'zipf', not both") }
                weights = try w.array().map { try $0.double() }
                guard weights.count == values.count else { throw w.error("\(weights.count) weights for \(values.count) values") }
                guard weights.allSatisfy({ $0 >= 0 }), weights.contains(where: { $0 > 0 }) else {
                    throw w.error("weights must be 0 or greater, and not all 0")
                }
            } else if let z = o.optional("zipf") {
                let s = try z.double()
                weights = values.indices.map { 1.0 / pow(Double($0) + 1.0, s) }
            } else {
                weights = Array(repeating: 1, count: values.count)
            }
            return .choice(values: values, weights: weights)
        case "text":
            let o = try obj(["minLength", "maxLength", "words"])
            let lo = try o.required("minLength").int(in: 0...1_000_000), hi = try o.required("maxLength").int(in: 0...1_000_000)
            guard lo <= hi else { throw n.error("minLength must not exceed maxLength") }
            let words =
                try o.optional("words")?.nonEmptyArray().map { w -> String in
                    let s = try w.string()
                    guard !s.isEmpty else { throw w.error("a word must not be empty: text is made by joining words up to its length") }
                    return s
                } ?? TextWords.defaultWords
            return .text(minLength: lo, maxLength: hi, words: words)
        case "uuid":
            let o = try obj(["prefix", "suffix"])
            return .uuid(prefix: try o.optional("prefix")?.string() ?? "", suffix: try o.optional("suffix")?.string() ?? "")
        case "dateRange":
            let o = try obj(["from", "to"])
            let from = try parseDay(o.required("from")), to = try parseDay(o.required("to"))
            guard from <= to else { throw n.error("'from' must not be after 'to'") }
            return .dateRange(from: from, to: to + 86_400)
        case "clusteredLocation":
            let o = try obj(["clusters", "scatter", "scatterLabels"])
            let clusters = try o.required("clusters").nonEmptyArray().map { c -> LocationCluster in
                let co = try c.object(allowed: ["latitude", "longitude", "sigma", "weight", "label"])
                return LocationCluster(
                    latitude: try num(co, "latitude"), longitude: try num(co, "longitude"),
                    sigma: try num(co, "sigma"), weight: try co.optional("weight")?.double() ?? 1,
                    label: try co.optional("label")?.string())
            }
            let scatter = try o.optional("scatter")?.double() ?? 0
            guard (0...1).contains(scatter) else { throw try o.required("scatter").error("scatter is a fraction in 0...1") }
            return .clusteredLocation(
                clusters: clusters, scatter: scatter,
                scatterLabels: try o.optional("scatterLabels")?.nonEmptyArray().map { try $0.string() } ?? [""])
        case "bool":
            let o = try obj(["probability"])
            let p = try num(o, "probability")
            guard (0...1).contains(p) else { throw try o.required("probability").error("probability is in 0...1") }
            return .bool(probability: p)
        case "bytes":
            let o = try obj(["minLength", "maxLength"])
            let lo = try o.required("minLength").int(in: 0...100_000_000), hi = try o.required("maxLength").int(in: 0...100_000_000)
            guard lo <= hi else { throw n.error("minLength must not exceed maxLength") }
            return .bytes(minLength: lo, maxLength: hi)
        case "countOf":
            let o = try obj(["relationship"])
            return .countOf(relationship: try o.required("relationship").identifier())
        case "derived":
            let o = try obj(["from", "function"])
            let f = DerivedFunction(rawValue: try o.required("function").choice(DerivedFunction.allCases.map(\.rawValue)))!
            return .derived(from: try o.required("from").identifier(), function: f)
        case "parentField":
            let o = try obj(["field"])
            return .parentField(field: try o.required("field").identifier())
        case "wordsOf":
            let o = try obj(["field"])
            return .wordsOf(field: try o.required("field").identifier())
        case "word":
            _ = try obj([])
            return .word
        case "position":
            _ = try obj([])
            return .position
        case "joinedOf":
            let o = try obj(["relationship", "field", "separator"])
            let separator = try o.optional("separator")?.string() ?? ","
            guard !separator.isEmpty else { throw try o.required("separator").error("the separator must not be empty") }
            return .joinedOf(
                relationship: try o.required("relationship").identifier(), field: try o.required("field").identifier(),
                separator: separator)
        default:  // "constant"
            let o = try obj(["value"])
            return .constant(try scalarValue(o.required("value")))
        }
    }

    static func scalarValue(_ n: JSONNode) throws -> SQLValue {
        switch n.value {
        case .string(let s): return .text(s)
        case .number(let d, let literal):
            if !literal.contains("."), !literal.lowercased().contains("e"), let i = Int64(literal) { return .integer(i) }
            return .real(d)
        case .bool(let b): return .integer(b ? 1 : 0)
        default: throw n.error("expected a string, number or boolean, found \(n.value.typeName)")
        }
    }

    /// "YYYY-MM-DD" as seconds since 2001-01-01 UTC (Core Data's TIMESTAMP).
    static func parseDay(_ n: JSONNode) throws -> Double {
        let s = try n.string()
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            (1...12).contains(m), (1...31).contains(d)
        else {
            throw n.error("expected a date as \"YYYY-MM-DD\", found \"\(s)\"")
        }
        return Double(CivilDate.daysSince2001(year: y, month: m, day: d)) * 86_400
    }
}

import Foundation
import SchemaLabSQLite
import SchemaLabCoreData
