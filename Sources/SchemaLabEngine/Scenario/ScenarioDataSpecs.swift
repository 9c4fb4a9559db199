import SchemaLabSQLite

/// One weighted cluster of the clustered-location generator.
public struct LocationCluster: Sendable {
    public var latitude: Double
    public var longitude: Double
    /// Standard deviation in degrees of latitude (longitude uses 1.3x).
    public var sigma: Double
    public var weight: Double
    /// An optional label written to a companion text field (e.g. a country).
    public var label: String?
}

/// How a value (or a pair of values) is generated for every object.
public enum GeneratorSpec: Sendable {
    /// start, start+step, ...: the object's index scaled; with a prefix, text ("tag-1", ...).
    case sequence(start: Int64, step: Int64, prefix: String?)
    /// Uniform integer in [min, max].
    case uniformInt(min: Int64, max: Int64)
    /// Uniform double in [min, max).
    case uniformDouble(min: Double, max: Double)
    /// Normal distribution, clamped to [min, max] when given.
    case normal(mean: Double, stddev: Double, min: Double?, max: Double?)
    /// Heavy-tailed integers: floor(scale * ((1-u)^(-1/alpha) - 1)), resampled above max;
    /// values >= roundAbove rounded down to a multiple of roundTo (like counts of likes).
    case pareto(scale: Double, alpha: Double, max: Int64, roundAbove: Int64?, roundTo: Int64)
    /// A weighted choice among values (strings or numbers). Weights: explicit, or Zipf 1/(rank+1)^s.
    case choice(values: [SQLValue], weights: [Double])
    /// Words from a list joined by spaces, cut to a length in [minLength, maxLength].
    case text(minLength: Int, maxLength: Int, words: [String])
    /// A UUID-shaped hex string between a prefix and a suffix.
    case uuid(prefix: String, suffix: String)
    /// Uniform dates between two days, stored as seconds since 2001-01-01 UTC.
    case dateRange(from: Double, to: Double)
    /// Latitude/longitude clustered around weighted points, with a fraction scattered
    /// uniformly; writes 2 fields (lat, lon) or 3 (lat, lon, the cluster's label).
    case clusteredLocation(clusters: [LocationCluster], scatter: Double, scatterLabels: [String])
    /// true with the given probability (stored as 1/0).
    case bool(probability: Double)
    /// Random bytes, length uniform in [minLength, maxLength].
    case bytes(minLength: Int, maxLength: Int)
    /// The same value for every object.
    case constant(SQLValue)
    /// Derived: the row's fan-out for one of its `related` relationships (e.g. a denormalized count).
    case countOf(relationship: String)
    /// Derived, in a related entry: the parent row's value of one of its fields.
    case parentField(field: String)
    /// A function of another field of the same level generated before it: `floor` (an
    /// integer below a number, e.g. a magnitude class) or `day` (a date's day number since
    /// 2001-01-01 UTC, e.g. for posts per day).
    case derived(from: String, function: DerivedFunction)
    /// A fan-out: one child per distinct word (canonical form, in order of first
    /// appearance) of one of the row's text fields.
    case wordsOf(field: String)
    /// In a related entry whose fan-out is `wordsOf`: the child's word.
    case word
    /// In a related entry (not a pool): the child's position among its parent's children,
    /// 0, 1, 2, … (a list's sort key, such as a song's place in its playlist).
    case position
    /// Derived: the values of `field` of the pool members the row links to through one of its
    /// `related` relationships, joined by `separator` (tags as one string column).
    case joinedOf(relationship: String, field: String, separator: String)

    /// How many fields the generator fills.
    public var fieldCounts: ClosedRange<Int> {
        if case .clusteredLocation = self { return 2...3 }
        return 1...1
    }
}

/// The functions a `derived` field applies.
public enum DerivedFunction: String, Sendable, CaseIterable {
    case floor, day
}

/// A generator bound to the logical field(s) it fills.
public struct FieldSpec: Sendable {
    public var names: [String]
    public var generator: GeneratorSpec
    /// True when the field may have no attribute to go to in some variant.
    public var optional: Bool = false
    public var path: String
}

/// The shared destination objects of a many-to-many `related` entry.
public struct PoolSpec: Sendable {
    public var count: Int
    public var fields: [FieldSpec]
    public var path: String
}

/// One to-many relationship filled for every row of the entity above it (the root,
/// or the destination of the enclosing entry).
///
/// Without a pool, each parent row gets `fanOut` new destination objects with their
/// own `fields` (and nested `related`); with a pool (many-to-many only), `pool.count`
/// objects are created once and each row links to `fanOut` distinct members,
/// picked uniformly or with Zipf `popularity`.
public struct RelatedSpec: Sendable {
    public var relationship: String
    public var fanOut: GeneratorSpec
    public var fields: [FieldSpec]
    public var pool: PoolSpec?
    /// The Zipf exponent of the pool members' popularity (member i weighs 1/(i+1)^s); nil: uniform.
    public var popularity: Double?
    public var related: [RelatedSpec]
    /// true: a variant without this relationship leaves the entry out (its data is still
    /// generated, so a `joinedOf` field can hold it as text there).
    public var optional = false
    /// In a root data set whose `entity` field chooses each row's entity: the entity whose
    /// rows the entry fills (the others get no children from it).
    public var forEntity: String? = nil
    /// The relationship path from the root (`books`, `books.reviews`): names the PRNG streams.
    public var relationshipPath: String
    public var path: String
}

/// The deterministic data set: the root entity, how many objects, and a generator per field.
///
/// Fields are logical: a field named `likes` is written to every attribute named
/// `likes` that the root entity reaches through itself and its to-one
/// relationships, so every variant holds the same logical data.
public struct DatasetSpec: Sendable {
    public var seed: UInt64
    public var entity: String
    public var counts: [Int]
    public var fields: [FieldSpec]
    /// To-many relationships of the root entity filled for every row.
    public var related: [RelatedSpec] = []
    public var path: String
}
