/// An entity as the scenario declares it: `{"name": "Photo", "attributes": [...],
/// "relationships": [...]}`, with `parent`, `abstract` and `uniquenessConstraints` when given.
public struct EntitySpec: Sendable, Equatable {
    /// `name`: a plain name, unique in the variant; its table is `Z` and the name upper-cased.
    public var name: String
    /// `attributes`, in order.
    public var attributes: [AttributeSpec]
    /// `relationships`, in order.
    public var relationships: [RelationshipSpec]
    /// `uniquenessConstraints`: attribute lists whose values must be unique over the
    /// entity's objects (NSEntityDescription.uniquenessConstraints): one unique index each.
    public var uniquenessConstraints: [UniquenessConstraintSpec]
    /// `parent`: the parent entity (entity inheritance); this entity inherits its attributes
    /// and relationships and shares its table.
    public var parent: String?
    /// `abstract` (default false): an abstract entity has no instances of its own.
    public var abstract: Bool
    /// The entity's JSON path, for messages.
    public var path: String

    /// An entity; the defaults are the format's (a key left out).
    public init(
        name: String, attributes: [AttributeSpec] = [], relationships: [RelationshipSpec] = [],
        uniquenessConstraints: [UniquenessConstraintSpec] = [], parent: String? = nil, abstract: Bool = false, path: String = ""
    ) {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
        self.parent = parent
        self.abstract = abstract
        self.path = path
    }
}

/// One uniqueness constraint: one or more attributes (compound when more), `["code"]`.
public struct UniquenessConstraintSpec: Sendable, Equatable {
    /// The attributes, unique together.
    public var attributes: [String]
    /// The constraint's JSON path (the array's), for messages.
    public var path: String

    /// A constraint on these attributes.
    public init(attributes: [String], path: String = "") {
        self.attributes = attributes
        self.path = path
    }
}
