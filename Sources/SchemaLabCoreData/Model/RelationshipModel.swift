/// How a relationship is stored in SQLite.
package enum RelationshipStorage: Sendable, Equatable {
    /// A to-one: a foreign-key column on this entity's table.
    case foreignKey(column: String)
    /// A to-many whose inverse is a to-one: the key is in the destination's table.
    case inverseForeignKey(column: String)
    /// A many-to-many: a join table of two columns.
    case joinTable(table: String, ownColumn: String, otherColumn: String)
}

/// A relationship of a resolved entity.
package struct RelationshipModel: Sendable, Equatable {
    package let name: String
    package let destination: String
    package let toMany: Bool
    package let inverse: String?
    package let deleteRule: DeleteRule
    package let storage: RelationshipStorage
    /// A to-one whose destination has sub-entities: the column beside the foreign key that
    /// holds the destination object's entity number, `Z<destination number>_<NAME>` (`Z7_FILE`
    /// beside `ZFILE`), so that a fault is made for the right sub-entity without reading its row.
    package var destinationEntityColumn: String? = nil
    /// An ordered to-many (NSOrderedSet).
    package var ordered = false
    /// Where an ordered to-many's order keys live: a `Z_FOK_` column in the destination's
    /// table (one-to-many, named after the inverse to-one: `Z_FOK_PARENT`) or in the join
    /// table (many-to-many, named after the member column: `Z_FOK_34ASSETS`). On the inverse
    /// to-one of an ordered one-to-many, the same column of its own table.
    package var orderColumn: String? = nil

    /// The foreign-key column when this is a to-one.
    package var foreignKeyColumn: String? {
        if case .foreignKey(let c) = storage { return c }
        return nil
    }

    /// Memberwise.
    package init(name: String, destination: String, toMany: Bool, inverse: String?, deleteRule: DeleteRule, storage: RelationshipStorage) {
        self.name = name
        self.destination = destination
        self.toMany = toMany
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.storage = storage
    }
}
