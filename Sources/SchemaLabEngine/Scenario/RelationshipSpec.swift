import SchemaLabCoreData

/// A relationship as the scenario declares it: `{"name": "books", "destination": "Book",
/// "toMany": true, "inverse": "author", "deleteRule": "cascade"}`.
public struct RelationshipSpec: Sendable, Equatable {
    /// `name`: a plain name, unique among the entity's attributes and relationships.
    public var name: String
    /// `destination`: the entity it leads to.
    public var destination: String
    /// `toMany` (default false): a to-many relationship (a to-one stores a foreign key `Z<NAME>`).
    public var toMany: Bool
    /// `ordered` (default false): an ordered to-many (NSOrderedSet), its order kept in a `Z_FOK_` column.
    public var ordered: Bool
    /// `inverse`: the destination's relationship back, if any.
    public var inverse: String?
    /// `deleteRule` (default nullify): what deleting an object does to the objects it relates to.
    public var deleteRule: DeleteRule
    /// The relationship's JSON path, for messages.
    public var path: String

    /// A relationship; the defaults are the format's (a key left out).
    public init(
        name: String, destination: String, toMany: Bool = false, ordered: Bool = false, inverse: String? = nil,
        deleteRule: DeleteRule = .nullify, path: String = ""
    ) {
        self.name = name
        self.destination = destination
        self.toMany = toMany
        self.ordered = ordered
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.path = path
    }
}
