/// A generator bound to the logical field(s) it fills: `{"field": "likes", "generator": {...}}`,
/// or `{"fields": ["latitude", "longitude"], ...}` for a generator that fills more than one.
public struct FieldSpec: Sendable, Equatable {
    /// `field` (one name) or `fields`: attribute names (every attribute of that name the row
    /// reaches), or `Entity.attribute` (that entity's attribute only).
    public var names: [String]
    /// `generator`.
    public var generator: GeneratorSpec
    /// `optional` (default false): the field may have no attribute to go to in some variant.
    public var optional: Bool
    /// `nulls` (default 0): the share of rows whose value is nil (NULL), drawn from a stream
    /// of its own, so the other rows keep the values they have without it. For optional
    /// attributes: predicates such as `note == nil` then find rows.
    public var nulls: Double = 0
    /// The field's JSON path, for messages.
    public var path: String

    /// A field; not optional unless `optional`.
    public init(names: [String], generator: GeneratorSpec, optional: Bool = false, path: String = "") {
        self.names = names
        self.generator = generator
        self.optional = optional
        self.path = path
    }
}
