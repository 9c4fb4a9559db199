/// How a derived attribute (`NSDerivedAttributeDescription`, iOS 13) is computed: the
/// derivation expressions Core Data allows, resolved to columns. The store keeps the value
/// with triggers (`SchemaDDL`), as Core Data's does.
package enum Derivation: Sendable, Equatable {
    /// `lowercase:(name)`, `uppercase:(name)`, `canonical:(name)`: a string function of another
    /// attribute of the entity (`NSCoreDataToLower`, `NSCoreDataToUpper`, `NSCoreDataCanonical`).
    case function(sqlFunction: String, sourceColumn: String)
    /// `name`: a copy of another attribute of the entity.
    case attribute(sourceColumn: String)
    /// `author.name`: an attribute of the destination of a to-one.
    case toOne(foreignKey: String, destinationTable: String, destinationColumn: String)
    /// `books.@count`: how many objects a to-many holds (counted in the table that holds the
    /// key pointing back: the destination's, or the join table).
    case count(table: String, keyColumn: String)
    /// `now()`: the time of the last save that changed the object.
    case now

    /// The SQL functions of the string forms, by the expression's name.
    package static let functions = ["lowercase": "NSCoreDataToLower", "uppercase": "NSCoreDataToUpper", "canonical": "NSCoreDataCanonical"]
}
