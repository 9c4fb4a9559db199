import Foundation
import SchemaLabSQLite

/// What a workload's result is, for checking that variants and strategies agree: a digest
/// (written to results.csv) and, for small value results, the values themselves so that
/// floating-point aggregates can be compared with a tolerance.
package struct ResultSignature: Sendable {
    /// FNV-1a of the result; reals are rounded to 10 significant digits first, so sums
    /// taken in another order hash alike.
    package let digest: String
    /// The values of a dictionary, count or aggregate result (nil for object results, for
    /// value results of more than ``maxKeptValues`` cells and for results holding a blob).
    package let values: [[SQLValue]]?

    /// Value results larger than this are compared by digest only.
    package static let maxKeptValues = 200_000
    /// Relative tolerance for comparing reals: `|a - b| <= tolerance * max(|a|, |b|, 1)`.
    package static let tolerance = 1e-9

    package init(digest: String, values: [[SQLValue]]? = nil) {
        self.digest = digest
        self.values = values
    }

    /// The signature of a value result (rows of values).
    package static func of(rows: [[SQLValue]]) -> ResultSignature {
        var d = ResultDigest()
        d.add(UInt64(rows.count))
        for row in rows { for v in row { d.add(rounded(v)) } }
        let cells = rows.reduce(0) { $0 + $1.count }
        // Blobs compare exactly, so their digest is enough (and a result of photos would
        // otherwise be kept, and written to signatures/, byte by byte).
        let hasBlob = rows.contains { $0.contains { if case .blob = $0 { return true } else { return false } } }
        return ResultSignature(digest: d.hex, values: cells <= maxKeptValues && !hasBlob ? rows : nil)
    }

    /// The signature of rows whose order the request leaves open (a dictionary fetch without
    /// a sort): the rows as a multiset, so two variants that return them in another order (a
    /// scan against an index) sign alike. Rows are put in SQLite's value order, cell by cell,
    /// reals rounded as the digest rounds them.
    package static func of(unorderedRows rows: [[SQLValue]]) -> ResultSignature {
        let keyed = rows.map { row in (key: row.map(rounded), row: row) }
        let sorted = keyed.sorted { a, b in
            for (x, y) in zip(a.key, b.key) {
                let order = SQLValueOrder.compare(x, y)
                if order != 0 { return order < 0 }
            }
            return a.key.count < b.key.count
        }
        return of(rows: sorted.map(\.row))
    }

    /// Reals to 10 significant digits; integers that a real holds exactly stay comparable.
    static func rounded(_ v: SQLValue) -> SQLValue {
        guard case .real(let x) = v, x.isFinite, x != 0 else { return v }
        let scale = pow(10, 9 - floor(log10(abs(x))))
        return .real((x * scale).rounded() / scale)
    }

    /// True when both results are the same: equal values (reals within the tolerance,
    /// integers and reals compared as numbers) when both kept them, else equal digests.
    package func matches(_ other: ResultSignature) -> Bool {
        guard let a = values, let b = other.values else { return digest == other.digest }
        guard a.count == b.count else { return false }
        for (ra, rb) in zip(a, b) {
            guard ra.count == rb.count else { return false }
            for (x, y) in zip(ra, rb) where !Self.same(x, y) { return false }
        }
        return true
    }

    /// For `agreesWith` (two workloads that may read different keys of the same objects):
    /// the objects only, leaving out the digest of the touched values (after a `-`).
    package func agrees(with other: ResultSignature) -> Bool {
        if values != nil, other.values != nil { return matches(other) }
        return digest.split(separator: "-").first == other.digest.split(separator: "-").first
    }

    static func same(_ x: SQLValue, _ y: SQLValue) -> Bool {
        if let a = x.doubleValue, let b = y.doubleValue {
            if case .integer(let i) = x, case .integer(let j) = y { return i == j }
            if a == b { return true }  // equal infinities, whose difference is NaN
            return abs(a - b) <= tolerance * max(abs(a), abs(b), 1)
        }
        return x == y
    }
}
