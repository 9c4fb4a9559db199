import SchemaLabCoreData
import SchemaLabSQLite

extension ScenarioEncoder {
    static func variant(_ v: VariantSpec) -> JSONValue {
        object(
            ScenarioKeys.variant,
            [
                ("name", .string(v.name)),
                ("description", v.description.map(JSONValue.string)),
                ("extends", v.extends.map(JSONValue.string)),
                // A variant that extends none lists its entities, even none.
                ("entities", v.extends == nil ? .array(v.entities.map(entity)) : list(v.entities.map(entity))),
                ("indexes", list(v.indexes.map(index))),
                ("addEntities", list(v.addEntities.map(entity))),
                (
                    "addAttributes",
                    list(
                        v.addAttributes.map {
                            object(ScenarioKeys.addedAttribute, [("entity", .string($0.entity)), ("attribute", attribute($0.attribute))])
                        })
                ),
                ("moveAttributes", list(v.moveAttributes.map(transfer))),
                ("copyAttributes", list(v.copyAttributes.map(transfer))),
                ("removeAttributes", list(v.removeAttributes.map(memberRef))),
                (
                    "addRelationships",
                    list(
                        v.addRelationships.map {
                            object(
                                ScenarioKeys.addedRelationship,
                                [("entity", .string($0.entity)), ("relationship", relationship($0.relationship))])
                        })
                ),
                ("dropIndexes", list(v.dropIndexes.map(memberRef))),
                ("addIndexes", list(v.addIndexes.map(index))),
                (
                    "addUniquenessConstraints",
                    list(
                        v.addUniquenessConstraints.map {
                            object(
                                ScenarioKeys.addedConstraint,
                                [("entity", .string($0.entity)), ("attributes", .array($0.constraint.attributes.map(JSONValue.string)))])
                        })
                ),
                ("counters", list(v.counters.map(counter))),
                ("persistentHistory", v.persistentHistory.map(JSONValue.bool)),
            ])
    }

    static func entity(_ e: EntitySpec) -> JSONValue {
        object(
            ScenarioKeys.entity,
            [
                ("name", .string(e.name)),
                ("parent", e.parent.map(JSONValue.string)),
                ("abstract", flag(e.abstract)),
                ("attributes", list(e.attributes.map(attribute))),
                ("relationships", list(e.relationships.map(relationship))),
                ("uniquenessConstraints", list(e.uniquenessConstraints.map { .array($0.attributes.map(JSONValue.string)) })),
            ])
    }

    static func attribute(_ a: AttributeSpec) -> JSONValue {
        object(
            ScenarioKeys.attribute,
            [
                ("name", .string(a.name)),
                ("type", .string(a.type.rawValue)),
                ("optional", a.optional ? nil : .bool(false)),
                ("default", a.defaultValue.map { defaultValue($0, type: a.type) }),
                ("derivation", a.derivation.map(JSONValue.string)),
                ("canonicalOf", a.canonicalOf.map(JSONValue.string)),
                ("allowsExternalStorage", flag(a.allowsExternalStorage)),
                (
                    "externalStorageThreshold",
                    unless(a.externalStorageThreshold, is: ExternalBinaryData.defaultThreshold, JSONValue.int)
                ),
                ("preserveAfterDeletion", flag(a.preserveAfterDeletion)),
            ])
    }

    /// A default value as the format writes it for the attribute's type: a boolean for a
    /// bool (stored 0 or 1), a number, or a string.
    static func defaultValue(_ value: SQLValue, type: AttributeType) -> JSONValue {
        switch (type, value) {
        case (.bool, .integer(let i)): return .bool(i != 0)
        case (_, .real(let d)): return number(d)
        default: return scalar(value)
        }
    }

    static func relationship(_ r: RelationshipSpec) -> JSONValue {
        object(
            ScenarioKeys.relationship,
            [
                ("name", .string(r.name)),
                ("destination", .string(r.destination)),
                ("toMany", flag(r.toMany)),
                ("ordered", flag(r.ordered)),
                ("inverse", r.inverse.map(JSONValue.string)),
                ("deleteRule", unless(r.deleteRule, is: .nullify) { .string($0.rawValue) }),
            ])
    }

    static func index(_ i: IndexSpec) -> JSONValue {
        object(
            ScenarioKeys.index,
            [
                ("name", .string(i.name)),
                ("entity", .string(i.entity)),
                (
                    "elements",
                    .array(
                        i.elements.map { e in
                            e.descending
                                ? object(
                                    ScenarioKeys.indexElement, [("key", .string(e.key)), ("order", .string(ScenarioKeys.indexOrders[1]))])
                                : .string(e.key)
                        })
                ),
                ("kind", unless(i.kind, is: .binary) { .string($0.rawValue) }),
                ("unique", flag(i.unique)),
                ("style", i.attributeStyle ? .string(ScenarioKeys.indexStyles[1]) : nil),
                ("query", i.combinedQuery ? .string(ScenarioKeys.indexQueries[1]) : nil),
            ])
    }

    static func transfer(_ t: AttributeTransferSpec) -> JSONValue {
        object(
            ScenarioKeys.transfer,
            [("from", .string(t.from)), ("to", .string(t.to)), ("names", .array(t.names.map(JSONValue.string)))])
    }

    static func memberRef(_ r: EntityMemberRef) -> JSONValue {
        object(ScenarioKeys.memberRef, [("entity", .string(r.entity)), ("name", .string(r.name))])
    }

    static func counter(_ c: CounterSpec) -> JSONValue {
        object(
            ScenarioKeys.counter,
            [
                ("entity", .string(c.entity)), ("key", .string(c.key)), ("count", .string(c.count)), ("of", .string(c.of)),
                ("by", .string(c.by)),
            ])
    }
}
