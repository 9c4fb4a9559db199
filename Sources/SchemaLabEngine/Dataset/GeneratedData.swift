import Foundation
import SchemaLabSQLite
import SchemaLabCoreData

/// The logical data set for one size: one column of values per field, row i being
/// the i-th root object, and the objects of every `related` relationship. The same
/// for every variant.
package struct GeneratedData: Sendable {
    package let count: Int
    package let fieldNames: [String]
    package let columns: [[SQLValue]]
    /// The to-many relationships filled for the root rows, in the data set's `related` order.
    package let related: [GeneratedRelation]
    /// False for ``rowsNotGenerated(count:)``: the size of a data set whose rows no workload
    /// holds (they stream from a `DataStream` where needed).
    package let hasRows: Bool

    /// A data set of `count` rows that are not generated here: no columns, no relationships.
    package static func rowsNotGenerated(count: Int) -> GeneratedData {
        GeneratedData(count: count, fieldNames: [], columns: [], hasRows: false)
    }

    /// Generates `count` rows of `spec`, deterministically from its seed.
    package init(spec: DatasetSpec, count: Int) {
        let level = GeneratedLevel(
            seed: spec.seed, count: count, fields: spec.fields, related: spec.related,
            streamPrefix: "", parent: nil)
        self.count = count
        self.fieldNames = level.fieldNames
        self.columns = level.columns
        self.related = level.related
        self.hasRows = true
    }

    /// A chunk of a stream's rows (`DataStream`): root fields only.
    init(count: Int, fieldNames: [String], columns: [[SQLValue]], hasRows: Bool = true) {
        self.count = count
        self.fieldNames = fieldNames
        self.columns = columns
        self.related = []
        self.hasRows = hasRows
    }

    package func column(_ name: String) -> [SQLValue]? {
        fieldNames.firstIndex(of: name).map { columns[$0] }
    }

    /// The root rows' relationship named `name`.
    package func relation(_ name: String) -> GeneratedRelation? {
        related.first { $0.relationship == name }
    }

    /// FNV-1a over every value, row by row in field order, then (when there are
    /// any) every relationship's fan-outs, links and objects: equal data, equal hash.
    package var digest: String {
        var d = StreamDigest()
        d.add(self)
        return d.hex
    }
}

/// The objects of one to-many relationship for every row of the level above it.
///
/// Row p of the parent level owns the entries `offsets[p]..<offsets[p+1]`: without a
/// pool these are the ordinals of its new destination objects (children follow their
/// parents, so the children of a prefix of the parents are a prefix of the children);
/// with a pool they index `links`, the pool members it links to (distinct per row).
package struct GeneratedRelation: Sendable {
    package let relationship: String
    /// The relationship path from the root (`books`, `books.reviews`).
    package let path: String
    package let offsets: [Int]
    /// With a pool: the pool member of each link. Empty without a pool.
    package let links: [Int]
    package let isPool: Bool
    /// The destination objects (the children, or the pool members): how many, and their fields.
    package let count: Int
    package let fieldNames: [String]
    package let columns: [[SQLValue]]
    /// The relationships filled for each child (never for pool members).
    package let related: [GeneratedRelation]

    /// How many objects parent row `p` is linked to.
    @inline(__always)
    package func fanOut(_ parent: Int) -> Int { offsets[parent + 1] - offsets[parent] }

    /// The destination objects of parent row `p`: child ordinals, or pool members.
    package func targets(_ parent: Int) -> [Int] {
        let r = offsets[parent]..<offsets[parent + 1]
        return isPool ? Array(links[r]) : Array(r)
    }

    package func column(_ name: String) -> [SQLValue]? {
        fieldNames.firstIndex(of: name).map { columns[$0] }
    }

    package func relation(_ name: String) -> GeneratedRelation? {
        related.first { $0.relationship == name }
    }

    func addDigest(to h: inout ResultDigest) {
        for b in path.utf8 { h.add(UInt64(b)) }
        h.add(UInt64(offsets.count))
        for o in offsets { h.add(UInt64(o)) }
        for l in links { h.add(UInt64(l)) }
        h.add(UInt64(count))
        for row in 0..<count {
            for c in columns { h.add(c[row]) }
        }
        for r in related { r.addDigest(to: &h) }
    }
}

/// One level of the data: its rows' fields, then its relationships (recursively).
struct GeneratedLevel {
    var fieldNames: [String] = []
    var columns: [[SQLValue]] = []
    var related: [GeneratedRelation] = []

