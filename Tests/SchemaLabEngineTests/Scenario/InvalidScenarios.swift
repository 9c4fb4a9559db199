import Foundation

/// A scenario that both schema.json and the decoder must reject: a small edit of
/// ``InvalidScenarios/base()``, with the JSON path the decoder reports it at.
struct InvalidScenario {
    /// What is wrong, for test messages.
    let name: String
    /// The decoder's error path (the schema's error must be at it or at an enclosing object).
    let at: String
    /// Paths (object keys and array indexes) and the value each is set to; nil removes the key or element.
    let edits: [(path: [Any], value: Any?)]

    init(_ name: String, at: String, set path: [Any], to value: Any) {
        self.init(name, at: at, edits: [(path, value)])
    }

    init(_ name: String, at: String, remove path: [Any]) {
        self.init(name, at: at, edits: [(path, nil)])
    }

    init(_ name: String, at: String, edits: [(path: [Any], value: Any?)]) {
        self.name = name
        self.at = at
        self.edits = edits
    }

    /// The base document with the edits applied.
    func document() -> Any {
        edits.reduce(InvalidScenarios.base() as Any) { InvalidScenarios.setting($1.value, at: $1.path[...], in: $0) }
    }
}

/// The valid base document and the table of invalid edits of it.
enum InvalidScenarios {
    /// A valid scenario that uses most parts of the format (decoded and planned by the tests).
    static func base() -> [String: Any] {
        [
            "$schema": "schema.json",
            "format": 1, "name": "schema-base", "description": "Base of the invalid-document table.",
            "variants": [
                [
                    "name": "A",
                    "entities": [
                        [
                            "name": "Item",
                            "attributes": [
                                ["name": "rank", "type": "integer32"], ["name": "title", "type": "string"],
                                ["name": "serial", "type": "integer64"], ["name": "payload", "type": "binary"],
                                ["name": "source", "type": "string"],
                            ],
                            "relationships": [["name": "tags", "destination": "Tag", "toMany": true, "inverse": "items"]],
                        ],
                        [
                            "name": "Tag", "attributes": [["name": "label", "type": "string"]],
                            "relationships": [["name": "items", "destination": "Item", "toMany": true, "inverse": "tags"]],
                        ],
                    ],
                    "indexes": [["name": "byRank", "entity": "Item", "elements": ["rank"]]],
                ],
                [
                    "name": "B", "extends": "A",
                    "addIndexes": [["name": "byTitle", "entity": "Item", "elements": [["key": "title", "order": "descending"]]]],
                ],
            ],
            "dataset": [
                "seed": 1, "entity": "Item", "counts": [10, 20],
                "fields": [
                    ["field": "rank", "generator": ["kind": "uniformInt", "min": 0, "max": 9]],
                    ["field": "title", "generator": ["kind": "text", "minLength": 3, "maxLength": 12]],
                    ["field": "serial", "generator": ["kind": "sequence", "start": 100, "step": 2]],
                    ["field": "payload", "generator": ["kind": "bytes", "minLength": 0, "maxLength": 8], "optional": true],
                    ["field": "source", "generator": ["kind": "constant", "value": "seed"]],
                ],
                "related": [
                    [
                        "relationship": "tags", "fanOut": ["kind": "uniformInt", "min": 0, "max": 3],
                        "pool": ["count": 5, "fields": [["field": "label", "generator": ["kind": "uuid", "prefix": "tag-"]]]],
                        "popularity": ["zipf": 1.0],
                    ]
                ],
            ],
            "workloads": [
                ["name": "insert", "kind": "insert"],
                ["name": "by-rank", "kind": "fetch", "sort": ["rank"], "predicate": "rank > %@", "arguments": [3], "touch": 5],
                [
                    "name": "sections", "kind": "fetchedResults", "sort": ["rank", ["key": "title", "ascending": false]],
                    "sectionKey": "rank", "batchSize": 10,
                ],
                [
                    "name": "per-rank", "kind": "fetch", "resultType": "dictionaries", "groupBy": ["rank"],
                    "propertiesToFetch": ["rank", ["name": "n", "function": "count", "key": "title"]],
                ],
                [
                    "name": "faults", "kind": "fetch", "sort": [["key": "serial", "ascending": true]], "fetchLimit": 5, "fetchOffset": 1,
                    "returnsObjectsAsFaults": false, "includesPropertyValues": true, "touch": "array", "touchKeys": ["rank"],
                    "prefetch": ["tags"], "variants": ["B"],
                ],
                ["name": "sources", "kind": "fetch", "resultType": "dictionaries", "propertiesToFetch": ["source"], "distinct": true],
            ],
            "measurement": ["warmup": 0, "repetitions": 3, "maxSeconds": 10],
            "pragmas": ["journal_mode": "wal", "synchronous": "normal", "cache_size": -2000],
        ]
    }

