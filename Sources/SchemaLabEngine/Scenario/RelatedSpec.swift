/// One to-many relationship filled for every row of the entity above it (the root, or the
/// destination of the enclosing entry): `{"relationship": "books", "fanOut": {...}, "fields": [...]}`.
///
/// Without a pool, each parent row gets `fanOut` new destination objects with their own
/// `fields` (and nested `related`); with a pool (many-to-many only), `pool.count` objects
/// are created once and each row links to `fanOut` distinct members, picked uniformly or
/// with Zipf `popularity`.
public struct RelatedSpec: Sendable, Equatable {
    /// `relationship`: a to-many relationship of the entity above.
    public var relationship: String
    /// `for`: in a root data set whose `entity` field chooses each row's entity, the entity
    /// whose rows the entry fills (the others get no children from it).
    public var forEntity: String?
    /// `optional` (default false): a variant without this relationship leaves the entry out
    /// (its data is still generated, so a `joinedOf` field can hold it as text there).
    public var optional: Bool
    /// `pool` (many-to-many only): the shared destination objects.
    public var pool: PoolSpec?
    /// `"popularity": {"zipf": s}`, with a pool: member i weighs 1/(i+1)^s; nil: uniform.
    public var popularity: Double?
    /// `fanOut`: how many children (or pool members) each parent row gets: an integer
    /// generator (`constant`, `uniformInt`, `pareto`, `choice`), or `wordsOf`.
    public var fanOut: GeneratorSpec
    /// `fields` of each new destination object (none with a pool).
    public var fields: [FieldSpec]
    /// `related`: to-many relationships of the destination to fill (none with a pool).
    public var related: [RelatedSpec]
    /// The relationship path from the root (`books`, `books.reviews`; an entry `for` an
    /// entity starts with it, `Author/books`): names the entry's random streams. Set by the
    /// ``DatasetSpec`` the entry is in.
    public internal(set) var relationshipPath: String
    /// The entry's JSON path, for messages.
    public var path: String

    /// An entry; the defaults are the format's (a key left out).
    public init(
        relationship: String, forEntity: String? = nil, optional: Bool = false, pool: PoolSpec? = nil, popularity: Double? = nil,
        fanOut: GeneratorSpec, fields: [FieldSpec] = [], related: [RelatedSpec] = [], path: String = ""
    ) {
        self.relationship = relationship
        self.forEntity = forEntity
        self.optional = optional
        self.pool = pool
        self.popularity = popularity
        self.fanOut = fanOut
        self.fields = fields
        self.related = related
        self.relationshipPath = relationship
        self.path = path
        self = Self.namingStreams([self], below: "")[0]
    }

    /// `entries` (and theirs, all the way down) with their ``relationshipPath``s, below the
    /// relationship path `parent` ("" for the root's entries): `parent.relationship`; at the
    /// root an entry `for` an entity is prefixed `Entity/` (its own streams, apart from another
    /// root's entry of the same name), and the entries below it are named without the prefix.
    static func namingStreams(_ entries: [RelatedSpec], below parent: String) -> [RelatedSpec] {
        entries.map { entry in
            var e = entry
            let path = parent.isEmpty ? e.relationship : parent + "." + e.relationship
            e.relationshipPath = parent.isEmpty ? (e.forEntity.map { $0 + "/" } ?? "") + path : path
            e.related = namingStreams(e.related, below: path)
            return e
        }
    }
}

/// The shared destination objects of a many-to-many entry: `{"count": 500, "fields": [...]}`.
public struct PoolSpec: Sendable, Equatable {
    /// `count`: the members, made once.
    public var count: Int
    /// `fields` of each member.
    public var fields: [FieldSpec]
    /// The pool's JSON path, for messages.
    public var path: String

    /// A pool of `count` members.
    public init(count: Int, fields: [FieldSpec] = [], path: String = "") {
        self.count = count
        self.fields = fields
        self.path = path
    }
}
