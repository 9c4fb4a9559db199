import SchemaLabSQLite

/// What Core Data's Float attributes do to a value.
extension SQLValue {
    /// The value as a Core Data Float (32-bit) attribute holds it: a number rounded to the
    /// nearest `Float` and widened back to a `Double`, so 1.7 becomes 1.7000000476837158. Core
    /// Data's SQLite store gives Float and Double attributes one column type and binds either
    /// with `doubleValue`, so it is the widened value that the store holds, and a fetch with
    /// `== 1.7` does not find it (nor does NSPredicate in memory: the two NSNumbers differ).
    /// Other values are unchanged.
    public var heldAsFloat: SQLValue {
        switch self {
        case .real(let v): return .real(Double(Float(v)))
        case .integer(let v): return Int64(exactly: Double(Float(v))).map { .integer($0) } ?? .real(Double(Float(v)))
        default: return self
        }
    }
}
