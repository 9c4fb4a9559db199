import Foundation

/// Core Data's spelling of every name in a store, and the way back from a name to what it
/// names: each rule once (docs/coredata.md, "Store", "Entity inheritance", "Ordered
/// relationships"). The names are written unquoted, as Core Data writes them: every one is
/// built from validated plain names behind a `Z` (or `A`), and no SQLite keyword starts with
/// `Z`, so none can be read as SQL. A name read from a store from elsewhere is ``quoted(_:)``.
extension StoreLayout {
    // MARK: Fixed names

    /// The primary key of every entity table, and of an R-tree index's table.
    package static let primaryKeyColumn = "Z_PK"
    /// The entity number of a row (`Z_ENT`), the key of `Z_PRIMARYKEY`.
    package static let entityColumn = "Z_ENT"
    /// The row's version, counted up by every save that changes it.
    package static let versionColumn = "Z_OPT"
    /// The three columns every entity table begins with, before any property's.
    package static let rowColumns = [primaryKeyColumn, entityColumn, versionColumn]
    /// The table of entity numbers, names, parents and key sequences.
    package static let primaryKeyTable = "Z_PRIMARYKEY"
    /// Core Data's tables that hold no entity's rows: `Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE`.
    package static let metadataTables: Set = [primaryKeyTable, "Z_METADATA", "Z_MODELCACHE"]

    // MARK: Tables and columns

    /// The table of a hierarchy: `Z` and its root entity's name upper-cased (`ZPHOTO`).
    package static func table(root: String) -> String { "Z" + root.uppercased() }

    /// The table of one of Core Data's own entities (persistent history, CloudKit mirroring):
    /// `A` and its name upper-cased (`ACHANGE`), where a model's entity would have `Z`.
    package static func internalTable(entity: String) -> String { "A" + entity.uppercased() }

    /// True for a table an entity hierarchy (`Z<ROOT>`) could have, not a join table nor
    /// Core Data's metadata (`Z_…`).
    package static func isEntityTable(_ name: String) -> Bool { name.hasPrefix("Z") && !name.hasPrefix("Z_") }

    /// True for the tables Core Data makes in a store: entity tables, join tables and its
    /// metadata, all starting with `Z`.
    package static func isStoreTable(_ name: String) -> Bool { name.hasPrefix("Z") }

    /// The column of an attribute or a key: `Z` and its name upper-cased (`ZDATE`, `Z3ITEMS`),
    /// before ``numbered(_:taken:)`` tells it from a column of the same name in the table.
    package static func column(property: String) -> String { "Z" + property.uppercased() }

    /// `base`, or the first of `base1`, `base2`, … that is not `taken`: a column name another
    /// entity of the same table took already gets the next free number after it (`ZTITLE`,
    /// `ZTITLE1`; `Z_FOK_PARENT1`).
    package static func numbered(_ base: String, taken: Set<String>) -> String {
        var name = base
        var n = 0
        while taken.contains(name) {
            n += 1
            name = base + String(n)
        }
        return name
    }

    /// The column beside a key to a hierarchy that holds the entity number of the object the
    /// key points at: `Z<number>_<KEY>` (`Z7_FILE` beside `ZFILE`, `Z3_3ITEMS` beside a hidden
    /// key `Z3ITEMS`), `number` being the number of the entity the key's relationship names.
    package static func entityNumberColumn(key: String, number: Int) -> String { "Z\(number)_" + key.uppercased() }

    /// The name of the hidden to-one Core Data gives a to-many without an inverse, in its
    /// destination: the source's entity number and the relationship's name (`3items`), which
    /// no declared property can have.
    package static func hiddenKeyName(sourceNumber: Int, relationship: String) -> String { "\(sourceNumber)\(relationship)" }

    /// An ordered relationship's order-key column: `Z_FOK_` and the upper-cased name of the
    /// key it sits beside: the inverse to-one's (`Z_FOK_PARENT`), a hidden key's
    /// (`Z_FOK_3ITEMS`), or a join table's member column without its `Z_` (`Z_FOK_34ASSETS`).
    package static func orderKeyColumn(key: String) -> String { "Z_FOK_" + key.uppercased() }

    /// A many-to-many's join table: `Z_<n><NAME>` after the side whose `(entity number,
    /// relationship name)` is the lower (`Z_5TAGS`: Note 5's `tags`).
    package static func joinTable(ownerNumber: Int, relationship: String) -> String { joinName(ownerNumber, relationship) }

