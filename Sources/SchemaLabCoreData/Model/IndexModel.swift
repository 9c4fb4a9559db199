/// One column of a resolved index.
public struct IndexElementModel: Sendable, Equatable {
    public let attribute: AttributeModel
    public let descending: Bool

    /// Memberwise.
    package init(attribute: AttributeModel, descending: Bool) {
        self.attribute = attribute
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
