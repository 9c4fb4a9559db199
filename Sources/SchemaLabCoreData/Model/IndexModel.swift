/// One column of a resolved index: an attribute, or a to-one relationship (its foreign key).
package struct IndexElementModel: Sendable, Equatable {
    /// The attribute, or nil for a to-one relationship.
    package let attribute: AttributeModel?
    /// The attribute's or the relationship's name.
    package let name: String
    /// The attribute's column, or the relationship's foreign-key column.
    package let column: String
    package let descending: Bool

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
package struct IndexModel: Sendable, Equatable {
    /// The scenario's name for it.
    package let name: String
    /// The name in SQLite (`ZPHOTO_ZDATE_INDEX`, `Z_Photo_byLikesDate`).
    package let sqlName: String
    package let elements: [IndexElementModel]
    package let kind: IndexKind
    package let unique: Bool
    package let attributeStyle: Bool
    /// R-tree: one sub-select for the `indexed:by:` comparisons of an AND (the lab's option).
    package var combinedQuery = false

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
