/// A value as SQLite stores it: one of its five storage classes.
public enum SQLValue: Hashable, Sendable, CustomStringConvertible {
    /// SQL NULL.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An 8-byte IEEE floating-point number.
    case real(Double)
    /// A string, bound and read as UTF-8.
    case text(String)
    /// Bytes, stored as given.
    case blob([UInt8])

    /// Equal storage class and value (reals by `==`: `-0.0 == 0.0`, NaN equals nothing).
    /// Written out, and inlinable, so that a dictionary keyed by values in another module
    /// (the context's counters) does not call the derived conformance per comparison.
    @inlinable public static func == (lhs: SQLValue, rhs: SQLValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.integer(let left), .integer(let right)): return left == right
        case (.real(let left), .real(let right)): return left == right
        case (.text(let left), .text(let right)): return left == right
        case (.blob(let left), .blob(let right)): return left == right
        default: return false
        }
    }

    /// Hashes the storage class and the value, consistently with ``==(_:_:)``.
    @inlinable public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .integer(let value): hasher.combine(1 as UInt8); hasher.combine(value)
        case .real(let value): hasher.combine(2 as UInt8); hasher.combine(value)
        case .text(let value): hasher.combine(3 as UInt8); hasher.combine(value)
        case .blob(let value): hasher.combine(4 as UInt8); hasher.combine(value)
        }
    }

    /// The value as an SQL literal: `NULL`, `42`, `1.5`, `'it''s'` (quotes doubled),
    /// `x'0aff'` (hex), so a message or a log can show it as SQL would.
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
