import Foundation
import SchemaLabCoreData
import SchemaLabSQLite

extension ScenarioDecoder {
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
        let o = try n.object(allowed: ScenarioKeys.field)
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
        var field = FieldSpec(names: names, generator: g, optional: try o.optional("optional")?.bool() ?? false, path: n.path)
        if let nulls = o.optional("nulls") {
            let share = try nulls.double()
            guard (0...1).contains(share) else { throw nulls.error("a share of rows from 0 to 1, found \(share)") }
            guard g.makesValues else { throw nulls.error("a derived or fan-out generator's field takes no nulls") }
            field.nulls = share
        }
        return field
    }

    /// A generator: its `kind`, then the keys of that kind.
    static func decodeGenerator(_ n: JSONNode) throws -> GeneratorSpec {
        guard case .object(let members) = n.value else { throw n.error("expected an object, found \(n.value.typeName)") }
        guard let kindValue = members.first(where: { $0.key == "kind" })?.value else { throw n.error("missing required key 'kind'") }
        let kind = try n.child("kind", kindValue).choice(ScenarioKeys.generatorKinds)
        switch kind {
        case "sequence", "uniformInt", "uniformDouble", "normal", "pareto": return try numberGenerator(kind, n)
        case "countOf", "derived", "parentField", "wordsOf", "word", "position", "joinedOf": return try derivedGenerator(kind, n)
        default: return try valueGenerator(kind, n)
        }
    }

    /// The generator object `n` with only the keys of its kind (`ScenarioKeys/generators`).
    private static func generatorObject(_ n: JSONNode, _ kind: String) throws -> JSONObject {
        try n.object(allowed: ScenarioKeys.generator(kind))
    }

    private static func number(_ o: JSONObject, _ k: String) throws -> Double { try o.required(k).double() }

    private static func int64(_ o: JSONObject, _ k: String) throws -> Int64 { Int64(try o.required(k).int()) }

    /// Numbers drawn from a distribution: sequence, uniformInt, uniformDouble, normal, pareto.
    private static func numberGenerator(_ kind: String, _ n: JSONNode) throws -> GeneratorSpec {
        switch kind {
        case "sequence":
            let o = try generatorObject(n, "sequence")
            return .sequence(
                start: Int64(try o.optional("start")?.int() ?? 1), step: Int64(try o.optional("step")?.int() ?? 1),
                prefix: try o.optional("prefix")?.string())
        case "uniformInt":
            let o = try generatorObject(n, "uniformInt")
            let lo = try int64(o, "min"), hi = try int64(o, "max")
            guard lo <= hi else { throw n.error("min must not exceed max") }
            return .uniformInt(min: lo, max: hi)
        case "uniformDouble":
            let o = try generatorObject(n, "uniformDouble")
            let lo = try number(o, "min"), hi = try number(o, "max")
            guard lo <= hi else { throw n.error("min must not exceed max") }
            return .uniformDouble(min: lo, max: hi)
        case "normal":
            let o = try generatorObject(n, "normal")
            let sd = try number(o, "stddev")
            guard sd >= 0 else { throw try o.required("stddev").error("stddev must be 0 or greater") }
            return .normal(
                mean: try number(o, "mean"), stddev: sd, min: try o.optional("min")?.double(), max: try o.optional("max")?.double())
        default:  // "pareto"
            let o = try generatorObject(n, "pareto")
            let alpha = try number(o, "alpha"), scale = try number(o, "scale")
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
        }
    }

    /// Values chosen, made or fixed: choice, text, uuid, dateRange, clusteredLocation, bool, bytes, constant.
    private static func valueGenerator(_ kind: String, _ n: JSONNode) throws -> GeneratorSpec {
        switch kind {
        case "choice":
            let o = try generatorObject(n, "choice")
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
        case "cycle":
            let o = try generatorObject(n, "cycle")
            return .cycle(values: try o.required("values").nonEmptyArray().map(scalarValue))
        case "text":
            let o = try generatorObject(n, "text")
            let lo = try o.required("minLength").int(in: 0...1_000_000), hi = try o.required("maxLength").int(in: 0...1_000_000)
            guard lo <= hi else { throw n.error("minLength must not exceed maxLength") }
            let words =
                try o.optional("words")?.nonEmptyArray().map { w -> String in
                    let s = try w.string()
                    guard !s.isEmpty else { throw w.error("a word must not be empty: text is made by joining words up to its length") }
                    return s
                } ?? GeneratorSpec.defaultWords
            return .text(minLength: lo, maxLength: hi, words: words)
        case "uuid":
            let o = try generatorObject(n, "uuid")
            return .uuid(prefix: try o.optional("prefix")?.string() ?? "", suffix: try o.optional("suffix")?.string() ?? "")
        case "dateRange":
            let o = try generatorObject(n, "dateRange")
            let from = try parseDay(o.required("from")), to = try parseDay(o.required("to"))
            guard from <= to else { throw n.error("'from' must not be after 'to'") }
            return .dateRange(from: from, to: to + 86_400)
        case "clusteredLocation":
            let o = try generatorObject(n, "clusteredLocation")
            let clusters = try o.required("clusters").nonEmptyArray().map { c -> LocationCluster in
                let co = try c.object(allowed: ScenarioKeys.cluster)
                return LocationCluster(
                    latitude: try number(co, "latitude"), longitude: try number(co, "longitude"),
                    sigma: try number(co, "sigma"), weight: try co.optional("weight")?.double() ?? 1,
                    label: try co.optional("label")?.string())
            }
            let scatter = try o.optional("scatter")?.double() ?? 0
            guard (0...1).contains(scatter) else { throw try o.required("scatter").error("scatter is a fraction in 0...1") }
            return .clusteredLocation(
                clusters: clusters, scatter: scatter,
                scatterLabels: try o.optional("scatterLabels")?.nonEmptyArray().map { try $0.string() } ?? [""])
        case "bool":
            let o = try generatorObject(n, "bool")
            let p = try number(o, "probability")
            guard (0...1).contains(p) else { throw try o.required("probability").error("probability is in 0...1") }
            return .bool(probability: p)
        case "bytes":
            let o = try generatorObject(n, "bytes")
            let lo = try o.required("minLength").int(in: 0...100_000_000), hi = try o.required("maxLength").int(in: 0...100_000_000)
            guard lo <= hi else { throw n.error("minLength must not exceed maxLength") }
            return .bytes(minLength: lo, maxLength: hi)
        default:  // "constant"
            let o = try generatorObject(n, "constant")
            return .constant(try scalarValue(o.required("value")))
        }
    }

    /// Values derived from the row, its parent or its relationships: countOf, derived, parentField, wordsOf, word, position, joinedOf.
    private static func derivedGenerator(_ kind: String, _ n: JSONNode) throws -> GeneratorSpec {
        switch kind {
        case "countOf":
            let o = try generatorObject(n, "countOf")
            return .countOf(relationship: try o.required("relationship").identifier())
        case "derived":
            let o = try generatorObject(n, "derived")
            let f = DerivedFunction(rawValue: try o.required("function").choice(DerivedFunction.allCases.map(\.rawValue)))!
            return .derived(from: try o.required("from").identifier(), function: f)
        case "parentField":
            let o = try generatorObject(n, "parentField")
            return .parentField(field: try o.required("field").identifier())
        case "wordsOf":
            let o = try generatorObject(n, "wordsOf")
            return .wordsOf(field: try o.required("field").identifier())
        case "word":
            _ = try generatorObject(n, "word")
            return .word
        case "position":
            _ = try generatorObject(n, "position")
            return .position
        default:  // "joinedOf"
            let o = try generatorObject(n, "joinedOf")
            let separator = try o.optional("separator")?.string() ?? ","
            guard !separator.isEmpty else { throw try o.required("separator").error("the separator must not be empty") }
            return .joinedOf(
                relationship: try o.required("relationship").identifier(), field: try o.required("field").identifier(),
                separator: separator)
        }
    }

    static func scalarValue(_ n: JSONNode) throws -> SQLValue {
        switch n.value {
        case .string(let s): return .text(s)
        case .number(let d, let literal):
            if !literal.contains("."), !literal.lowercased().contains("e"), let i = Int64(literal) { return .integer(i) }
            return .real(d)
        case .bool(let b): return .integer(b ? 1 : 0)
        case .object:
            // Bytes a UUID or binary attribute holds: `{"uuid": "..."}` or `{"base64": "..."}`.
            let o = try n.object(allowed: ["uuid", "base64"])
            guard o.has("uuid") || o.has("base64") else { throw n.error("a value object is {\"uuid\": ...} or {\"base64\": ...}") }
            guard case .bytes(let bytes) = try predicateArgument(n) else { throw n.error("expected bytes") }
            return .blob(bytes)
        default: throw n.error("expected a string, number, boolean, {\"uuid\": ...} or {\"base64\": ...}, found \(n.value.typeName)")
        }
    }

    /// "YYYY-MM-DD" as seconds since 2001-01-01 UTC (Core Data's TIMESTAMP).
    static func parseDay(_ n: JSONNode) throws -> Double {
        let s = try n.string()
        guard let seconds = CivilDate.midnight(day: s) else { throw n.error("expected a date as \"YYYY-MM-DD\", found \"\(s)\"") }
        return seconds
    }
}
