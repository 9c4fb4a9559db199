import SchemaLabSQLite
import SchemaLabCoreData

/// A re-ingest feed over a filled store of `size` rows: `count` = max(1, round(feed.size ×
/// size)) records, of which
/// `round(existing × count)` (at most `size`) carry the key fields of stored rows spread
/// evenly over the data set (rows `i × size / existingCount`) with every other field
/// regenerated from another seed (changed values), and the rest are new rows (the data
/// set's rows `size`, `size + 1`, …, as an append would add). The records come in a
/// seeded shuffled order, as a server's feed would; the same spec, size and key give the
/// same feed to every strategy and variant.
package struct FeedData: Sendable {
    /// One column per data set field (`GeneratedData/fieldNames` order), `count` rows.
    package let columns: [[SQLValue]]
    package let count: Int
    /// How many records match a stored row.
    package let existingCount: Int

    /// Throws a message when the key fields repeat a value in the stored or the new rows:
    /// a feed matches records to rows by key, so the key must be unique (a `uuid` or
    /// `sequence` generator, say).
    package init(dataset: DatasetSpec, size: Int, feed: FeedSpec, keyFields: [String]) throws(KeyPathError) {
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
        let keyColumns = original.fieldNames.indices.filter { keys.contains(original.fieldNames[$0]) }
        var seen: [[SQLValue]: Int] = [:]
        for row in 0..<(size + newCount) {
            let key = keyColumns.map { original.columns[$0][row] }
            if key.allSatisfy({ $0 == .null }) {
                throw KeyPathError(
                    message:
                        "the feed's key (\(keyFields.joined(separator: ", "))) has no value in row \(row + 1): no data set field fills it, or its field leaves rows nil (remove its 'nulls': a key needs a value in every row)",
                    at: ".feed")
            }
            if let first = seen.updateValue(row, forKey: key) {
                throw KeyPathError(
                    message:
                        "the feed's key (\(keyFields.joined(separator: ", "))) repeats in the data set, rows \(first + 1) and \(row + 1): a feed finds stored rows by key, so the key's generator must give distinct values (uuid or sequence)",
                    at: ".feed")
            }
        }
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
