/// One column of a resolved index: an attribute, or a to-one relationship (its foreign key).
public struct IndexElementModel: Sendable, Equatable {
    /// The attribute, or nil for a to-one relationship.
    public let attribute: AttributeModel?
    /// The attribute's or the relationship's name.
    public let name: String
    /// The attribute's column, or the relationship's foreign-key column.
    public let column: String
    public let descending: Bool

    /// An element on an attribute.
    package init(attribute: AttributeModel, descending: Bool) {
        self.attribute = attribute
        self.name = attribute.name
        self.column = attribute.column
        self.descending = descending
    }

    /// An element on a to-one relationship: its foreign-key column.
    package init(relationship: RelationshipModel, descending: Bool) {
        self.attribute = nil
        self.name = relationship.name
        self.column = relationship.foreignKeyColumn ?? ""
        self.descending = descending
    }
}

/// A resolved index.
public struct IndexModel: Sendable, Equatable {
    /// The scenario's name for it.
    public let name: String
    /// The name in SQLite (`ZPHOTO_ZDATE_INDEX`, `Z_Photo_byLikesDate`).
    public let sqlName: String
    public let elements: [IndexElementModel]
    public let kind: IndexKind
    public let unique: Bool
    public let attributeStyle: Bool
    /// R-tree: one sub-select for the `indexed:by:` comparisons of an AND (the lab's option).
    public var combinedQuery = false

    /// Memberwise.
    package init(
        name: String, sqlName: String, elements: [IndexElementModel], kind: IndexKind, unique: Bool, attributeStyle: Bool,
        combinedQuery: Bool = false
    ) {
        self.name = name
        self.sqlName = sqlName
        self.elements = elements
        self.kind = kind
        self.unique = unique
        self.attributeStyle = attributeStyle
        self.combinedQuery = combinedQuery
    }
}
