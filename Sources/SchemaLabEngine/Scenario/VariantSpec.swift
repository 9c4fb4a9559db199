/// A schema variant: either a full list of entities (`entities`, `indexes`), or a base
/// variant (`extends`) plus edits.
///
/// Edits apply in this order: add entities, add attributes, move attributes, copy
/// attributes, remove attributes, add relationships, drop indexes, add indexes, add
/// uniqueness constraints; counters are added to the base's.
public struct VariantSpec: Sendable, Equatable {
    /// `name`: a label, unique in the scenario (`V1`, `V1+index`).
    public var name: String
    /// `description`: free text.
    public var description: String?
    /// `extends`: the base variant this one edits; nil for a variant that lists its entities.
    public var extends: String?
    /// `entities` (a variant that extends none).
    public var entities: [EntitySpec]
    /// `indexes` (a variant that extends none).
    public var indexes: [IndexSpec]
    /// `addEntities`.
    public var addEntities: [EntitySpec]
    /// `addAttributes`: `{"entity", "attribute"}`.
    public var addAttributes: [AddedAttributeSpec]
    /// `moveAttributes`: `{"from", "to", "names"}`.
    public var moveAttributes: [AttributeTransferSpec]
    /// `copyAttributes`: `{"from", "to", "names"}`.
    public var copyAttributes: [AttributeTransferSpec]
    /// `removeAttributes`: `{"entity", "name"}`.
    public var removeAttributes: [EntityMemberRef]
    /// `addRelationships`: `{"entity", "relationship"}`.
    public var addRelationships: [AddedRelationshipSpec]
    /// `dropIndexes`: `{"entity", "name"}`.
    public var dropIndexes: [EntityMemberRef]
    /// `addIndexes`.
    public var addIndexes: [IndexSpec]
    /// `addUniquenessConstraints`: `{"entity", "attributes"}` (applied with the indexes).
    public var addUniquenessConstraints: [AddedConstraintSpec]
    /// `counters`: denormalized counts the context maintains when it saves (added to the base's).
    public var counters: [CounterSpec]
    /// `persistentHistory`: the store tracks persistent history (`NSPersistentHistoryTrackingKey`);
    /// nil: as the base variant (off for a variant that extends none).
    public var persistentHistory: Bool?
    /// The variant's JSON path, for messages.
    public var path: String

    /// A variant; every list is empty unless given. Give `entities` (and `indexes`), or
    /// `extends` and edits.
    public init(
        name: String, description: String? = nil, extends: String? = nil, entities: [EntitySpec] = [], indexes: [IndexSpec] = [],
        addEntities: [EntitySpec] = [], addAttributes: [AddedAttributeSpec] = [], moveAttributes: [AttributeTransferSpec] = [],
        copyAttributes: [AttributeTransferSpec] = [], removeAttributes: [EntityMemberRef] = [],
        addRelationships: [AddedRelationshipSpec] = [], dropIndexes: [EntityMemberRef] = [], addIndexes: [IndexSpec] = [],
        addUniquenessConstraints: [AddedConstraintSpec] = [], counters: [CounterSpec] = [], path: String = ""
    ) {
        self.name = name
        self.description = description
        self.extends = extends
        self.entities = entities
        self.indexes = indexes
        self.addEntities = addEntities
        self.addAttributes = addAttributes
        self.moveAttributes = moveAttributes
        self.copyAttributes = copyAttributes
        self.removeAttributes = removeAttributes
        self.addRelationships = addRelationships
        self.dropIndexes = dropIndexes
        self.addIndexes = addIndexes
        self.addUniquenessConstraints = addUniquenessConstraints
        self.counters = counters
        self.path = path
    }
}

/// An attribute added to an entity of the base variant: `{"entity": "Quake", "attribute": {...}}`.
public struct AddedAttributeSpec: Sendable, Equatable {
    /// `entity`: the entity that gets the attribute.
    public var entity: String
    /// `attribute`.
    public var attribute: AttributeSpec

    /// The attribute added to `entity`.
    public init(entity: String, attribute: AttributeSpec) {
        self.entity = entity
        self.attribute = attribute
    }
}

/// A relationship added to an entity of the base variant: `{"entity": "Photo", "relationship": {...}}`.
public struct AddedRelationshipSpec: Sendable, Equatable {
    /// `entity`: the entity that gets the relationship.
    public var entity: String
    /// `relationship`.
    public var relationship: RelationshipSpec

    /// The relationship added to `entity`.
    public init(entity: String, relationship: RelationshipSpec) {
        self.entity = entity
        self.relationship = relationship
    }
}

/// A uniqueness constraint added to an entity of the base variant: `{"entity": "Quake", "attributes": ["code"]}`.
public struct AddedConstraintSpec: Sendable, Equatable {
    /// `entity`: the entity that gets the constraint.
    public var entity: String
    /// `attributes`, as a constraint.
    public var constraint: UniquenessConstraintSpec

    /// The constraint added to `entity`.
    public init(entity: String, constraint: UniquenessConstraintSpec) {
        self.entity = entity
        self.constraint = constraint
    }
}

/// Names of attributes to move or copy between two entities: `{"from", "to", "names"}`.
public struct AttributeTransferSpec: Sendable, Equatable {
    /// `from`: the entity that has the attributes.
    public var from: String
    /// `to`: the entity that gets them.
    public var to: String
    /// `names`: the attributes.
    public var names: [String]
    /// The edit's JSON path, for messages.
    public var path: String

    /// Moves or copies (as the variant lists it) `names` from `from` to `to`.
    public init(from: String, to: String, names: [String], path: String = "") {
        self.from = from
        self.to = to
        self.names = names
        self.path = path
    }
}

/// Something in one entity named by its name (an attribute to remove, an index to drop):
/// `{"entity", "name"}`.
public struct EntityMemberRef: Sendable, Equatable {
    /// `entity`.
    public var entity: String
    /// `name`: the attribute's or the index's.
    public var name: String
    /// The reference's JSON path, for messages.
    public var path: String

    /// The member `name` of `entity`.
    public init(entity: String, name: String, path: String = "") {
        self.entity = entity
        self.name = name
        self.path = path
    }
}

/// A denormalized counter kept up to date at save time: `entity.count` holds how many
/// `of` objects have `of.by == entity.key` (DayCount.posts = the posts with that day):
/// `{"entity": "DayCount", "key": "day", "count": "posts", "of": "Post", "by": "day"}`.
public struct CounterSpec: Sendable, Equatable {
    /// `entity`: the counter entity.
    public var entity: String
    /// `key`: its attribute that holds the counted value.
    public var key: String
    /// `count`: its attribute that holds the count.
    public var count: String
    /// `of`: the entity counted.
    public var of: String
    /// `by`: the attribute of `of` grouped by.
    public var by: String
    /// The counter's JSON path, for messages.
    public var path: String

    /// A counter: `entity.count` is the number of `of` objects whose `by` equals `entity.key`.
    public init(entity: String, key: String, count: String, of: String, by: String, path: String = "") {
        self.entity = entity
        self.key = key
        self.count = count
        self.of = of
        self.by = by
        self.path = path
    }
}
