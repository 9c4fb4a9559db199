import SchemaLabSQLite

/// How a list of primary keys is bound into a batched fetch's window or a prefetch.
public enum KeyBinding: String, Sendable, CaseIterable {
    /// Core Data's way: the keys go into the connection's TEMP virtual table of integers and
    /// the statement reads it, `t0.Z_PK IN (SELECT * FROM _Z_intarray0)`: one statement text
    /// for every list, however long.
    case integerArray
    /// One parameter per key, `t0.Z_PK IN (?,?,…)` (a statement text per list length, and at
    /// most 500 keys per statement, well under SQLite's limit on parameters): the lab's
    /// alternative, kept so that the two can be compared.
    case parameters

    /// The parenthesized list after `IN` for `count` keys.
    public func list(count: Int) -> String {
        switch self {
        case .integerArray: return "(SELECT * FROM \(IntegerArray.coreDataName))"
        case .parameters: return "(" + Array(repeating: "?", count: count).joined(separator: ",") + ")"
        }
    }

    /// How many keys one statement takes at most.
    public var chunk: Int {
        switch self {
        case .integerArray: return Int.max
        case .parameters: return 500
        }
    }
}
