import SchemaLabSQLite

/// The data set's rows a chunk at a time, so that the lab's memory for generating N rows
/// stays that of one chunk, whatever N is: filling a store with a million photos holds
/// `chunkSize` rows of values, not a million.
///
/// Each field keeps its own stream (`FieldStream`) from chunk to chunk, so the chunks
/// concatenate to exactly the rows `GeneratedData/init(spec:count:)` makes at once (a
/// test checks the digests). A data set with `related` entries, or with fields computed
/// from them (`countOf`, `joinedOf`), is not streamed: its one chunk is the whole data
/// set, generated at once (its fan-outs and pools link rows across the whole set).
package struct DataStream {
    /// Rows per chunk by default: large enough that a chunk's own cost is noise beside a
    /// save of it, small enough to be a few megabytes.
    package static let defaultChunkSize = 10_000

    package let count: Int
    package let chunkSize: Int
    /// False when the data set has `related` entries: then the first chunk is the whole set.
    package let streams: Bool
    /// The rows handed out so far.
    package private(set) var produced = 0

    private let spec: DatasetSpec
    private var fields: [FieldStream?] = []
    private var fieldNames: [String] = []

    package init(spec: DatasetSpec, count: Int, chunkSize: Int = DataStream.defaultChunkSize) {
        precondition(chunkSize > 0, "a chunk holds at least one row")
        self.spec = spec
        self.count = count
        self.chunkSize = chunkSize
        streams = Self.streams(spec)
        guard streams else { return }
        for f in spec.fields {
            if case .derived = f.generator {
                fields.append(nil)
            } else {
                fields.append(FieldStream(FieldGenerator(spec: f, seed: spec.seed)))
            }
            fieldNames += f.names
        }
    }

    /// The next chunk of rows, or nil once all `count` rows were handed out.
    package mutating func next() -> GeneratedData? {
        guard produced < count else { return nil }
        guard streams else {
            produced = count
            return GeneratedData(spec: spec, count: count)
        }
        let n = min(chunkSize, count - produced)
        var columns: [[SQLValue]] = []
        columns.reserveCapacity(fieldNames.count)
        var names: [String] = []
        for (k, f) in spec.fields.enumerated() {
            if case .derived(let from, let function) = f.generator {
                columns.append(GeneratedLevel.derive(columns[names.firstIndex(of: from)!], function))
            } else {
                columns += fields[k]!.next(n)
            }
            names += f.names
        }
        produced += n
        return GeneratedData(count: n, fieldNames: fieldNames, columns: columns)
    }

    /// Skips the next `rows` rows (they are generated, a chunk at a time, and dropped): the
    /// rows after them continue the data set. A data set that does not stream cannot skip.
    package mutating func skip(_ rows: Int) {
        precondition(streams, "a data set with related entries is generated whole: it cannot skip rows")
        var left = min(rows, count - produced)
        while left > 0 {
            let k = min(max(chunkSize, Self.defaultChunkSize), left)  // how it is cut does not change the rows after
            for i in fields.indices { _ = fields[i]?.next(k) }
            produced += k
            left -= k
        }
    }

    /// True when `spec`'s rows stream (no related entries, no field computed from them).
    package static func streams(_ spec: DatasetSpec) -> Bool {
        spec.related.isEmpty && spec.fields.allSatisfy(\.streams)
    }

    /// Runs `body` on every chunk in order, each released before the next is made.
    package mutating func forEachChunk(_ body: (GeneratedData) throws -> Void) rethrows {
        while let chunk = next() { try body(chunk) }
    }
}

extension FieldSpec {
    /// True when the field's values depend only on its own stream and its row's other fields.
    var streams: Bool {
        switch generator {
        case .countOf, .parentField, .word, .joinedOf, .wordsOf, .position: return false
        default: return true
        }
    }
}

/// The digest of a data set handed out in chunks: equal to `GeneratedData/digest` of the
/// whole set, whatever the chunk sizes.
package struct StreamDigest {
    private var digest = ResultDigest()

    package init() {}

    /// Adds the rows of the next chunk (and, for a data set that does not stream, its relationships).
    package mutating func add(_ chunk: GeneratedData) {
        for row in 0..<chunk.count {
            for c in chunk.columns { digest.add(c[row]) }
        }
        for r in chunk.related { r.addDigest(to: &digest) }
    }

    package var hex: String { digest.hex }
}