    /// The parent level's field names and columns and, per row of this level, its parent row.
    typealias Parent = (names: [String], columns: [[SQLValue]], rowOf: [Int])

    /// `parent`: the parent level's fields and, per row of this level, its parent row;
    /// `words`: for the children of a `wordsOf` fan-out, each child's word.
    init(
        seed: UInt64, count: Int, fields: [FieldSpec], related specs: [RelatedSpec], streamPrefix: String,
        parent: Parent?, words: [SQLValue]? = nil
    ) {
        let entityColumn = Self.entityColumn(seed: seed, count: count, fields: fields, specs: specs, streamPrefix: streamPrefix)
        // Fan-outs first: countOf fields read them (a wordsOf fan-out reads a field: after them).
        let (fanOutOffsets, linksList) = Self.fanOuts(seed: seed, count: count, specs: specs, entityColumn: entityColumn)
        var offsetsList = consume fanOutOffsets  // wordsOfFanOuts sets its entries' offsets in place
        addColumns(
            fields, seed: seed, count: count, streamPrefix: streamPrefix, specs: specs, offsetsList: offsetsList, parent: parent,
            words: words)
        let childWords = wordsOfFanOuts(specs, count: count, offsetsList: &offsetsList)
        for (k, r) in specs.enumerated() {
            if let pool = r.pool {
                related.append(Self.poolRelation(r, pool: pool, seed: seed, offsets: offsetsList[k], links: linksList[k]))
            } else {
                related.append(childRelation(r, seed: seed, count: count, offsets: offsetsList[k], words: childWords[k]))
            }
        }
        fillJoinedColumns(fields, specs: specs, count: count)
    }

    /// An entry `for` one entity of an entity field: the entity field's values, so that the
    /// rows of other entities get no children from it (nil when no entry names an entity).
    private static func entityColumn(
        seed: UInt64, count: Int, fields: [FieldSpec], specs: [RelatedSpec], streamPrefix: String
    ) -> [SQLValue]? {
        guard specs.contains(where: { $0.forEntity != nil }) else { return nil }
        return fields.first(where: { $0.names == ["entity"] }).map {
            FieldGenerator(spec: $0, seed: seed, streamPrefix: streamPrefix).generate(count: count)[0]
        }
    }

    /// Per related entry, the offsets of each row's children (or links) and, with a pool, the
    /// members each row links to; a wordsOf fan-out is left empty (it reads a field).
    private static func fanOuts(
        seed: UInt64, count: Int, specs: [RelatedSpec], entityColumn: [SQLValue]?
    ) -> (offsets: [[Int]], links: [[Int]]) {
        var offsetsList: [[Int]] = []
        var linksList: [[Int]] = []
        for r in specs {
            if case .wordsOf = r.fanOut {
                offsetsList.append([])
                linksList.append([])
                continue
            }
            let offsets = fanOutOffsets(r, seed: seed, count: count, entityColumn: entityColumn)
            offsetsList.append(offsets)
            if let n = r.pool?.count {
                linksList.append(poolLinks(r, poolCount: n, seed: seed, count: count, offsets: offsets))
            } else {
                linksList.append([])
            }
        }
        return (offsetsList, linksList)
    }

    /// The running total of one entry's fan-out, row by row (at most the pool's size per row).
    private static func fanOutOffsets(_ r: RelatedSpec, seed: UInt64, count: Int, entityColumn: [SQLValue]?) -> [Int] {
        let poolCount = r.pool?.count
        let fan = FieldGenerator(
            spec: FieldSpec(names: [r.relationshipPath], generator: r.fanOut, path: r.path),
            seed: seed, streamPrefix: "fanOut:"
        ).generate(count: count)[0]
        var offsets = [Int](repeating: 0, count: count + 1)
        var acc = 0
        for i in 0..<count {
            var k = Int(fan[i].integerValue ?? 0)
            if let only = r.forEntity, let entities = entityColumn, entities[i] != .text(only) { k = 0 }
            if let n = poolCount { k = min(k, n) }
            acc += k
            offsets[i + 1] = acc
        }
        return offsets
    }

    /// The pool members each row links to, picked from the entry's own stream.
    private static func poolLinks(_ r: RelatedSpec, poolCount n: Int, seed: UInt64, count: Int, offsets: [Int]) -> [Int] {
        var picker = PoolPicker(
            count: n, zipf: r.popularity,
            seed: FieldGenerator.streamSeed(seed, key: "pick:" + r.relationshipPath))
        var links: [Int] = []
        links.reserveCapacity(offsets[count])
        for i in 0..<count { picker.pick(offsets[i + 1] - offsets[i], into: &links) }
        return links
    }

