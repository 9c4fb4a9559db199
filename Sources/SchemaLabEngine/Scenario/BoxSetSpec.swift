/// Bounding boxes over two numeric data set fields (latitude and longitude), generated from
/// a seed and the data: each box is a square centred on a stored row, sized so that a
/// fraction of the rows falls inside it, the fractions spread log-uniformly over
/// `minSelectivity...maxSelectivity`: `"boxes": {"count": 100, "seed": 11, "keys":
/// ["latitude", "longitude"], "selectivity": {"min": 0.0005, "max": 0.1}}`.
public struct BoxSetSpec: Sendable, Equatable {
    /// `count`: the boxes, each fetched and timed on its own.
    public var count: Int
    /// `seed` (default 1): which rows the boxes are centred on, and their sizes.
    public var seed: UInt64
    /// `keys`: the two fields (logical names) a box bounds, in the order their bounds are
    /// bound: lower and upper of the first, then of the second.
    public var keys: [String]
    /// `selectivity.min` (default 0.001): the smallest fraction of the rows in a box.
    public var minSelectivity: Double
    /// `selectivity.max` (default 0.01, or `min` when that is larger): the largest fraction.
    public var maxSelectivity: Double
    /// The box set's JSON path, for messages.
    public var path: String

    /// A box set; the defaults are the format's (a key left out).
    public init(
        count: Int, seed: UInt64 = 1, keys: [String], minSelectivity: Double = 0.001, maxSelectivity: Double = 0.01,
        path: String = ""
    ) {
        self.count = count
        self.seed = seed
        self.keys = keys
        self.minSelectivity = minSelectivity
        self.maxSelectivity = maxSelectivity
        self.path = path
    }
}