    /// A join table's column that holds the keys of entity `entityNumber`: `Z_<n><NAME>`, NAME
    /// being the relationship of the other side that points at it (`Z_5NOTES`, `Z_13TAGS`).
    package static func joinColumn(entityNumber: Int, relationship: String) -> String { joinName(entityNumber, relationship) }

    /// True when `entity` names the join table of its many-to-many `relationship` (it writes
    /// the table's rows and creates it): the table is `Z_<its number><RELATIONSHIP>`.
    package static func namesJoinTable(_ table: String, entityNumber: Int, relationship: String) -> Bool {
        table == joinTable(ownerNumber: entityNumber, relationship: relationship)
    }

    /// `Z_<n><NAME>`, the spelling of join tables and their columns.
    private static func joinName(_ number: Int, _ relationship: String) -> String { "Z_\(number)\(relationship.uppercased())" }

    // MARK: Indexes

    /// The index on one column of a table: `<TABLE>_<COLUMN>_INDEX` (a to-one's key, an
    /// indexed attribute, a join table's second column, `Z_ENT`).
    package static func columnIndex(table: String, column: String) -> String { "\(table)_\(column)_INDEX" }

    /// The index on `Z_ENT` of a table several entities share: `Z<ROOT>_Z_ENT_INDEX`.
    package static func entityIndex(table: String) -> String { columnIndex(table: table, column: entityColumn) }

    /// A fetch index (or an R-tree index's table, or a uniqueness constraint's index):
    /// `Z_<Entity>_<name>`, the entity's name in its own case (`Z_Photo_byLikesDate`).
    package static func fetchIndex(entity: String, name: String) -> String { fetchIndexPrefix(entity: entity) + name }

    /// What every fetch index of `entity` begins with: `Z_<Entity>_`.
    package static func fetchIndexPrefix(entity: String) -> String { "Z_\(entity)_" }

    /// The name of a uniqueness constraint's index: `UNIQUE_<a>_<b>` (its SQL name is then
    /// ``fetchIndex(entity:name:)`` of it).
    package static func uniquenessConstraint(attributes: [String]) -> String { "UNIQUE_" + attributes.joined(separator: "_") }

    /// The two columns of an R-tree index's table for one attribute's column: `<COLUMN>_MIN`, `<COLUMN>_MAX`.
    package static func rtreeColumns(column: String) -> (min: String, max: String) { (column + "_MIN", column + "_MAX") }

    // MARK: Back from a name

    /// The upper-cased name behind a table's or column's `Z` (`ZOWNER` -> `OWNER`): what an
    /// entity's or property's name is compared with, upper-cased.
    package static func storedName(_ tableOrColumn: String) -> String { String(tableOrColumn.dropFirst()) }

    /// The property a column names, as a store can tell it: its name lower-cased (`ZDATETAKEN`
    /// -> `datetaken`), since the upper-casing lost the model's camelCase.
    package static func propertyName(column: String) -> String { storedName(column).lowercased() }

    /// True for a column Core Data adds beside the properties' own: order keys (`Z_FOK_…`),
    /// join columns (`Z_…`) and entity-number columns or hidden keys (`Z<n>…`).
    package static func isCoreDataColumn(_ column: String) -> Bool {
        column.hasPrefix("Z_") || column.range(of: "^Z[0-9]", options: .regularExpression) != nil
    }

    /// True for a name spelled as a join table (`Z_<n><NAME>`); Core Data's metadata tables are too.
    package static func looksLikeJoinTable(_ name: String) -> Bool {
        name.range(of: "^Z_[0-9]+[A-Z0-9_]+$", options: .regularExpression) != nil
    }

    /// A join table's column read back: the entity number whose keys it holds and the other
    /// side's relationship name, lower-cased (`Z_13TAGS` -> 13, `tags`); nil for another column.
    package static func joinColumnParts(_ column: String) -> (entityNumber: Int64, relationship: String)? {
        guard let m = column.range(of: "^Z_[0-9]+", options: .regularExpression), let n = Int64(column[m].dropFirst(2)) else {
            return nil
        }
        return (n, String(column[m.upperBound...]).lowercased())
    }

    /// The attribute an R-tree index's `<COLUMN>_MIN` column is on, lower-cased; nil for
    /// another column (its `_MAX`, `Z_PK`).
    package static func rtreeAttribute(column: String) -> String? {
        column.hasSuffix("_MIN") ? propertyName(column: String(column.dropLast(4))) : nil
    }

    /// A name read from a store from elsewhere, quoted for SQL (`"Z""X"`): such a name may be
    /// anything, where the lab's own are plain and written unquoted.
    package static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