    /// Each field's column, in order: generated, or read from the fan-outs, a source field,
    /// the parent level, the words, or the row's position; a joinedOf column is filled later.
    private mutating func addColumns(
        _ fields: [FieldSpec], seed: UInt64, count: Int, streamPrefix: String, specs: [RelatedSpec], offsetsList: [[Int]],
        parent: Parent?, words: [SQLValue]?
    ) {
        for f in fields {
            switch f.generator {
            case .countOf(let name):
                let offsets = offsetsList[specs.firstIndex { $0.relationship == name }!]
                columns.append((0..<count).map { .integer(Int64(offsets[$0 + 1] - offsets[$0])) })
            case .derived(let from, let function):
                columns.append(Self.derive(columns[fieldNames.firstIndex(of: from)!], function))
            case .parentField(let name):
                let p = parent!
                let source = p.columns[p.names.firstIndex(of: name)!]
                columns.append(p.rowOf.map { source[$0] })
            case .word:
                columns.append(words ?? [SQLValue](repeating: .null, count: count))
            case .position:
                columns.append(Self.positions(parent?.rowOf ?? [], count: count))
            case .joinedOf:
                columns.append([])  // filled once the related rows exist, in fillJoinedColumns
            default:
                columns += FieldGenerator(spec: f, seed: seed, streamPrefix: streamPrefix).generate(count: count)
            }
            fieldNames += f.names
        }
    }

    /// Each row's position among its parent's children: children of one parent are
    /// contiguous, so count up until the parent changes.
    private static func positions(_ rowOf: [Int], count: Int) -> [SQLValue] {
        var column: [SQLValue] = []
        column.reserveCapacity(count)
        var previous = -1, position: Int64 = 0
        for p in rowOf {
            position = p == previous ? position + 1 : 0
            previous = p
            column.append(.integer(position))
        }
        return column
    }

    /// wordsOf fan-outs: one child per distinct word of the row's field. Sets their offsets
    /// and returns, per entry, the children's words (empty for other entries).
    private func wordsOfFanOuts(_ specs: [RelatedSpec], count: Int, offsetsList: inout [[Int]]) -> [[SQLValue]] {
        var childWords: [[SQLValue]] = Array(repeating: [], count: specs.count)
        for (k, r) in specs.enumerated() {
            guard case .wordsOf(let field) = r.fanOut else { continue }
            let source = columns[fieldNames.firstIndex(of: field)!]
            var offsets = [0]
            offsets.reserveCapacity(count + 1)
            for v in source {
                if case .text(let s) = v { childWords[k] += Self.distinctWords(s).map { SQLValue.text($0) } }
                offsets.append(childWords[k].count)
            }
            offsetsList[k] = offsets
        }
        return childWords
    }

    /// A pooled entry's relation: the pool's members, generated once from their own streams.
    private static func poolRelation(_ r: RelatedSpec, pool: PoolSpec, seed: UInt64, offsets: [Int], links: [Int]) -> GeneratedRelation {
        let level = GeneratedLevel(
            seed: seed, count: pool.count, fields: pool.fields, related: [],
            streamPrefix: "pool:" + r.relationshipPath + "/", parent: nil)
        return GeneratedRelation(
            relationship: r.relationship, path: r.relationshipPath, offsets: offsets,
            links: links, isPool: true, count: pool.count,
            fieldNames: level.fieldNames, columns: level.columns, related: [])
    }

    /// An entry's new children: a level of their own below this one's rows.
    private func childRelation(_ r: RelatedSpec, seed: UInt64, count: Int, offsets: [Int], words: [SQLValue]) -> GeneratedRelation {
        let n = offsets[count]
        var rowOf = [Int](repeating: 0, count: n)
        for p in 0..<count { for c in offsets[p]..<offsets[p + 1] { rowOf[c] = p } }
        let level = GeneratedLevel(
            seed: seed, count: n, fields: r.fields, related: r.related,
            streamPrefix: r.relationshipPath + "/",
            parent: (fieldNames, columns, rowOf), words: words)
        return GeneratedRelation(
            relationship: r.relationship, path: r.relationshipPath, offsets: offsets,
            links: [], isPool: false, count: n,
            fieldNames: level.fieldNames, columns: level.columns, related: level.related)
    }

