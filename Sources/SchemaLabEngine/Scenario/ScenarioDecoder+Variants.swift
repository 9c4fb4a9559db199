import SchemaLabCoreData
import SchemaLabSQLite

extension ScenarioDecoder {
    static func decodeVariant(_ n: JSONNode) throws -> VariantSpec {
        let o = try n.object(allowed: ScenarioKeys.variant)
        let extends = try o.optional("extends")?.label()
        if extends == nil && !o.has("entities") {
            throw n.error("a variant needs 'entities', or 'extends' naming another variant")
        }
        if extends != nil && o.has("entities") {
            throw try o.required("entities").error("a variant that 'extends' another edits it; it cannot list 'entities' too")
        }
        func list<T>(_ key: String, _ f: (JSONNode) throws -> T) throws -> [T] {
            try o.optional(key)?.array().map(f) ?? []
        }
        var spec = VariantSpec(
            name: try o.required("name").label(),
            description: try o.optional("description")?.string(),
            extends: extends,
            entities: try list("entities", decodeEntity),
            indexes: try list("indexes", decodeIndex),
            addEntities: try list("addEntities", decodeEntity),
            addAttributes: try list("addAttributes") { a in
                let ao = try a.object(allowed: ScenarioKeys.addedAttribute)
                return AddedAttributeSpec(
                    entity: try ao.required("entity").identifier(), attribute: try decodeAttribute(ao.required("attribute")))
            },
            moveAttributes: try list("moveAttributes", decodeTransfer),
            copyAttributes: try list("copyAttributes", decodeTransfer),
            removeAttributes: try list("removeAttributes", decodeMemberRef),
            addRelationships: try list("addRelationships") { r in
                let ro = try r.object(allowed: ScenarioKeys.addedRelationship)
                return AddedRelationshipSpec(
                    entity: try ro.required("entity").identifier(), relationship: try decodeRelationship(ro.required("relationship")))
            },
            dropIndexes: try list("dropIndexes", decodeMemberRef),
            addIndexes: try list("addIndexes", decodeIndex),
            path: n.path
        )
        spec.addUniquenessConstraints = try list("addUniquenessConstraints") { u in
            let uo = try u.object(allowed: ScenarioKeys.addedConstraint)
            return AddedConstraintSpec(
                entity: try uo.required("entity").identifier(), constraint: try decodeConstraint(uo.required("attributes")))
        }
        spec.counters = try list("counters") { c in
            let co = try c.object(allowed: ScenarioKeys.counter)
            return CounterSpec(
                entity: try co.required("entity").identifier(), key: try co.required("key").identifier(),
                count: try co.required("count").identifier(), of: try co.required("of").identifier(),
                by: try co.required("by").identifier(), path: c.path)
        }
        spec.persistentHistory = try o.optional("persistentHistory")?.bool()
        return spec
    }

    static func decodeEntity(_ n: JSONNode) throws -> EntitySpec {
        let o = try n.object(allowed: ScenarioKeys.entity)
        return EntitySpec(
            name: try o.required("name").identifier(),
            attributes: try o.optional("attributes")?.array().map(decodeAttribute) ?? [],
            relationships: try o.optional("relationships")?.array().map(decodeRelationship) ?? [],
            uniquenessConstraints: try o.optional("uniquenessConstraints")?.array().map(decodeConstraint) ?? [],
            parent: try o.optional("parent")?.identifier(),
            abstract: try o.optional("abstract")?.bool() ?? false,
            path: n.path
        )
    }

