import CIntArray
import CSQLite

/// A TEMP virtual table of integers on one connection, whose contents are replaced before
/// each statement that reads it: how Core Data binds a list of primary keys
/// (`WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0)`) instead of one `?` per key.
///
/// The module is the lab's C port of SQLite's public-domain `test_intarray.c`
/// (`Sources/CIntArray`): one column, `value`, every scan reads the whole list in order.
/// The table belongs to the connection and goes with it.
public final class IntegerArray {
    /// The table's name, as statements write it.
    public let name: String
    @usableFromInline let array: OpaquePointer
    @usableFromInline unowned let database: Database

    /// The name Core Data gives its first integer array.
    public static let coreDataName = "_Z_intarray0"

    init(database: Database, handle: OpaquePointer, name: String) throws {
        var out: OpaquePointer?
        let rc = schemalab_intarray_create(handle, name, &out)
        guard rc == SQLITE_OK, let out else {
            throw SQLiteError(code: rc, message: "cannot create the integer array \(name): \(String(cString: sqlite3_errmsg(handle)))")
        }
        self.name = name
        self.array = out
        self.database = database
    }

    /// Replaces the array's contents with `values` (copied), for the next statement that reads
    /// it. While the connection traces, the binding is recorded for the raw baseline.
    public func bind(_ values: some Collection<Int64>) throws {
        let rc =
            values.withContiguousStorageIfAvailable { schemalab_intarray_bind(array, Int32($0.count), $0.baseAddress) }
            ?? ContiguousArray(values).withUnsafeBufferPointer { schemalab_intarray_bind(array, Int32($0.count), $0.baseAddress) }
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: "cannot bind \(values.count) keys to \(name)") }
        if database.tracing { database.trace.appendArrayBinding(name: name, values: values) }
    }

    /// How many values the array holds.
    public var count: Int { Int(schemalab_intarray_count(array)) }
}
