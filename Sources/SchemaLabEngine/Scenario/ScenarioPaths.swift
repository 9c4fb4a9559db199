/// The JSON path of every part of a scenario, as the decoder reads it and the encoder writes
/// it (`$.variants[1].addIndexes[0]`): set by ``Scenario`` on the parts it holds, so that a
/// message about a part built in Swift says where it stands. One place for the rule; the
/// decoder's own paths come from the document and are the same (`ScenarioEncoderTests`).
extension Scenario {
    static func placed(_ variants: [VariantSpec]) -> [VariantSpec] {
        variants.enumerated().map { i, v in v.placed(at: "$.variants[\(i)]") }
    }

    static func placed(_ dataset: DatasetSpec) -> DatasetSpec {
        var d = dataset
        d.path = "$.dataset"
        d.fields = placed(d.fields, at: d.path)
        d.related = placed(d.related, at: d.path)
        return d
    }

    static func placed(_ workloads: [WorkloadSpec]) -> [WorkloadSpec] {
        workloads.enumerated().map { i, w in
            var w = w
            w.path = "$.workloads[\(i)]"
            w.predicate?.path = w.path + ".predicate"
            w.having?.path = w.path + ".having"
            w.verify?.path = w.path + ".verify.predicate"
            w.feed?.path = w.path + ".feed"
            w.boxes?.path = w.path + ".boxes"
            return w
        }
    }

    static func placed(_ assertions: [AssertionSpec]) -> [AssertionSpec] {
        assertions.enumerated().map { i, a in
            var a = a
            a.path = "$.assertions[\(i)]"
            return a
        }
    }

    static func placed(_ claims: [ClaimSpec]) -> [ClaimSpec] {
        claims.enumerated().map { i, c in
            var c = c
            c.path = "$.claims[\(i)]"
            return c
        }
    }

    /// Fields of one level (the root, a related entry, a pool) under the level's path.
    private static func placed(_ fields: [FieldSpec], at level: String) -> [FieldSpec] {
        fields.enumerated().map { i, f in
            var f = f
            f.path = level + ".fields[\(i)]"
            return f
        }
    }

    /// Related entries under the path of the level that fills them.
    private static func placed(_ related: [RelatedSpec], at level: String) -> [RelatedSpec] {
        related.enumerated().map { i, r in
            var r = r
            r.path = level + ".related[\(i)]"
            r.fields = placed(r.fields, at: r.path)
            r.related = placed(r.related, at: r.path)
            if var pool = r.pool {
                pool.path = r.path + ".pool"
                pool.fields = placed(pool.fields, at: pool.path)
                r.pool = pool
            }
            return r
        }
    }
}

extension VariantSpec {
    /// This variant at `path`, with every part in it placed below.
    func placed(at path: String) -> VariantSpec {
        var v = self
        v.path = path
        func each<T>(_ list: [T], _ key: String, _ place: (inout T, String) -> Void) -> [T] {
            list.enumerated().map { i, element in
                var e = element
                place(&e, path + ".\(key)[\(i)]")
                return e
            }
        }
        v.entities = each(v.entities, "entities") { $0 = $0.placed(at: $1) }
        v.indexes = each(v.indexes, "indexes") { $0.path = $1 }
        v.addEntities = each(v.addEntities, "addEntities") { $0 = $0.placed(at: $1) }
        v.addAttributes = each(v.addAttributes, "addAttributes") { $0.attribute.path = $1 + ".attribute" }
        v.moveAttributes = each(v.moveAttributes, "moveAttributes") { $0.path = $1 }
        v.copyAttributes = each(v.copyAttributes, "copyAttributes") { $0.path = $1 }
        v.removeAttributes = each(v.removeAttributes, "removeAttributes") { $0.path = $1 }
        v.addRelationships = each(v.addRelationships, "addRelationships") { $0.relationship.path = $1 + ".relationship" }
        v.dropIndexes = each(v.dropIndexes, "dropIndexes") { $0.path = $1 }
        v.addIndexes = each(v.addIndexes, "addIndexes") { $0.path = $1 }
        v.addUniquenessConstraints = each(v.addUniquenessConstraints, "addUniquenessConstraints") {
            $0.constraint.path = $1 + ".attributes"
        }
        v.counters = each(v.counters, "counters") { $0.path = $1 }
        return v
    }
}

extension EntitySpec {
    /// This entity at `path`, its attributes, relationships and constraints placed below.
    func placed(at path: String) -> EntitySpec {
        var e = self
        e.path = path
        for i in e.attributes.indices { e.attributes[i].path = path + ".attributes[\(i)]" }
        for i in e.relationships.indices { e.relationships[i].path = path + ".relationships[\(i)]" }
        for i in e.uniquenessConstraints.indices { e.uniquenessConstraints[i].path = path + ".uniquenessConstraints[\(i)]" }
        return e
    }
}
