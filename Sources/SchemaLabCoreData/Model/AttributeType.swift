/// The attribute types of a Core Data model, and the SQLite column type each maps to.
public enum AttributeType: String, CaseIterable, Sendable {
    /// A string (`VARCHAR`).
    case string
    /// A 16-bit integer (`INTEGER`).
    case integer16
    /// A 32-bit integer (`INTEGER`).
    case integer32
    /// A 64-bit integer (`INTEGER`).
    case integer64
    /// A double-precision number (`FLOAT`).
    case double
    /// A single-precision number (`FLOAT`), held widened to a Double (see
    /// ``SchemaLabSQLite/SQLValue/heldAsFloat``).
    case float
    /// A Boolean, stored as 0 or 1 (`INTEGER`).
    case bool
    /// A date: seconds since 2001-01-01 UTC (`TIMESTAMP`).
    case date
    /// Bytes (`BLOB`).
    case binary
    /// A decimal number (`DECIMAL`).
    case decimal

    /// The declared column type Core Data uses (`VARCHAR`, `INTEGER`, `TIMESTAMP`, ...).
    public var columnType: String {
        switch self {
        case .string: return "VARCHAR"
        case .integer16, .integer32, .integer64, .bool: return "INTEGER"
        case .double, .float: return "FLOAT"
        case .date: return "TIMESTAMP"
        case .binary: return "BLOB"
        case .decimal: return "DECIMAL"
        }
    }

    /// Core Data's column group order inside CREATE TABLE: integers, (FKs), floats and
    /// timestamps, decimals, strings, blobs (the lab's inference, not an observed Core Data log).
    var columnGroup: Int {
        switch self {
        case .integer16, .integer32, .integer64, .bool: return 0
        case .double, .float, .date: return 2
        case .decimal: return 3
        case .string: return 4
        case .binary: return 5
        }
    }
}
