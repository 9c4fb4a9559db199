/// A resolved entity: its number, table, attributes (alphabetical), relationships and indexes.
package struct EntityModel: Sendable, Equatable {
    package let name: String
    /// Z_ENT, as `StoreLayout` numbers entities: from 1, alphabetically, each entity
    /// followed by its sub-entities.
    package let number: Int
    package let attributes: [AttributeModel]
    package let relationships: [RelationshipModel]
    package let indexes: [IndexModel]
    /// Uniqueness constraints (each also one of `indexes`, unique, `UNIQUE_<a>_<b>`).
    package var uniquenessConstraints: [[AttributeModel]] = []

    /// The parent entity (entity inheritance), or nil.
    package var parent: String? = nil
    /// An abstract entity has no instances of its own (only of its sub-entities).
    package var isAbstract = false
    /// The root of the entity's inheritance hierarchy (itself when it has no parent).
    package var root: String
    /// The numbers of every entity below this one in its hierarchy (empty without sub-entities).
    package var subentityNumbers: [Int] = []
    /// The table: one per inheritance hierarchy, named after its root (`StoreLayout/table(root:)`).
    package var table: String { StoreLayout.table(root: root) }
    /// True when this entity's table holds other entities' rows too, so that a fetch of it
    /// must restrict `Z_ENT` (a sub-entity), or read it (an entity with sub-entities).
    package var sharesTable: Bool { parent != nil || !subentityNumbers.isEmpty }
    /// True when a fetch of this entity can return objects of other (sub-)entities.
    package var hasSubentities: Bool { !subentityNumbers.isEmpty }

    package func attribute(_ name: String) -> AttributeModel? { attributes.first { $0.name == name } }
    package func relationship(_ name: String) -> RelationshipModel? { relationships.first { $0.name == name } }
    /// The key columns of the to-one relationships, in INSERT and SELECT order: each foreign
    /// key, then its destination-entity column when the destination has sub-entities, then
    /// its order column when it is the inverse of an ordered to-many.
    package var toOneKeyColumns: [String] {
        toOneRelationships.flatMap {
            [$0.foreignKeyColumn!] + ($0.destinationEntityColumn.map { [$0] } ?? []) + ($0.orderColumn.map { [$0] } ?? [])
        }
    }
    /// The restriction a fetch of this entity adds on `alias`, with its bound entity numbers:
    /// none for the root of a hierarchy (its table holds only its hierarchy), `t0.Z_ENT = ?`
    /// for a sub-entity without sub-entities, a range for one with them (entity numbers keep
    /// an entity and everything below it contiguous).
    package func entityRestriction(alias: String = "t0") -> (sql: String, numbers: [Int])? {
        guard parent != nil else { return nil }
        guard let last = subentityNumbers.max() else { return ("\(alias).Z_ENT = ?", [number]) }
        return ("( \(alias).Z_ENT >= ? AND  \(alias).Z_ENT <= ?)", [number, last])
    }
    /// The to-one relationships that have a foreign-key column here (inherited ones first).
    package var toOneRelationships: [RelationshipModel] { relationships.filter { $0.foreignKeyColumn != nil } }

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
        self.root = name
    }
}
