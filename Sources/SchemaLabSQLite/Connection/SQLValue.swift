/// A value as SQLite stores it: one of its five storage classes.
public enum SQLValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        case .text(let v): return "'" + v.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let v): return "x'" + v.map { String($0, radix: 16).leftPadded(to: 2) }.joined() + "'"
        }
    }

    /// True for NULL (a pattern match: `== .null` calls the derived equality, which another
    /// module cannot inline).
    @inlinable public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The integer value, or nil when the value is not an integer.
    public var integerValue: Int64? {
        if case .integer(let v) = self { return v }
        return nil
    }

    /// The text value, or nil when the value is not text.
    public var textValue: String? {
        if case .text(let v) = self { return v }
        return nil
    }

    /// The numeric value as a Double (integers converted), or nil.
    public var doubleValue: Double? {
        switch self {
        case .integer(let v): return Double(v)
        case .real(let v): return v
        default: return nil
        }
    }
}

extension String {
    package func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
