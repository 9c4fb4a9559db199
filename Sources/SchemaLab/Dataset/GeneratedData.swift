/// The logical data set for one size: one column of values per field, row i being
/// the i-th root object. The same for every variant.
public struct GeneratedData: Sendable {
    public let count: Int
    public let fieldNames: [String]
    public let columns: [[SQLValue]]

    /// Generates `count` rows of `spec`, deterministically from its seed.
    public init(spec: DatasetSpec, count: Int) {
        var names: [String] = []
        var cols: [[SQLValue]] = []
        for f in spec.fields {
            let generated = FieldGenerator(spec: f, seed: spec.seed).generate(count: count)
            names += f.names
            cols += generated
        }
        self.count = count
        self.fieldNames = names
        self.columns = cols
    }

    public func column(_ name: String) -> [SQLValue]? {
        fieldNames.firstIndex(of: name).map { columns[$0] }
    }

    /// FNV-1a over every value, row by row in field order: equal data, equal hash.
    public var digest: String {
        var h = ResultDigest()
        for row in 0..<count {
            for c in columns { h.add(c[row]) }
        }
        return h.hex
    }
}

/// A 64-bit FNV-1a digest of values, for data and result checksums.
public struct ResultDigest: Sendable {
    public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    public init() {}

    @inline(__always)
    public mutating func add(_ x: UInt64) {
        var x = x
        for _ in 0..<8 { value = (value ^ (x & 0xFF)) &* 0x100_0000_01B3; x >>= 8 }
    }

    public mutating func add(_ v: SQLValue) {
        switch v {
        case .null: add(0)
        case .integer(let i): add(1); add(UInt64(bitPattern: i))
        case .real(let d): add(2); add(d.bitPattern)
        case .text(let s): add(3); for b in s.utf8 { value = (value ^ UInt64(b)) &* 0x100_0000_01B3 }; add(UInt64(s.utf8.count))
        case .blob(let b): add(4); for x in b { value = (value ^ UInt64(x)) &* 0x100_0000_01B3 }; add(UInt64(b.count))
        }
    }

    public var hex: String { String(value, radix: 16).leftPadded(to: 16) }
}
