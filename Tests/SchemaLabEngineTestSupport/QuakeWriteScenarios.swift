/// The scenario the write workloads' tests build on (the engine's, and the CLI's runs of
/// them): Quake rows in a `plain` variant and a `unique` one with a uniqueness constraint on
/// `code`, with the workloads a test gives.
package enum QuakeWriteScenarios {
    /// The Quake entity, without its closing brace (a variant may add to it).
    package static let quake = """
        {"name": "Quake", "attributes": [
           {"name": "code", "type": "string"}, {"name": "magnitude", "type": "double"}, {"name": "place", "type": "string"},
           {"name": "time", "type": "date"}, {"name": "validated", "type": "bool"}]
        """
    /// The data set's fields, one per attribute.
    package static let fields = """
        [{"field": "code", "generator": {"kind": "uuid", "prefix": "ci"}},
         {"field": "magnitude", "generator": {"kind": "uniformDouble", "min": 0, "max": 6}},
         {"field": "place", "generator": {"kind": "choice", "values": ["Alaska", "Chile", "Japan"]}},
         {"field": "time", "generator": {"kind": "dateRange", "from": "2020-05-01", "to": "2020-05-30"}},
         {"field": "validated", "generator": {"kind": "bool", "probability": 0.3}}]
        """

    /// The scenario with `workloads` (their JSON objects, comma-separated) at `count` rows.
    package static func scenario(_ workloads: String, count: Int = 300) -> String {
        """
        {"format": 1, "name": "w",
         "variants": [{"name": "plain", "entities": [\(quake)}]},
                      {"name": "unique", "extends": "plain", "addUniquenessConstraints": [{"entity": "Quake", "attributes": ["code"]}]}],
         "dataset": {"seed": 5, "entity": "Quake", "counts": [\(count)], "fields": \(fields)},
         "workloads": [\(workloads)],
         "measurement": {"warmup": 0, "repetitions": 1}}
        """
    }

    /// The five ways to ingest 150 quakes, each agreeing with `objects`.
    package static let ingest = scenario(
        """
        {"name": "objects", "kind": "insert"},
        {"name": "chunked", "kind": "insert", "saveEvery": 64, "agreesWith": "objects"},
        {"name": "array", "kind": "batchInsert", "agreesWith": "objects"},
        {"name": "handler", "kind": "batchInsert", "source": "handler", "agreesWith": "objects"},
        {"name": "per-record", "kind": "insert", "saveEvery": 1, "agreesWith": "objects"}
        """, count: 150)
}
