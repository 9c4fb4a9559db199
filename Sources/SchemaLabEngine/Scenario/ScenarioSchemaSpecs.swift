import SchemaLabSQLite
import SchemaLabCoreData

/// An attribute as the scenario declares it.
public struct AttributeSpec: Sendable {
    public var name: String
    public var type: AttributeType
    /// false: a save (or batch insert) of an object without a value fails validation.
    public var optional: Bool = true
    /// A string attribute the context keeps equal to the canonical form (lower-cased,
    /// diacritics removed) of this other string attribute of the entity, when it saves.
    public var canonicalOf: String?
    /// A binary attribute with allowsExternalBinaryDataStorage: large values go to files.
    public var allowsExternalStorage = false
    /// With external storage: values larger than this many bytes go to files.
    public var externalStorageThreshold = ExternalBinaryData.defaultThreshold
    /// The model's default value, given to new objects that get no other value.
    public var defaultValue: SQLValue? = nil
    /// A derived attribute's expression (`lowercase:(name)`, `author.name`, `books.@count`, `now()`).
    public var derivation: String? = nil
    public var path: String
}

/// A relationship as the scenario declares it.
public struct RelationshipSpec: Sendable {
    public var name: String
    public var destination: String
    public var toMany: Bool
    public var inverse: String?
    public var deleteRule: DeleteRule
    /// An ordered to-many (NSOrderedSet): its order lives in a `Z_FOK_` column.
    public var ordered = false
    public var path: String
}

/// One element of an index: a key (attribute name) and its order.
public struct IndexElementSpec: Sendable, Equatable {
    public var key: String
    public var descending: Bool
}

/// An index as the scenario declares it.
public struct IndexSpec: Sendable {
    /// A plain name, unique within its entity.
    public var name: String
    public var entity: String
    public var elements: [IndexElementSpec]
    public var kind: IndexKind
    public var unique: Bool
    /// `true`: name it the way an `isIndexed` attribute is named (`ZPHOTO_ZDATE_INDEX`);
    /// `false`: a fetch index (`Z_Photo_byDate`).
    public var attributeStyle: Bool
    /// R-tree only: answer the `indexed:by:` comparisons of one AND with one sub-select
    /// (`"query": "combined"`, the lab's) instead of one per comparison (Core Data's).
    public var combinedQuery = false
    public var path: String
}

/// An entity as the scenario declares it.
public struct EntitySpec: Sendable {
    public var name: String
    public var attributes: [AttributeSpec]
    public var relationships: [RelationshipSpec]
    /// Attribute lists whose values must be unique over the entity's objects
    /// (NSEntityDescription.uniquenessConstraints): one unique index each.
    public var uniquenessConstraints: [UniquenessConstraintSpec] = []
    /// The parent entity (entity inheritance): this entity inherits its attributes and
    /// relationships and shares its table.
    public var parent: String? = nil
    /// An abstract entity has no instances of its own.
    public var abstract = false
    public var path: String
}

/// One uniqueness constraint: one or more attributes (compound when more).
public struct UniquenessConstraintSpec: Sendable {
    public var attributes: [String]
    public var path: String
}

/// Names of attributes to move or copy between two entities.
public struct AttributeTransferSpec: Sendable {
    public var from: String
    public var to: String
    public var names: [String]
    public var path: String
}

/// A reference to something in one entity (an attribute, a relationship, an index) by name.
public struct EntityMemberRef: Sendable {
    public var entity: String
    public var name: String
    public var path: String
}

/// A schema variant: either a full list of entities, or a base variant plus edits.
///
/// Edits apply in this order: add entities, add attributes, move attributes,
/// copy attributes, remove attributes, add relationships, drop indexes, add indexes.
public struct VariantSpec: Sendable {
    public var name: String
    public var extends: String?
    public var entities: [EntitySpec]
    public var indexes: [IndexSpec]
    public var addEntities: [EntitySpec]
    public var addAttributes: [(entity: String, attribute: AttributeSpec)]
    public var moveAttributes: [AttributeTransferSpec]
    public var copyAttributes: [AttributeTransferSpec]
    public var removeAttributes: [EntityMemberRef]
    public var addRelationships: [(entity: String, relationship: RelationshipSpec)]
    public var dropIndexes: [EntityMemberRef]
    public var addIndexes: [IndexSpec]
    /// Uniqueness constraints to add (applied with the indexes).
    public var addUniquenessConstraints: [(entity: String, constraint: UniquenessConstraintSpec)] = []
    /// Denormalized counts the context maintains when it saves (added to the base's).
    public var counters: [CounterSpec] = []
    public var path: String
}

/// A denormalized counter kept up to date at save time: `entity.count` holds how many
/// `of` objects have `of.by == entity.key` (e.g. DayCount.posts = posts with that day).
public struct CounterSpec: Sendable {
    public var entity: String
    public var key: String
    public var count: String
    public var of: String
    public var by: String
    public var path: String
}
