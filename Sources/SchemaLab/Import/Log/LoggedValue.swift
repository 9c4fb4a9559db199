import SchemaLabEngine

/// A value Core Data logged as bound to a statement (`SQLite bind[0] = …`).
///
/// Core Data prints a string in double quotes, a number as it is (an object's key sometimes as
/// `(int64)5`), `nil` or `NULL` for NULL, and data as `<0a1b …>`; what it prints for another
/// object is kept as text and marked unreadable.
package enum LoggedValue: Hashable, Sendable {
    /// An integer.
    case integer(Int64)
    /// A number with a fraction (a date is one: seconds since 2001).
    case real(Double)
    /// A string.
    case text(String)
    /// NULL.
    case null
    /// Bytes (`<0a1b2c>`).
    case bytes([UInt8])
    /// What the reader could not read, as logged.
    case unreadable(String)

    /// Reads the text after `= `.
    package static func parse(_ raw: Substring) -> LoggedValue {
        let text = raw.trimmingTrailingSpaces
        if text.count >= 2, text.first == "\"", text.last == "\"" { return .text(String(text.dropFirst().dropLast())) }
        if text == "nil" || text == "NULL" || text == "(null)" { return .null }
        var number = text
        if number.hasPrefix("(int64)") || number.hasPrefix("(int32)") { number = number.dropFirst(7) }
        if let value = Int64(number) { return .integer(value) }
        if let value = Double(number), value.isFinite { return .real(value) }
        if text.first == "<", text.last == ">" {
            let hex = text.dropFirst().dropLast().filter { !$0.isWhitespace }
            if hex.count % 2 == 0, let bytes = Self.bytes(hex) { return .bytes(bytes) }
        }
        return .unreadable(String(text))
    }

    private static func bytes(_ hex: String) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(hex.count / 2)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            out.append(byte)
            index = next
        }
        return out
    }

    /// The value as a predicate argument; nil for bytes and unreadable values (a predicate
    /// argument has no bytes form).
    package var predicateValue: PredicateValue? {
        switch self {
        case .integer(let v): return .integer(v)
        case .real(let v): return .real(v)
        case .text(let s): return .string(s)
        case .null: return .null
        case .bytes, .unreadable: return nil
        }
    }
}