    /// `["code"]` or `["source", "externalID"]`: attribute names, unique together.
    static func decodeConstraint(_ n: JSONNode) throws -> UniquenessConstraintSpec {
        let names = try n.nonEmptyArray().map { try $0.identifier() }
        guard names.count <= 8 else { throw n.error("a uniqueness constraint takes at most 8 attributes") }
        if let d = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw n.error("'\(d)' appears twice in one uniqueness constraint")
        }
        return UniquenessConstraintSpec(attributes: names, path: n.path)
    }

    static func decodeAttribute(_ n: JSONNode) throws -> AttributeSpec {
        let o = try n.object(allowed: ScenarioKeys.attribute)
        let typeName = try o.required("type").choice(AttributeType.allCases.map(\.rawValue))
        var spec = AttributeSpec(
            name: try o.required("name").identifier(), type: AttributeType(rawValue: typeName)!,
            optional: try o.optional("optional")?.bool() ?? true, path: n.path)
        if let c = o.optional("canonicalOf") {
            guard spec.type == .string else { throw c.error("'canonicalOf' makes a string attribute (this one is \(typeName))") }
            spec.canonicalOf = try c.identifier()
        }
        if let x = o.optional("allowsExternalStorage") {
            spec.allowsExternalStorage = try x.bool()
            if spec.allowsExternalStorage && spec.type != .binary {
                throw x.error("'allowsExternalStorage' is for a binary attribute (this one is \(typeName))")
            }
        }
        spec.preserveAfterDeletion = try o.optional("preserveAfterDeletion")?.bool() ?? false
        if let d = o.optional("default") { spec.defaultValue = try decodeDefault(d, type: spec.type) }
        if let d = o.optional("derivation") {
            let text = try d.string()
            guard !text.isEmpty, text.count <= 200 else { throw d.error("a derivation is an expression such as \"lowercase:(name)\"") }
            spec.derivation = text
        }
        if let t = o.optional("externalStorageThreshold") {
            guard spec.allowsExternalStorage else { throw t.error("'externalStorageThreshold' needs \"allowsExternalStorage\": true") }
            spec.externalStorageThreshold = try t.int(in: 0...1_000_000_000)
        }
        return spec
    }

    /// An attribute's default value as the column stores it: a number for the numeric types
    /// (a boolean is 0 or 1; a date is seconds since 2001-01-01 UTC, as Core Data stores it),
    /// a string for a string; binary and transformable attributes take no default here.
    static func decodeDefault(_ n: JSONNode, type: AttributeType) throws -> SQLValue {
        switch type {
        case .string:
            return .text(try n.string())
        case .bool:
            return .integer(try n.bool() ? 1 : 0)
        case .integer16, .integer32, .integer64:
            return .integer(Int64(try n.int()))
        case .double, .float, .decimal, .date:
            return .real(try n.double())
        case .binary:
            throw n.error("a default value is for a string, number, boolean or date attribute (this one is \(type.rawValue))")
        }
    }

    static func decodeRelationship(_ n: JSONNode) throws -> RelationshipSpec {
        let o = try n.object(allowed: ScenarioKeys.relationship)
        let rule = try o.optional("deleteRule")?.choice(DeleteRule.allCases.map(\.rawValue)) ?? "nullify"
        var spec = RelationshipSpec(
            name: try o.required("name").identifier(),
            destination: try o.required("destination").identifier(),
            toMany: try o.optional("toMany")?.bool() ?? false,
            inverse: try o.optional("inverse")?.identifier(),
            deleteRule: DeleteRule(rawValue: rule)!,
            path: n.path
        )
        if let ordered = o.optional("ordered") {
            spec.ordered = try ordered.bool()
            if spec.ordered && !spec.toMany { throw ordered.error("'ordered' is for a to-many relationship (\"toMany\": true)") }
        }
        return spec
    }

    static func decodeIndex(_ n: JSONNode) throws -> IndexSpec {
        let o = try n.object(allowed: ScenarioKeys.index)
        let elements = try o.required("elements").nonEmptyArray().map { e -> IndexElementSpec in
            if case .string = e.value { return IndexElementSpec(key: try e.identifier(), descending: false) }
            let eo = try e.object(allowed: ScenarioKeys.indexElement)
            let order = try eo.optional("order")?.choice(ScenarioKeys.indexOrders) ?? "ascending"
            return IndexElementSpec(key: try eo.required("key").identifier(), descending: order == "descending")
        }
        let kind = IndexKind(rawValue: try o.optional("kind")?.choice(IndexKind.allCases.map(\.rawValue)) ?? "binary")!
        let style = try o.optional("style")?.choice(ScenarioKeys.indexStyles) ?? "fetchIndex"
        if style == "attribute" && (elements.count != 1 || elements[0].descending || kind != .binary) {
            throw try o.required("style").error("style 'attribute' (an isIndexed attribute) takes one ascending element of a binary index")
        }
        let unique = try o.optional("unique")?.bool() ?? false
        if unique && kind == .rtree { throw try o.required("unique").error("an R-tree index cannot be unique") }
        if kind == .rtree, let i = elements.firstIndex(where: \.descending) {
            throw try o.required("elements").array()[i].error("an R-tree index has no order: its elements are ranges, not sorted keys")
        }
        let query = try o.optional("query")?.choice(ScenarioKeys.indexQueries) ?? "perAttribute"
        if o.has("query") && kind != .rtree {
            throw try o.required("query").error("'query' belongs to an R-tree index (\"kind\": \"rtree\")")
        }
        var spec = IndexSpec(
            name: try o.required("name").identifier(),
            entity: try o.required("entity").identifier(),
            elements: elements,
            kind: kind,
            unique: unique,
            attributeStyle: style == "attribute",
            path: n.path
        )
        spec.combinedQuery = query == "combined"
        return spec
    }

    static func decodeTransfer(_ n: JSONNode) throws -> AttributeTransferSpec {
        let o = try n.object(allowed: ScenarioKeys.transfer)
        return AttributeTransferSpec(
            from: try o.required("from").identifier(),
            to: try o.required("to").identifier(),
            names: try o.required("names").nonEmptyArray().map { try $0.identifier() },
            path: n.path
        )
    }

    static func decodeMemberRef(_ n: JSONNode) throws -> EntityMemberRef {
        let o = try n.object(allowed: ScenarioKeys.memberRef)
        return EntityMemberRef(entity: try o.required("entity").identifier(), name: try o.required("name").identifier(), path: n.path)
    }
}
