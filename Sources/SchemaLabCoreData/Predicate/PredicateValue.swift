import SchemaLabSQLite

/// A constant a predicate compares with: a literal in the predicate text or an
/// element of the workload's `"arguments"` array (substituted for `%@`).
///
/// Dates are seconds since 2001-01-01 UTC, as Core Data stores them; a JSON
/// argument `{"date": "2014-10-01T00:00:00Z"}` becomes `.date`.
public indirect enum PredicateValue: Sendable, Equatable {
    /// `nil`.
    case null
    /// An integer.
    case integer(Int64)
    /// A number with a fraction.
    case real(Double)
    /// A string.
    case string(String)
    /// `TRUE` or `FALSE`, bound as 1 or 0.
    case bool(Bool)
    /// A date: seconds since 2001-01-01 UTC.
    case date(Double)
    /// Bytes: an `NSData` argument, or a `UUID`'s 16 bytes (Core Data stores a UUID attribute
    /// as 16 bytes in a BLOB column), bound as a BLOB.
    case bytes([UInt8])
    /// A list of values, the right side of `IN` or `BETWEEN`: one parameter per element.
    case array([PredicateValue])

    /// The value bound to a `?` parameter (arrays have none: they expand to several).
    public var sqlValue: SQLValue? {
        switch self {
        case .null: return .null
        case .integer(let v): return .integer(v)
        case .real(let v): return .real(v)
        case .string(let s): return .text(s)
        case .bool(let b): return .integer(b ? 1 : 0)
        case .date(let d): return .real(d)
        case .bytes(let b): return .blob(b)
        case .array: return nil
        }
    }

    /// How error messages name the value: `nil`, `the integer 3`, `the string "a"`, `an array of 2`.
    public var phrase: String {
        switch self {
        case .null: return "nil"
        case .integer(let value): return "the integer \(value)"
        case .real(let value): return "the number \(value)"
        case .string(let text): return "the string \"\(text)\""
        case .bool(let value): return value ? "TRUE" : "FALSE"
        case .date: return "a date"
        case .bytes(let b): return "\(b.count) bytes"
        case .array(let elements): return "an array of \(elements.count)"
        }
    }
}
