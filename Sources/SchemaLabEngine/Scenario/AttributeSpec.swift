import SchemaLabCoreData
import SchemaLabSQLite

/// An attribute as the scenario declares it: `{"name": "date", "type": "date"}`, with
/// `optional`, `default`, `derivation`, `canonicalOf` and external storage when they differ
/// from their defaults.
public struct AttributeSpec: Sendable, Equatable {
    /// `name`: a plain name, unique in its entity; its column is `Z` and the name upper-cased.
    public var name: String
    /// `type`: the model's attribute type, which decides the column's type (`VARCHAR`, `INTEGER`, ...).
    public var type: AttributeType
    /// `optional` (default true); false: a save (or batch insert) of an object without a
    /// value fails validation.
    public var optional: Bool
    /// `default`: the model's default value, given to new objects that get no other value
    /// (as the column stores it: a bool is 0 or 1, a date seconds since 2001-01-01 UTC).
    public var defaultValue: SQLValue?
    /// `derivation`: a derived attribute's expression (`lowercase:(name)`, `author.name`,
    /// `books.@count`, `now()`), kept by the store's triggers.
    public var derivation: String?
    /// `canonicalOf`: a string attribute the context keeps equal to the canonical form
    /// (lower-cased, diacritics removed) of this other string attribute of the entity, when it saves.
    public var canonicalOf: String?
    /// `allowsExternalStorage` (default false): a binary attribute whose large values go to files.
    public var allowsExternalStorage: Bool
    /// `externalStorageThreshold`: with external storage, values larger than this many bytes go to files.
    public var externalStorageThreshold: Int
    /// `preserveAfterDeletion`: with persistent history on, a deleted object's value is kept in
    /// its change row (a tombstone), as the model editor's Preserve After Deletion.
    public var preserveAfterDeletion = false
    /// The attribute's JSON path, for messages (see ``Scenario`` for how a part built in
    /// Swift gets it).
    public var path: String

    /// `externalStorageThreshold`'s default: values larger than this many bytes go to files.
    public static let defaultExternalStorageThreshold = ExternalBinaryData.defaultThreshold

    /// An attribute; the defaults are the format's (a key left out).
    public init(
        name: String, type: AttributeType, optional: Bool = true, defaultValue: SQLValue? = nil, derivation: String? = nil,
        canonicalOf: String? = nil, allowsExternalStorage: Bool = false,
        externalStorageThreshold: Int = AttributeSpec.defaultExternalStorageThreshold, path: String = ""
    ) {
        self.name = name
        self.type = type
        self.optional = optional
        self.defaultValue = defaultValue
        self.derivation = derivation
        self.canonicalOf = canonicalOf
        self.allowsExternalStorage = allowsExternalStorage
        self.externalStorageThreshold = externalStorageThreshold
        self.path = path
    }
}
