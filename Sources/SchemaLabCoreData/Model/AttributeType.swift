/// The attribute types of a Core Data model, and the SQLite column type each maps to.
public enum AttributeType: String, CaseIterable, Sendable {
    case string, integer16, integer32, integer64, double, float, bool, date, binary, decimal

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