    /// The table: missing keys, unknown keys at several depths, wrong types, bad names,
    /// unknown enum values, out-of-range numbers, empty lists and rules between keys.
    static func all() -> [InvalidScenario] {
        let fetch: [Any] = ["workloads", 1]
        let gen: [Any] = ["dataset", "fields", 0, "generator"]
        let related: [Any] = ["dataset", "related", 0]
        return [
            // Missing required keys
            .init("missing format", at: "$", remove: ["format"]),
            .init("missing workloads", at: "$", remove: ["workloads"]),
            .init("missing dataset seed", at: "$.dataset", remove: ["dataset", "seed"]),
            .init(
                "missing attribute type", at: "$.variants[0].entities[0].attributes[0]",
                remove: ["variants", 0, "entities", 0, "attributes", 0, "type"]),
            .init("missing uniformInt max", at: "$.dataset.fields[0].generator", remove: gen + ["max"]),
            .init("missing workload kind", at: "$.workloads[1]", remove: fetch + ["kind"]),
            .init("a variant with neither entities nor extends", at: "$.variants[0]", remove: ["variants", 0, "entities"]),
            .init("a field with neither field nor fields", at: "$.dataset.fields[1]", remove: ["dataset", "fields", 1, "field"]),
            // Unknown keys at several depths
            .init("unknown root key", at: "$.workload", set: ["workload"], to: []),
            .init(
                "unknown attribute key", at: "$.variants[0].entities[0].attributes[0].nullable",
                set: ["variants", 0, "entities", 0, "attributes", 0, "nullable"], to: true),
            .init(
                "unknown index element key", at: "$.variants[1].addIndexes[0].elements[0].collation",
                set: ["variants", 1, "addIndexes", 0, "elements", 0, "collation"], to: "binary"),
            .init("a key of another generator kind", at: "$.dataset.fields[0].generator.mean", set: gen + ["mean"], to: 4),
            .init("unknown pool key", at: "$.dataset.related[0].pool.size", set: related + ["pool", "size"], to: 5),
            .init("unknown fetch key", at: "$.workloads[1].limit", set: fetch + ["limit"], to: 5),
            .init("unknown measurement key", at: "$.measurement.runs", set: ["measurement", "runs"], to: 3),
            .init("an insert workload with a sort", at: "$.workloads[0].sort", set: ["workloads", 0, "sort"], to: ["rank"]),
            .init("count on a fetch workload", at: "$.workloads[1].count", set: fetch + ["count"], to: 10),
            .init("sectionKey on a fetch workload", at: "$.workloads[1].sectionKey", set: fetch + ["sectionKey"], to: "rank"),
            // Wrong types
            .init("format as a string", at: "$.format", set: ["format"], to: "1"),
            .init("$schema not a string", at: "$.$schema", set: ["$schema"], to: 1),
            .init("seed as a string", at: "$.dataset.seed", set: ["dataset", "seed"], to: "forty-two"),
            .init("seed with a fraction", at: "$.dataset.seed", set: ["dataset", "seed"], to: 1.5),
            .init(
                "toMany as a string", at: "$.variants[0].entities[0].relationships[0].toMany",
                set: ["variants", 0, "entities", 0, "relationships", 0, "toMany"], to: "yes"),
            .init("variants as an object", at: "$.variants", set: ["variants"], to: ["name": "A"]),
            .init(
                "a variant description that is not a string", at: "$.variants[0].description",
                set: ["variants", 0, "description"], to: 5),
            .init(
                "an argument object that is not a date", at: "$.workloads[1].arguments[0].when",
                set: fetch + ["arguments"], to: [["when": "2020-01-01"]]),
            // Names
            .init(
                "an entity name with a quote", at: "$.variants[0].entities[0].name", set: ["variants", 0, "entities", 0, "name"],
                to: "It'em"),
            .init(
                "an attribute name with a space", at: "$.variants[0].entities[0].attributes[0].name",
                set: ["variants", 0, "entities", 0, "attributes", 0, "name"], to: "my rank"),
            .init(
                "an index name with a semicolon", at: "$.variants[0].indexes[0].name",
                set: ["variants", 0, "indexes", 0, "name"], to: "byRank;DROP TABLE ZITEM"),
            .init(
                "a field name starting with a digit", at: "$.dataset.fields[0].field", set: ["dataset", "fields", 0, "field"], to: "1rank"),
            .init(
                "a field name with a final newline", at: "$.dataset.fields[0].field", set: ["dataset", "fields", 0, "field"], to: "rank\n"),
            .init(
                "an identifier of 65 characters", at: "$.dataset.entity", set: ["dataset", "entity"], to: String(repeating: "a", count: 65)),
            .init("a scenario name with a slash", at: "$.name", set: ["name"], to: "a/b"),
            .init("an empty variant name", at: "$.variants[1].name", set: ["variants", 1, "name"], to: ""),
            .init("a sort key path with an empty part", at: "$.workloads[1].sort[0]", set: fetch + ["sort"], to: ["rank..title"]),
            // Unknown enum values
            .init(
                "unknown attribute type", at: "$.variants[0].entities[0].attributes[0].type",
                set: ["variants", 0, "entities", 0, "attributes", 0, "type"], to: "int"),
            .init(
                "unknown delete rule", at: "$.variants[0].entities[0].relationships[0].deleteRule",
                set: ["variants", 0, "entities", 0, "relationships", 0, "deleteRule"], to: "restrict"),
            .init("unknown generator kind", at: "$.dataset.fields[0].generator.kind", set: gen + ["kind"], to: "gaussian"),
            .init("unknown workload kind", at: "$.workloads[1].kind", set: fetch + ["kind"], to: "remove"),
            .init("unknown touch word", at: "$.workloads[1].touch", set: fetch + ["touch"], to: "everything"),
            .init(
                "unknown aggregate function", at: "$.workloads[3].propertiesToFetch[1].function",
                set: ["workloads", 3, "propertiesToFetch", 1, "function"], to: "median"),
            .init("bad pragma value", at: "$.pragmas.journal_mode", set: ["pragmas", "journal_mode"], to: "fast"),
            .init("unknown pragma", at: "$.pragmas.foreign_keys", set: ["pragmas", "foreign_keys"], to: "on"),
            .init("an integer pragma as a word", at: "$.pragmas.cache_size", set: ["pragmas", "cache_size"], to: "big"),
            // Numbers out of range, empty lists
            .init("a negative count", at: "$.dataset.counts[1]", set: ["dataset", "counts"], to: [10, -5]),
            .init("a count above 50000000", at: "$.dataset.counts[0]", set: ["dataset", "counts"], to: [50_000_001]),
            .init("empty variants", at: "$.variants", set: ["variants"], to: []),
            .init("empty workloads", at: "$.workloads", set: ["workloads"], to: []),
            .init("empty index elements", at: "$.variants[0].indexes[0].elements", set: ["variants", 0, "indexes", 0, "elements"], to: []),
            .init("a negative seed", at: "$.dataset.seed", set: ["dataset", "seed"], to: -1),
            .init("repetitions 0", at: "$.measurement.repetitions", set: ["measurement", "repetitions"], to: 0),
            .init("warmup above 100", at: "$.measurement.warmup", set: ["measurement", "warmup"], to: 101),
            .init("maxSeconds 0", at: "$.measurement.maxSeconds", set: ["measurement", "maxSeconds"], to: 0),
            .init("a negative touch", at: "$.workloads[1].touch", set: fetch + ["touch"], to: -1),
            .init("a negative fan-out", at: "$.dataset.related[0].fanOut.min", set: related + ["fanOut", "min"], to: -1),
            .init("a zipf popularity above 10", at: "$.dataset.related[0].popularity.zipf", set: related + ["popularity", "zipf"], to: 11),
            .init(
                "a probability above 1", at: "$.dataset.fields[0].generator.probability",
                set: gen, to: ["kind": "bool", "probability": 1.5]),
            .init(
                "a month 13", at: "$.dataset.fields[0].generator.from",
                set: gen, to: ["kind": "dateRange", "from": "2020-13-01", "to": "2021-01-01"]),
            .init("a blank predicate", at: "$.workloads[1].predicate", set: fetch + ["predicate"], to: "   "),
            // Rules between keys
            .init("a variant with entities and extends", at: "$.variants[1].entities", set: ["variants", 1, "entities"], to: []),
            .init("field and fields together", at: "$.dataset.fields[1]", set: ["dataset", "fields", 1, "fields"], to: ["title"]),
            .init(
                "clusteredLocation filling one field", at: "$.dataset.fields[0]",
                set: gen, to: ["kind": "clusteredLocation", "clusters": [["latitude": 1, "longitude": 2, "sigma": 0.5]]]),
            .init(
                "choice weights and zipf together", at: "$.dataset.fields[1].generator",
                set: ["dataset", "fields", 1, "generator"], to: ["kind": "choice", "values": ["a", "b"], "weights": [1, 2], "zipf": 1]),
            .init(
                "a fan-out of a text generator", at: "$.dataset.related[0].fanOut.kind",
                set: related + ["fanOut"], to: ["kind": "text", "minLength": 1, "maxLength": 2]),
            .init("popularity without a pool", at: "$.dataset.related[0].popularity", remove: related + ["pool"]),
            .init("a pool entry with its own fields", at: "$.dataset.related[0].fields", set: related + ["fields"], to: []),
            .init(
                "an attribute-style index on a descending element", at: "$.variants[1].addIndexes[0].style",
                set: ["variants", 1, "addIndexes", 0, "style"], to: "attribute"),
            .init(
                "a unique R-tree index", at: "$.variants[0].indexes[0].unique",
                edits: [(["variants", 0, "indexes", 0, "kind"], "rtree"), (["variants", 0, "indexes", 0, "unique"], true)]),
            .init("a fetchedResults workload without sort", at: "$.workloads[2]", remove: ["workloads", 2, "sort"]),
            .init("an append workload without count", at: "$.workloads[0]", set: ["workloads", 0, "kind"], to: "append"),
            .init("a dictionaries fetch without propertiesToFetch", at: "$.workloads[3]", remove: ["workloads", 3, "propertiesToFetch"]),
            .init(
                "propertiesToFetch and groupBy on an object fetch", at: "$.workloads[3].groupBy",
                remove: ["workloads", 3, "resultType"]),
            .init("arguments without a predicate", at: "$.workloads[1].arguments", remove: fetch + ["predicate"]),
            .init("touch on an object ID fetch", at: "$.workloads[1].touch", set: fetch + ["resultType"], to: "objectIDs"),
            .init(
                "a count fetch with a fetchLimit", at: "$.workloads[1].fetchLimit",
                edits: [(fetch + ["touch"], nil), (fetch + ["sort"], nil), (fetch + ["resultType"], "count"), (fetch + ["fetchLimit"], 5)]),
            .init(
                "paging with a batch size", at: "$.workloads[1].batchSize",
                edits: [(fetch + ["pageSize"], 20), (fetch + ["batchSize"], 10)]),
            .init("a reduce entry that is a key path", at: "$.workloads[1].reduce", set: fetch + ["reduce"], to: ["rank"]),
            // Every workload's weight and device; the sql kind
            .init("a weight of 0", at: "$.workloads[1].weight", set: fetch + ["weight"], to: 0),
            .init("a device without runs", at: "$.workloads[1].device", set: fetch + ["device"], to: ["rows": 3]),
            .init("a device of 0 runs", at: "$.workloads[1].device.runs", set: fetch + ["device"], to: ["runs": 0]),
            .init("a sql workload without sql", at: "$.workloads[0]", set: ["workloads", 0, "kind"], to: "sql"),
            .init(
                "a sql statement that is not a string", at: "$.workloads[0].sql",
                edits: [(["workloads", 0, "kind"], "sql"), (["workloads", 0, "sql"], 3)]),
            .init(
                "an array bound to one sql parameter", at: "$.workloads[0].arguments[0]",
                edits: [
                    (["workloads", 0, "kind"], "sql"), (["workloads", 0, "sql"], "SELECT ?"), (["workloads", 0, "arguments"], [[1, 2]]),
                ]),
            .init("sql on a fetch", at: "$.workloads[1].sql", set: fetch + ["sql"], to: "SELECT 1"),
        ]
    }

    /// `document` with the value at `path` set to `value`, or removed when `value` is nil.
    static func setting(_ value: Any?, at path: ArraySlice<Any>, in document: Any) -> Any {
        guard let step = path.first else { return value! }
        let rest = path.dropFirst()
        if let key = step as? String, var object = document as? [String: Any] {
            if rest.isEmpty && value == nil {
                precondition(object.removeValue(forKey: key) != nil, "no key \(key) to remove")
            } else {
                object[key] = setting(value, at: rest, in: object[key] ?? [String: Any]())
            }
            return object
        }
        if let index = step as? Int, var array = document as? [Any], array.indices.contains(index) {
            if rest.isEmpty && value == nil { array.remove(at: index) } else { array[index] = setting(value, at: rest, in: array[index]) }
            return array
        }
        preconditionFailure("cannot follow \(step) in \(document)")
    }
}
