import SchemaLabSQLite

/// A SQLite storage class: what a generator produces, and what an attribute type stores faithfully.
package enum ValueKind: String, Sendable {
    case integer, real, text, blob, null

    package init(_ value: SQLValue) {
        switch value {
        case .null: self = .null
        case .integer: self = .integer
        case .real: self = .real
        case .text: self = .text
        case .blob: self = .blob
        }
    }

    /// What an attribute type can store faithfully.
    package static func accepted(by type: AttributeType) -> Set<ValueKind> {
        switch type {
        case .string: return [.text, .null]
        case .integer16, .integer32, .integer64, .bool: return [.integer, .null]
        case .double, .float, .decimal: return [.integer, .real, .null]
        case .date: return [.real, .integer, .null]
        case .binary: return [.blob, .null]
        }
    }
}
