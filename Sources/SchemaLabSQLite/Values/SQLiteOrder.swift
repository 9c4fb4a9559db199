/// The order of SQLite's `ORDER BY` with the BINARY collation (<https://www.sqlite.org/datatype3.html#sort_order>):
/// NULL first, then numbers (integers and reals compared by value, exactly), then text by its
/// bytes, then blobs by their bytes. The one place the lab sorts values as SQLite would.
package enum SQLiteOrder {
    /// -1, 0 or 1 as `a` sorts before, with, or after `b`.
    package static func compare(_ lhs: SQLValue, _ rhs: SQLValue) -> Int {
        let rankA = rank(lhs), rankB = rank(rhs)
        if rankA != rankB { return rankA < rankB ? -1 : 1 }
        switch (lhs, rhs) {
        case (.integer(let x), .integer(let y)): return x < y ? -1 : x > y ? 1 : 0
        case (.real(let x), .real(let y)): return x < y ? -1 : x > y ? 1 : 0
        case (.integer(let x), .real(let y)): return compare(integer: x, real: y)
        case (.real(let x), .integer(let y)): return -compare(integer: y, real: x)
        case (.text(let x), .text(let y)): return compareBytes(x.utf8, y.utf8)
        case (.blob(let x), .blob(let y)): return compareBytes(x, y)
        default: return 0  // two NULLs
        }
    }

    /// True when `a` sorts before `b`.
    package static func less(_ lhs: SQLValue, _ rhs: SQLValue) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// Rows of values in SQLite's order, column by column (a row that is a prefix of another first).
    package static func precedes(_ lhs: [SQLValue], _ rhs: [SQLValue]) -> Bool {
        for (x, y) in zip(lhs, rhs) {
            let order = compare(x, y)
            if order != 0 { return order < 0 }
        }
        return lhs.count < rhs.count
    }

    /// NULL, numbers, text, blobs.
    private static func rank(_ value: SQLValue) -> Int {
        switch value {
        case .null: return 0
        case .integer, .real: return 1
        case .text: return 2
        case .blob: return 3
        }
    }

    /// An integer against a real, exactly, as SQLite's `sqlite3IntFloatCompare` does when the
    /// platform has no long double wider than a double: converting the integer to a double
    /// would make 2^53 and 2^53 + 1 equal.
    static func compare(integer: Int64, real: Double) -> Int {
        if real.isNaN { return 1 }
        if real < -9_223_372_036_854_775_808.0 { return 1 }
        if real >= 9_223_372_036_854_775_808.0 { return -1 }
        let truncated = Int64(real.rounded(.towardZero))
        if integer < truncated { return -1 }
        if integer > truncated { return 1 }
        let asReal = Double(integer)
        if asReal < real { return -1 }
        if asReal > real { return 1 }
        return 0
    }

    /// `memcmp`, then the shorter first.
    private static func compareBytes<Bytes: Sequence<UInt8>>(_ a: Bytes, _ b: Bytes) -> Int {
        var left = a.makeIterator(), right = b.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?) where x != y: return x < y ? -1 : 1
            default: continue
            }
        }
    }
}
