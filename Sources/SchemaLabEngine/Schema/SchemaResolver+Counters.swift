import SchemaLabCoreData

extension SchemaResolver {
    /// The variant's counters, each checked: its entities and attributes exist, its count is
    /// an integer attribute kept by no other counter, and its keys hold one kind of value.
    func counters(_ specs: [CounterSpec], entities: [EntityModel], variant: String) throws -> [CounterModel] {
        var counters: [CounterModel] = []
        for c in specs {
            func attribute(_ entity: String, _ name: String, _ key: String) throws -> AttributeModel {
                guard let e = entities.first(where: { $0.name == entity }) else {
                    throw fail(
                        c.path + (key == "count" || key == "key" ? ".entity" : ".of"),
                        "in variant \(variant), no entity named '\(entity)'")
                }
                guard let a = e.attribute(name) else {
                    throw fail(c.path + "." + key, "in variant \(variant), \(entity) has no attribute '\(name)'")
                }
                return a
            }
            if c.count == c.key {
                throw fail(
                    c.path + ".count", "in variant \(variant), a counter's 'count' and 'key' must be different attributes ('\(c.count)')")
            }
            if counters.contains(where: { $0.entity == c.entity && $0.count.name == c.count }) {
                throw fail(
                    c.path + ".count",
                    "in variant \(variant), \(c.entity).\(c.count) is already kept by another counter: each count attribute has one counter"
                )
            }
            let count = try attribute(c.entity, c.count, "count")
            guard [.integer16, .integer32, .integer64].contains(count.type) else {
                throw fail(c.path + ".count", "a counter counts in an integer attribute; \(c.entity).\(c.count) is \(count.type.rawValue)")
            }
            let key = try attribute(c.entity, c.key, "key")
            let by = try attribute(c.of, c.by, "by")
            guard ValueKind.accepted(by: key.type) == ValueKind.accepted(by: by.type) else {
                throw fail(
                    c.path + ".by",
                    "\(c.of).\(c.by) (\(by.type.rawValue)) and \(c.entity).\(c.key) (\(key.type.rawValue)) must hold the same kind of value"
                )
            }
            counters.append(CounterModel(entity: c.entity, key: key, count: count, source: c.of, sourceKey: by))
        }
        return counters
    }
}
