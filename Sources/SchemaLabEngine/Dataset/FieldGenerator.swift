import Foundation
import SchemaLabSQLite

/// Generates the values of one ``FieldSpec`` for objects 0..<count, from its own
/// PRNG stream (seeded by the data set seed and the field names), so that a
/// field's values do not depend on the other fields or on the variant.
struct FieldGenerator {
    let spec: FieldSpec
    let seed: UInt64
    /// What names the stream: the field names, prefixed for the fields of related objects
    /// (`books/title`) so that they never share a stream with a root field.
    var streamKey: String

    init(spec: FieldSpec, seed: UInt64, streamPrefix: String = "") {
        self.spec = spec
        self.seed = seed
        self.streamKey = streamPrefix + spec.names.joined(separator: ",")
    }

    /// The stream seed for any key: the data set seed mixed with an FNV-1a hash of the key.
    static func streamSeed(_ seed: UInt64, key: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in key.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        var mix = SplitMix64(seed: seed ^ h)
        return mix.next()
    }

    /// One column of values per field name.
    func generate(count: Int) -> [[SQLValue]] {
        var stream = FieldStream(self)
        return stream.next(count)
    }
}

/// A field's values a chunk at a time: the stream's state (its PRNG, the next row's index)
/// carries over from one chunk to the next, so chunks of any size concatenate to exactly
/// the values `FieldGenerator/generate(count:)` makes at once.
struct FieldStream {
    let spec: FieldSpec
    private var rng: SplitMix64
    private var one: OneValue?
    private var clusterCumulative: [Double] = []
    /// With `nulls`: the stream that says which rows are nil (its own, so that the values
    /// of the other rows are the ones the field makes without it).
    private var nullDraws: SplitMix64?
    /// The index of the next row.
    private(set) var index = 0

    init(_ generator: FieldGenerator) {
        spec = generator.spec
        rng = SplitMix64(seed: FieldGenerator.streamSeed(generator.seed, key: generator.streamKey))
        if spec.nulls > 0 { nullDraws = SplitMix64(seed: FieldGenerator.streamSeed(generator.seed, key: "nulls:" + generator.streamKey)) }
        if case .clusteredLocation(let clusters, _, _) = spec.generator {
            var acc = 0.0
            for c in clusters { acc += c.weight; clusterCumulative.append(acc) }
        } else {
            one = OneValue(spec.generator)
        }
    }

    /// The next `count` rows: one column of values per field name.
    mutating func next(_ count: Int) -> [[SQLValue]] {
        var cols = Array(repeating: [SQLValue](), count: spec.names.count)
        for i in cols.indices { cols[i].reserveCapacity(count) }
        defer { index += count }
        switch spec.generator {
        case .clusteredLocation(let clusters, let scatter, let labels):
            for _ in 0..<count {
                let lat: Double, lon: Double, label: String
                if rng.unit() >= scatter {
                    let c = clusters[rng.pick(cumulative: clusterCumulative)]
                    lat = c.latitude + rng.gaussian() * c.sigma
                    lon = c.longitude + rng.gaussian() * c.sigma * 1.3
                    label = c.label ?? ""
                } else {
                    lat = -55.0 + 125.0 * rng.unit()
                    lon = -180.0 + 360.0 * rng.unit()
                    label = labels[Int(rng.next() % UInt64(labels.count))]
                }
                cols[0].append(.real(lat))
                cols[1].append(.real(lon))
                if cols.count > 2 { cols[2].append(.text(label)) }
            }
        default:
            for i in index..<index + count { cols[0].append(one!.value(index: i, rng: &rng)) }
        }
        if var draws = nullDraws {
            for row in 0..<count where draws.unit() < spec.nulls {
                for c in cols.indices { cols[c][row] = .null }
            }
            nullDraws = draws
        }
        return cols
    }
}

/// The single-value generators, with their precomputed tables.
private struct OneValue {
    let g: GeneratorSpec
    var cumulative: [Double] = []

    init(_ g: GeneratorSpec) {
        self.g = g
        if case .choice(_, let weights) = g {
            var acc = 0.0
            cumulative = weights.map {
                acc += $0; return acc
            }
        }
    }

    mutating func value(index: Int, rng: inout SplitMix64) -> SQLValue {
        switch g {
        case .sequence(let start, let step, let prefix):
            let n = start &+ Int64(index) &* step
            return prefix.map { .text($0 + String(n)) } ?? .integer(n)
        case .uniformInt(let lo, let hi):
            return .integer(rng.int(in: lo, hi))
        case .uniformDouble(let lo, let hi):
            return .real(lo + (hi - lo) * rng.unit())
        case .normal(let mean, let sd, let lo, let hi):
            var v = mean + sd * rng.gaussian()
            if let lo { v = max(v, lo) }
            if let hi { v = min(v, hi) }
            return .real(v)
        case .pareto(let scale, let alpha, let maxV, let roundAbove, let roundTo):
            // Redraw values above max (in Double, so a huge draw never traps converting to
            // Int64); the decoder makes sure enough draws are at most max.
            var x: Double
            repeat {
                let u = 1.0 - rng.unit()
                x = (scale * (pow(u, -1.0 / alpha) - 1.0)).rounded(.down)
            } while !(x <= Double(maxV))
            var v = Int64(x)
            if let r = roundAbove, v >= r { v -= v % roundTo }
            return .integer(v)
        case .choice(let values, _):
            return values[rng.pick(cumulative: cumulative)]
        case .cycle(let values):
            return values[index % values.count]
        case .text(let lo, let hi, let words):
            let target = lo + Int(rng.next() % UInt64(hi - lo + 1))
            var s = ""
            while s.utf8.count < target {
                if !s.isEmpty { s += " " }
                s += words[Int(rng.next() % UInt64(words.count))]
            }
            return .text(String(decoding: s.utf8.prefix(target), as: UTF8.self))
        case .uuid(let prefix, let suffix):
            let r1 = rng.next(), r2 = rng.next()
            let hex = [
                String(r1 >> 32, radix: 16).leftPadded(to: 8), String((r1 >> 16) & 0xFFFF, radix: 16).leftPadded(to: 4),
                String(r1 & 0xFFFF, radix: 16).leftPadded(to: 4), String(r2 >> 48, radix: 16).leftPadded(to: 4),
                String(r2 & 0xFFFF_FFFF_FFFF, radix: 16).leftPadded(to: 12),
            ].joined(separator: "-").uppercased()
            return .text(prefix + hex + suffix)
        case .dateRange(let from, let to):
            return .real(from + rng.unit() * (to - from))
        case .bool(let p):
            return .integer(rng.unit() < p ? 1 : 0)
        case .bytes(let lo, let hi):
            let n = lo + Int(rng.next() % UInt64(hi - lo + 1))
            var bytes = [UInt8](repeating: 0, count: n)
            var i = 0
            while i < n {
                var r = rng.next()
                for _ in 0..<8 where i < n { bytes[i] = UInt8(truncatingIfNeeded: r); r >>= 8; i += 1 }
            }
            return .blob(bytes)
        case .constant(let v):
            return v
        case .clusteredLocation:
            fatalError("clusteredLocation fills several fields; FieldGenerator.generate handles it before OneValue")
        case .countOf, .parentField, .derived, .wordsOf, .word, .joinedOf, .position:
            fatalError("derived fields are computed by GeneratedData from the fan-outs and the parent rows")
        }
    }
}
