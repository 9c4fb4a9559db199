import SchemaLabCoreData

/// An index as the scenario declares it: `{"name": "byLikesDate", "entity": "Photo",
/// "elements": ["likes", {"key": "date", "order": "descending"}]}`, with `kind`, `unique`,
/// `style` and `query` when they differ from their defaults.
public struct IndexSpec: Sendable, Equatable {
    /// `name`: a plain name, unique within its entity.
    public var name: String
    /// `entity`: the entity indexed (an index on a sub-entity is built on its hierarchy's table).
    public var entity: String
    /// `elements`: the keys in order, each an attribute or a to-one relationship (its foreign key).
    public var elements: [IndexElementSpec]
    /// `kind` (default binary): a B-tree index, or an R-tree fetch index (`rtree`).
    public var kind: IndexKind
    /// `unique` (default false).
    public var unique: Bool
    /// `"style": "attribute"` (true): named the way an `isIndexed` attribute is named
    /// (`ZPHOTO_ZDATE_INDEX`); `"fetchIndex"` (false, the default): a fetch index (`Z_Photo_byDate`).
    public var attributeStyle: Bool
    /// `"query": "combined"` (true), R-tree only: answer the `indexed:by:` comparisons of one
    /// AND with one sub-select (the lab's) instead of one per comparison (`perAttribute`, Core Data's).
    public var combinedQuery: Bool
    /// The index's JSON path, for messages.
    public var path: String

    /// An index; the defaults are the format's (a key left out).
    public init(
        name: String, entity: String, elements: [IndexElementSpec], kind: IndexKind = .binary, unique: Bool = false,
        attributeStyle: Bool = false, combinedQuery: Bool = false, path: String = ""
    ) {
        self.name = name
        self.entity = entity
        self.elements = elements
        self.kind = kind
        self.unique = unique
        self.attributeStyle = attributeStyle
        self.combinedQuery = combinedQuery
        self.path = path
    }
}

/// One element of an index: a key and its order (`"likes"`, or `{"key": "date", "order": "descending"}`).
public struct IndexElementSpec: Sendable, Equatable {
    /// `key`: an attribute or a to-one relationship of the entity.
    public var key: String
    /// `"order": "descending"` (true); ascending (false) is the default.
    public var descending: Bool

    /// An element, ascending unless `descending`.
    public init(key: String, descending: Bool = false) {
        self.key = key
        self.descending = descending
    }
}
