/// A resolved entity: its number, table, attributes (alphabetical), relationships and indexes.
public struct EntityModel: Sendable, Equatable {
    public let name: String
    /// Z_ENT: entities are numbered from 1 in alphabetical order.
    public let number: Int
    public let attributes: [AttributeModel]
    public let relationships: [RelationshipModel]
    public let indexes: [IndexModel]
    /// Uniqueness constraints (each also one of `indexes`, unique, `UNIQUE_<a>_<b>`).
    public var uniquenessConstraints: [[AttributeModel]] = []

    /// `Z` + the upper-cased entity name.
    public var table: String { "Z" + name.uppercased() }

    public func attribute(_ name: String) -> AttributeModel? { attributes.first { $0.name == name } }
    public func relationship(_ name: String) -> RelationshipModel? { relationships.first { $0.name == name } }
    /// The to-one relationships that have a foreign-key column here, alphabetical.
    public var toOneRelationships: [RelationshipModel] { relationships.filter { $0.foreignKeyColumn != nil } }

    /// Memberwise.
    package init(
        name: String, number: Int, attributes: [AttributeModel], relationships: [RelationshipModel], indexes: [IndexModel],
        uniquenessConstraints: [[AttributeModel]] = []
    ) {
        self.name = name
        self.number = number
        self.attributes = attributes
        self.relationships = relationships
        self.indexes = indexes
        self.uniquenessConstraints = uniquenessConstraints
    }
}
