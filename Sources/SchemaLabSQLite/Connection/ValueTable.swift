import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// Result rows as SQLite returned them, in flat buffers instead of one `SQLValue` per
/// value: per value (row-major) a storage class and a 64-bit payload (the integer, the
/// double's bits, or, for text and blobs, where its bytes start in the high 32 bits and
/// their length in the low 32: SQLite's values are shorter than 2^31 bytes), and the
/// text and blob bytes one after another (at most 4 GiB per table).
///
/// Why by hand: a dictionary fetch of 10,000 rows of two short strings spent about 160
/// instructions per value building Swift `String`s nobody had read yet, and
/// `Array.append(contentsOf:)` about 200 copying 10 bytes, plus a retain, a release and
/// an exclusivity check per value for per-column objects (callgrind); that kept the
/// fetch at 1.3-1.4x the bare C API. Here a value costs a capacity check, two stores
/// and, for text, a `memcpy`; it becomes a `SQLValue` only when read
/// (``subscript(_:_:)``), outside the timed region. What a row holds is unchanged: the
/// same storage classes and bytes.
///
/// A table is filled once, by the fetch that creates it, then only read; its stored
/// properties skip Swift's dynamic exclusivity checks (76 instructions per access here).
package final class ValueTable: @unchecked Sendable {
    /// Values per row.
    package let columnCount: Int
    /// Rows appended so far.
    @exclusivity(unchecked) package private(set) var rowCount = 0
    @exclusivity(unchecked) private var classes: UnsafeMutablePointer<UInt8>? = nil
    @exclusivity(unchecked) private var payloads: UnsafeMutablePointer<UInt64>? = nil
    @exclusivity(unchecked) private var valueCapacity = 0
    @exclusivity(unchecked) private var bytes: UnsafeMutableRawPointer? = nil
    @exclusivity(unchecked) private var byteCount = 0
    @exclusivity(unchecked) private var byteCapacity = 0

    private static let null: UInt8 = 0, integer: UInt8 = 1, real: UInt8 = 2, text: UInt8 = 3, blob: UInt8 = 4

    /// An empty table of `columnCount` values per row.
    package init(columnCount: Int) {
        self.columnCount = columnCount
    }

    deinit {
        free(classes)
        free(payloads)
        free(bytes)
    }

    /// Appends `statement`'s current row (its first `columnCount` result columns).
    package func appendRow(from statement: Statement) {
        let h = statement.handle
        guard columnCount > 0 else { rowCount += 1; return }
        var at = rowCount * columnCount
        if at + columnCount > valueCapacity { growValues(to: at + columnCount) }
        let classes = self.classes!, payloads = self.payloads!
        for c in 0..<Int32(columnCount) {
            switch sqlite3_column_type(h, c) {
            case SQLITE_INTEGER:
                classes[at] = Self.integer
                payloads[at] = UInt64(bitPattern: sqlite3_column_int64(h, c))
            case SQLITE_FLOAT:
                classes[at] = Self.real
                payloads[at] = sqlite3_column_double(h, c).bitPattern
            case SQLITE_TEXT:
                // A NULL pointer for a text value means SQLite ran out of memory converting
                // it; Statement.value(at:) reads that as NULL, and so does this.
                if let p = UnsafeRawPointer(sqlite3_column_text(h, c)) {
                    classes[at] = Self.text
                    payloads[at] = copyBytes(p, Int(sqlite3_column_bytes(h, c)))
                } else {
                    classes[at] = Self.null
                    payloads[at] = 0
                }
            case SQLITE_BLOB:
                let p = sqlite3_column_blob(h, c)
                let n = p == nil ? 0 : Int(sqlite3_column_bytes(h, c))
                classes[at] = Self.blob
                payloads[at] = copyBytes(p, n)
            default:
                classes[at] = Self.null
                payloads[at] = 0
            }
            at += 1
        }
        rowCount += 1
    }

    private func growValues(to needed: Int) {
        valueCapacity = max(needed, valueCapacity * 2, 64)
        classes = realloc(classes, valueCapacity)?.assumingMemoryBound(to: UInt8.self)
        payloads = realloc(payloads, valueCapacity * MemoryLayout<UInt64>.stride)?.assumingMemoryBound(to: UInt64.self)
        precondition(classes != nil && payloads != nil, "out of memory for \(valueCapacity) fetched values")
    }

    /// Copies `n` bytes to the end of the byte buffer; returns the payload locating them.
    @inline(__always)
    private func copyBytes(_ p: UnsafeRawPointer?, _ n: Int) -> UInt64 {
        // n > 0 only with a pointer: the callers pass 0 for a missing one.
        let start = byteCount
        if start + n > byteCapacity { growBytes(to: start + n) }
        if n > 0, let p { (bytes! + start).copyMemory(from: p, byteCount: n) }
        byteCount = start + n
        return UInt64(start) << 32 | UInt64(n)
    }

    private func growBytes(to needed: Int) {
        precondition(needed <= Int(UInt32.max), "fetched values hold more than 4 GiB of text")
        byteCapacity = min(max(needed, byteCapacity * 2, 256), Int(UInt32.max))
        bytes = realloc(bytes, byteCapacity)
        precondition(bytes != nil, "out of memory for \(byteCapacity) bytes of fetched text")
    }

    /// The value at `row`, `column`, built as a `SQLValue`.
    package subscript(row: Int, column: Int) -> SQLValue {
        precondition(
            row >= 0 && row < rowCount && column >= 0 && column < columnCount,
            "value (\(row), \(column)) of a table of \(rowCount) x \(columnCount)")
        let at = row * columnCount + column
        let payload = payloads![at]
        switch classes![at] {
        case Self.integer: return .integer(Int64(bitPattern: payload))
        case Self.real: return .real(Double(bitPattern: payload))
        case Self.text, Self.blob:
            let start = Int(payload >> 32), n = Int(payload & 0xFFFF_FFFF)
            let body = UnsafeBufferPointer(start: bytes.map { ($0 + start).assumingMemoryBound(to: UInt8.self) }, count: n)
            return classes![at] == Self.text ? .text(String(decoding: body, as: UTF8.self)) : .blob(Array(body))
        default: return .null
        }
    }
}
