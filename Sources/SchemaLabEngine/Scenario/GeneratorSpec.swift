import SchemaLabSQLite

/// How a value (or a pair of values) is generated for every object: a generator object of
/// the data set, `{"kind": "uniformInt", "min": 0, "max": 1000}`.
public enum GeneratorSpec: Sendable, Equatable {
    /// `sequence` (start, step, prefix): start, start+step, ..., the object's index scaled;
    /// with a prefix, text ("tag-1", ...).
    case sequence(start: Int64 = 1, step: Int64 = 1, prefix: String? = nil)
    /// `uniformInt`: a uniform integer in [min, max].
    case uniformInt(min: Int64, max: Int64)
    /// `uniformDouble`: a uniform double in [min, max).
    case uniformDouble(min: Double, max: Double)
    /// `normal`: a normal distribution, clamped to [min, max] when given.
    case normal(mean: Double, stddev: Double, min: Double? = nil, max: Double? = nil)
    /// `pareto`, heavy-tailed integers: floor(scale * ((1-u)^(-1/alpha) - 1)), resampled above
    /// max; values >= roundAbove rounded down to a multiple of roundTo (like counts of likes).
    case pareto(scale: Double, alpha: Double, max: Int64, roundAbove: Int64? = nil, roundTo: Int64 = 1)
    /// `choice`: a weighted choice among values (strings or numbers). The format's weights are
    /// explicit, all 1 when left out, or Zipf's 1/(rank+1)^s (`zipf`), which the decoder turns
    /// into explicit weights.
    case choice(values: [SQLValue], weights: [Double])
    /// `cycle`: the values in turn, object i taking value i mod n: every value is used once
    /// before any is used twice (an `entity` field that must give each entity rows at small
    /// sizes, where a random choice can miss one).
    case cycle(values: [SQLValue])
    /// `text`: words from a list joined by spaces, cut to a length in [minLength, maxLength]
    /// (the list ``defaultWords`` when the format leaves `words` out).
    case text(minLength: Int, maxLength: Int, words: [String] = GeneratorSpec.defaultWords)
    /// `uuid`: a UUID-shaped hex string between a prefix and a suffix.
    case uuid(prefix: String = "", suffix: String = "")
    /// `dateRange`: uniform dates in [from, to), in seconds since 2001-01-01 UTC (Core Data's
    /// TIMESTAMP). The format gives days, `"from": "2010-01-01", "to": "2014-12-31"`: `from` is
    /// the first day's midnight, `to` the midnight after the last day (see ``CivilDate``).
    case dateRange(from: Double, to: Double)
    /// `clusteredLocation`: latitude and longitude clustered around weighted points, with a
    /// fraction `scatter` scattered uniformly (labelled from `scatterLabels`); fills 2 fields
    /// (lat, lon) or 3 (lat, lon, the cluster's label).
    case clusteredLocation(clusters: [LocationCluster], scatter: Double = 0, scatterLabels: [String] = [""])
    /// `bool`: true with the given probability (stored as 1/0).
    case bool(probability: Double)
    /// `bytes`: random bytes, length uniform in [minLength, maxLength].
    case bytes(minLength: Int, maxLength: Int)
    /// `constant`: the same value for every object.
    case constant(SQLValue)
    /// `countOf`, derived: the row's fan-out for one of its `related` relationships (a denormalized count).
    case countOf(relationship: String)
    /// `parentField`, derived, in a related entry: the parent row's value of one of its fields.
    case parentField(field: String)
    /// `derived`: a function of another field of the same level generated before it: `floor`
    /// (an integer below a number, e.g. a magnitude class) or `day` (a date's day number since
    /// 2001-01-01 UTC, e.g. for posts per day).
    case derived(from: String, function: DerivedFunction)
    /// `wordsOf`, a fan-out: one child per distinct word (canonical form, in order of first
    /// appearance) of one of the row's text fields.
    case wordsOf(field: String)
    /// `word`, in a related entry whose fan-out is `wordsOf`: the child's word.
    case word
    /// `position`, in a related entry (not a pool): the child's position among its parent's
    /// children, 0, 1, 2, … (a list's sort key, such as a song's place in its playlist).
    case position
    /// `joinedOf`, derived: the values of `field` of the pool members the row links to through
    /// one of its `related` relationships, joined by `separator` (tags as one string column).
    case joinedOf(relationship: String, field: String, separator: String = ",")

    /// How many fields the generator fills.
    public var fieldCounts: ClosedRange<Int> {
        if case .clusteredLocation = self { return 2...3 }
        return 1...1
    }

    /// The words of a `text` generator that names none.
    public static let defaultWords = [
        "harbour", "market", "street", "avenue", "old", "town", "river", "bridge", "park", "garden", "station",
        "north", "south", "east", "west", "hill", "lake", "view", "castle", "square", "beach", "tower", "church",
        "museum", "sunset", "morning", "evening", "city", "road", "village", "coast", "island", "valley",
    ]
}

/// One weighted cluster of the `clusteredLocation` generator:
/// `{"latitude": 37.77, "longitude": -122.42, "sigma": 0.06, "weight": 1, "label": "United States"}`.
public struct LocationCluster: Sendable, Equatable {
    /// `latitude` of the centre, in degrees.
    public var latitude: Double
    /// `longitude` of the centre, in degrees.
    public var longitude: Double
    /// `sigma`: the standard deviation in degrees of latitude (longitude uses 1.3x).
    public var sigma: Double
    /// `weight` (default 1): the cluster's share, relative to the others'.
    public var weight: Double
    /// `label`: written to the third field, when the generator fills three (a country, say).
    public var label: String?

    /// A cluster of weight 1 unless given.
    public init(latitude: Double, longitude: Double, sigma: Double, weight: Double = 1, label: String? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.sigma = sigma
        self.weight = weight
        self.label = label
    }
}

/// The functions a `derived` field applies.
public enum DerivedFunction: String, Sendable, CaseIterable {
    /// The whole part of a number, rounded down (a magnitude class).
    case floor
    /// The whole days since 2001-01-01 UTC of a date (2018-05-06 is day 6334).
    case day
}

extension GeneratorSpec {
    /// True for a generator that makes its own values (not one derived from another field, a
    /// parent, a relationship or a position): the ones a field's `nulls` applies to.
    package var makesValues: Bool {
        switch self {
        case .countOf, .parentField, .derived, .wordsOf, .word, .position, .joinedOf: return false
        default: return true
        }
    }

    /// The values a `choice` or a `cycle` picks from (an `entity` field's entity names); nil
    /// for the other kinds.
    package var pickedValues: [SQLValue]? {
        switch self {
        case .choice(let values, _), .cycle(let values): return values
        default: return nil
        }
    }
}
