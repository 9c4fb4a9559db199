import SchemaLabSQLite

extension ScenarioEncoder {
    static func dataset(_ d: DatasetSpec) -> JSONValue {
        object(
            ScenarioKeys.dataset,
            [
                ("seed", seed(d.seed)),
                ("entity", .string(d.entity)),
                ("counts", .array(d.counts.map(JSONValue.int))),
                ("fields", .array(d.fields.map(field))),
                ("related", list(d.related.map(related))),
            ])
    }

    /// `field` for a generator that fills one, `fields` for one that fills more.
    static func field(_ f: FieldSpec) -> JSONValue {
        object(
            ScenarioKeys.field,
            [
                ("field", f.names.count == 1 ? .string(f.names[0]) : nil),
                ("fields", f.names.count == 1 ? nil : .array(f.names.map(JSONValue.string))),
                ("generator", generator(f.generator)),
                ("optional", flag(f.optional)),
                ("nulls", f.nulls == 0 ? nil : number(f.nulls)),
            ])
    }

    static func related(_ r: RelatedSpec) -> JSONValue {
        object(
            ScenarioKeys.related,
            [
                ("relationship", .string(r.relationship)),
                ("for", r.forEntity.map(JSONValue.string)),
                ("optional", flag(r.optional)),
                (
                    "pool",
                    r.pool.map { p in
                        object(ScenarioKeys.pool, [("count", .int(p.count)), ("fields", list(p.fields.map(field)))])
                    }
                ),
                ("popularity", r.popularity.map { object(ScenarioKeys.popularity, [("zipf", number($0))]) }),
                ("fanOut", generator(r.fanOut)),
                ("fields", list(r.fields.map(field))),
                ("related", list(r.related.map(related))),
            ])
    }

    /// A generator object: `kind`, then its keys that differ from their defaults.
    static func generator(_ g: GeneratorSpec) -> JSONValue {
        let (kind, members) = generatorMembers(g)
        return object(ScenarioKeys.generator(kind), [("kind", .string(kind))] + members)
    }

    private static func generatorMembers(_ g: GeneratorSpec) -> (String, [(String, JSONValue?)]) {
        switch g {
        case .sequence(let start, let step, let prefix):
            return (
                "sequence",
                [("start", unless(start, is: 1, int64)), ("step", unless(step, is: 1, int64)), ("prefix", prefix.map(JSONValue.string))]
            )
        case .uniformInt(let lo, let hi): return ("uniformInt", [("min", int64(lo)), ("max", int64(hi))])
        case .uniformDouble(let lo, let hi): return ("uniformDouble", [("min", number(lo)), ("max", number(hi))])
        case .normal(let mean, let sd, let lo, let hi):
            return ("normal", [("mean", number(mean)), ("stddev", number(sd)), ("min", lo.map(number)), ("max", hi.map(number))])
        case .pareto(let scale, let alpha, let maxV, let roundAbove, let roundTo):
            return (
                "pareto",
                [
                    ("scale", number(scale)), ("alpha", number(alpha)), ("max", int64(maxV)), ("roundAbove", roundAbove.map(int64)),
                    ("roundTo", unless(roundTo, is: 1, int64)),
                ]
            )
        case .cycle(let values):
            return ("cycle", [("values", .array(values.map(scalar)))])
        case .choice(let values, let weights):
            let even = weights.allSatisfy { $0 == 1 } && weights.count == values.count
            return ("choice", [("values", .array(values.map(scalar))), ("weights", even ? nil : .array(weights.map(number)))])
        case .text(let lo, let hi, let words):
            return (
                "text",
                [
                    ("minLength", .int(lo)), ("maxLength", .int(hi)),
                    ("words", unless(words, is: GeneratorSpec.defaultWords) { strings($0)! }),
                ]
            )
        case .uuid(let prefix, let suffix):
            return ("uuid", [("prefix", unless(prefix, is: "", JSONValue.string)), ("suffix", unless(suffix, is: "", JSONValue.string))])
        case .dateRange(let from, let to):
            // The format's `to` is the last day included: the range ends at the next midnight.
            return ("dateRange", [("from", day(from)), ("to", day(to - 86_400))])
        case .clusteredLocation(let clusters, let scatter, let labels):
            return (
                "clusteredLocation",
                [
                    ("clusters", .array(clusters.map(cluster))), ("scatter", unless(scatter, is: 0, number)),
                    ("scatterLabels", unless(labels, is: [""]) { .array($0.map(JSONValue.string)) }),
                ]
            )
        default:
            return derivedMembers(g)
        }
    }

    /// The members of the generators that read something else of the row, and of the
    /// three that take one value.
    private static func derivedMembers(_ g: GeneratorSpec) -> (String, [(String, JSONValue?)]) {
        switch g {
        case .bool(let p): return ("bool", [("probability", number(p))])
        case .bytes(let lo, let hi): return ("bytes", [("minLength", .int(lo)), ("maxLength", .int(hi))])
        case .constant(let v): return ("constant", [("value", scalar(v))])
        case .countOf(let r): return ("countOf", [("relationship", .string(r))])
        case .parentField(let f): return ("parentField", [("field", .string(f))])
        case .derived(let from, let function): return ("derived", [("from", .string(from)), ("function", .string(function.rawValue))])
        case .wordsOf(let f): return ("wordsOf", [("field", .string(f))])
        case .word: return ("word", [])
        case .position: return ("position", [])
        case .joinedOf(let r, let f, let separator):
            return (
                "joinedOf",
                [("relationship", .string(r)), ("field", .string(f)), ("separator", unless(separator, is: ",", JSONValue.string))]
            )
        default:
            preconditionFailure("ScenarioEncoder: \(g) is encoded by generatorMembers")
        }
    }

    static func cluster(_ c: LocationCluster) -> JSONValue {
        object(
            ScenarioKeys.cluster,
            [
                ("latitude", number(c.latitude)), ("longitude", number(c.longitude)), ("sigma", number(c.sigma)),
                ("weight", unless(c.weight, is: 1, number)), ("label", c.label.map(JSONValue.string)),
            ])
    }
}
