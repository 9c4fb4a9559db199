/// A re-ingest feed over a filled store of `size` rows: `count` = max(1, round(feed.size ×
/// size)) records, of which
/// `round(existing × count)` (at most `size`) carry the key fields of stored rows spread
/// evenly over the data set (rows `i × size / existingCount`) with every other field
/// regenerated from another seed (changed values), and the rest are new rows (the data
/// set's rows `size`, `size + 1`, …, as an append would add). The records come in a
/// seeded shuffled order, as a server's feed would; the same spec, size and key give the
/// same feed to every strategy and variant.
public struct FeedData: Sendable {
    /// One column per data set field (``GeneratedData/fieldNames`` order), `count` rows.
    public let columns: [[SQLValue]]
    public let count: Int
    /// How many records match a stored row.
    public let existingCount: Int

    public init(dataset: DatasetSpec, size: Int, feed: FeedSpec, keyFields: [String]) {
        let total = max(1, Int((feed.size * Double(size)).rounded()))
        let existingCount = min(size, Int((feed.existing * Double(total)).rounded()))
        let newCount = total - existingCount
        let original = GeneratedData(spec: dataset, count: size + newCount)
        var changedSpec = dataset
        changedSpec.seed = dataset.seed ^ (0xFEED_0000_0000_0000 &+ feed.seed &* 0x9E37_79B9)
        let changed = GeneratedData(spec: changedSpec, count: size)
        var rows: [(source: GeneratedData, row: Int, keyFrom: Int?)] = []
        rows.reserveCapacity(total)
        for i in 0..<existingCount { rows.append((changed, i * size / existingCount, i * size / existingCount)) }
        for i in 0..<newCount { rows.append((original, size + i, nil)) }
        var rng = SplitMix64(seed: feed.seed &+ 0x5EED)
        if rows.count > 1 {
            for i in stride(from: rows.count - 1, to: 0, by: -1) {
                rows.swapAt(i, Int(rng.int(in: 0, Int64(i))))
            }
        }
        let keys = Set(keyFields)
        columns = original.fieldNames.enumerated().map { f, name in
            rows.map { r in
                if let k = r.keyFrom, keys.contains(name) { return original.columns[f][k] }
                return r.source.columns[f][r.row]
            }
        }
        count = total
        self.existingCount = existingCount
    }
}
