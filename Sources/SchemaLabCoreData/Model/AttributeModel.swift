import SchemaLabSQLite

/// An attribute of a resolved entity, with its column.
package struct AttributeModel: Sendable, Equatable {
    package let name: String
    package let type: AttributeType
    /// false: Core Data's validation refuses to save an object with no value here (checked
    /// in memory before the SQL, as Core Data does; the column has no NOT NULL).
    package var optional: Bool = true
    /// The string attribute whose canonical form the context stores here when it saves.
    package var canonicalOf: String? = nil
    /// allowsExternalBinaryDataStorage: a value above the store's threshold is a file.
    package var allowsExternalStorage = false
    /// Values larger than this many bytes go to files (with external storage).
    package var externalStorageThreshold = 0
    /// Preserve After Deletion: with persistent history on, a deleted object's value is kept
    /// in its change row (a tombstone, `ZTOMBSTONE<n>`).
    package var preservesAfterDeletion = false
    /// The column: `Z` + the upper-cased name, as Core Data names columns, with a number
    /// after it when another entity of the same inheritance hierarchy (one table) already
    /// has a column of that name (`ZNAME1`; `StoreLayout`).
    package let column: String
    /// A constant the context gives the attribute of a new object (the model's default value).
    package var defaultValue: SQLValue? = nil
    /// A derived attribute's derivation, kept by the store's triggers (nil: a stored attribute).
    package var derivation: Derivation? = nil
    /// The expression as the model writes it (`lowercase:(name)`), for messages and trigger names.
    package var derivationText: String? = nil

    /// The object's ID as a column (`Z_PK`): what a sort on `objectID` or a count of a
    /// to-many's members reads. Not one of an entity's attributes.
    package static let objectID = AttributeModel(name: "objectID", type: .integer64, column: StoreLayout.primaryKeyColumn)

    /// Memberwise.
    package init(
        name: String, type: AttributeType, optional: Bool = true, canonicalOf: String? = nil, allowsExternalStorage: Bool = false,
        externalStorageThreshold: Int = 0, column: String? = nil, defaultValue: SQLValue? = nil
    ) {
        self.name = name
        self.column = column ?? StoreLayout.column(property: name)
        self.defaultValue = defaultValue
        self.type = type
        self.optional = optional
        self.canonicalOf = canonicalOf
        self.allowsExternalStorage = allowsExternalStorage
        self.externalStorageThreshold = externalStorageThreshold
    }
}
