/// An attribute of a resolved entity, with its column.
public struct AttributeModel: Sendable, Equatable {
    public let name: String
    public let type: AttributeType
    /// false: Core Data's validation refuses to save an object with no value here (checked
    /// in memory before the SQL, as Core Data does; the column has no NOT NULL).
    public var optional: Bool = true
    /// The string attribute whose canonical form the context stores here when it saves.
    public var canonicalOf: String? = nil
    /// allowsExternalBinaryDataStorage: a value above the store's threshold is a file.
    public var allowsExternalStorage = false
    /// Values larger than this many bytes go to files (with external storage).
    public var externalStorageThreshold = 0
    /// `Z` + the upper-cased name, as Core Data names columns.
    public var column: String { "Z" + name.uppercased() }
}

/// How a relationship is stored in SQLite.
public enum RelationshipStorage: Sendable, Equatable {
    /// A to-one: a foreign-key column on this entity's table.
    case foreignKey(column: String)
    /// A to-many whose inverse is a to-one: the key is in the destination's table.
    case inverseForeignKey(column: String)
    /// A many-to-many: a join table of two columns.
    case joinTable(table: String, ownColumn: String, otherColumn: String)
}

/// A relationship of a resolved entity.
public struct RelationshipModel: Sendable, Equatable {
    public let name: String
    public let destination: String
    public let toMany: Bool
    public let inverse: String?
    public let deleteRule: DeleteRule
    public let storage: RelationshipStorage

    /// The foreign-key column when this is a to-one.
    public var foreignKeyColumn: String? {
        if case .foreignKey(let c) = storage { return c }
        return nil
    }
}

/// One column of a resolved index.
public struct IndexElementModel: Sendable, Equatable {
    public let attribute: AttributeModel
    public let descending: Bool
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
}

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
}

/// A resolved ``CounterSpec``: `entity.count` = number of `source` objects whose
/// `sourceKey` equals `entity.key`, maintained by the context when it saves.
public struct CounterModel: Sendable, Equatable {
    public let entity: String
    public let key: AttributeModel
    public let count: AttributeModel
    public let source: String
    public let sourceKey: AttributeModel
}

/// One schema variant, resolved: what the store turns into DDL and SQL.
public struct ObjectModel: Sendable, Equatable {
    /// The variant's name (`V1+index`).
    public let variant: String
    /// Entities in alphabetical order; `entities[i].number == i + 1`.
    public let entities: [EntityModel]
    /// Denormalized counters the context maintains at save time.
    public var counters: [CounterModel] = []

    public init(variant: String, entities: [EntityModel], counters: [CounterModel] = []) {
        self.variant = variant
        self.entities = entities
        self.counters = counters
    }

    public func entity(_ name: String) -> EntityModel? { entities.first { $0.name == name } }
}