    /// joinedOf: each row's linked members' (or children's) values of a field, joined.
    private mutating func fillJoinedColumns(_ fields: [FieldSpec], specs: [RelatedSpec], count: Int) {
        var at = 0
        for f in fields {
            defer { at += f.names.count }
            guard case .joinedOf(let name, let field, let separator) = f.generator,
                let k = specs.firstIndex(where: { $0.relationship == name })
            else { continue }
            let g = related[k]
            let values = g.columns[g.fieldNames.firstIndex(of: field)!]
            var joined: [SQLValue] = []
            joined.reserveCapacity(count)
            for p in 0..<count {
                var parts: [String] = []
                for i in g.offsets[p]..<g.offsets[p + 1] {
                    if case .text(let s) = values[g.isPool ? g.links[i] : i] { parts.append(s) }
                }
                joined.append(parts.isEmpty ? SQLValue.null : SQLValue.text(parts.joined(separator: separator)))
            }
            columns[at] = joined
        }
    }

    /// A derived field's values from its source field's.
    static func derive(_ source: [SQLValue], _ function: DerivedFunction) -> [SQLValue] {
        source.map { v in
            guard let d = v.doubleValue else { return .null }
            // A value no 64-bit integer holds (1e300, infinity, NaN) derives null.
            let x: Int64?
            switch function {
            case .floor: x = Int64(exactly: d.rounded(.down))
            case .day: x = Int64(exactly: (d / 86_400).rounded(.down))
            }
            return x.map { .integer($0) } ?? .null
        }
    }

    /// The distinct words of `text` in canonical form (lower-cased, no diacritics), in order
    /// of first appearance; a word is a run of letters and digits.
    static func distinctWords(_ text: String) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for w in CanonicalString.of(text).split(whereSeparator: { !($0.isLetter || $0.isNumber) }) where seen.insert(String(w)).inserted {
            out.append(String(w))
        }
        return out
    }
}

/// Picks k distinct pool members per row from one stream: uniformly, or weighted
/// 1/(i+1)^s (Zipf). Few picks: draw and redraw duplicates; many: keep the k
/// smallest exponential keys (Efraimidis-Spirakis). Both sample without replacement.
struct PoolPicker {
    let count: Int
    let weights: [Double]?
    let cumulative: [Double]
    var rng: SplitMix64
    var taken: [Bool]
    var keys: [(Double, Int)] = []

    init(count: Int, zipf: Double?, seed: UInt64) {
        self.count = count
        if let s = zipf {
            let w = (0..<count).map { 1.0 / pow(Double($0) + 1.0, s) }
            var acc = 0.0
            weights = w
            cumulative = w.map {
                acc += $0; return acc
            }
        } else {
            weights = nil
            cumulative = []
        }
        rng = SplitMix64(seed: seed)
        taken = [Bool](repeating: false, count: count)
    }

    mutating func draw() -> Int {
        guard !cumulative.isEmpty else { return Int(rng.next() % UInt64(count)) }
        let x = rng.unit() * cumulative[count - 1]
        var lo = 0, hi = count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if x < cumulative[mid] { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    mutating func pick(_ k: Int, into links: inout [Int]) {
        guard k > 0 else { return }
        if k * 4 <= count {
            let start = links.count
            while links.count - start < k {
                let m = draw()
                if !taken[m] { taken[m] = true; links.append(m) }
            }
            for m in links[start...] { taken[m] = false }
        } else {
            keys.removeAll(keepingCapacity: true)
            for i in 0..<count {
                let e = -log(1.0 - rng.unit())
                keys.append((e / (weights?[i] ?? 1.0), i))
            }
            keys.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
            for j in 0..<k { links.append(keys[j].1) }
        }
    }
}

/// A 64-bit FNV-1a digest of values, for data and result checksums.
package struct ResultDigest: Sendable {
    package private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    package init() {}

    @inline(__always)
    package mutating func add(_ word: UInt64) {
        var word = word
        for _ in 0..<8 { value = (value ^ (word & 0xFF)) &* 0x100_0000_01B3; word >>= 8 }
    }

    package mutating func add(_ element: SQLValue) {
        switch element {
        case .null: add(0)
        case .integer(let i): add(1); add(UInt64(bitPattern: i))
        case .real(let d): add(2); add(d.bitPattern)
        case .text(let s): add(3); for b in s.utf8 { value = (value ^ UInt64(b)) &* 0x100_0000_01B3 }; add(UInt64(s.utf8.count))
        case .blob(let b): add(4); for x in b { value = (value ^ UInt64(x)) &* 0x100_0000_01B3 }; add(UInt64(b.count))
        }
    }

    package var hex: String { String(value, radix: 16).leftPadded(to: 16) }
}
