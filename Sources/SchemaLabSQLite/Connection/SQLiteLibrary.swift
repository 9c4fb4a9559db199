import CSQLite

/// Facts about the SQLite library linked into the lab, and its process-wide memory counters.
public enum SQLiteLibrary {
    /// `sqlite3_libversion()`, e.g. "3.40.1".
    public static var version: String { String(cString: sqlite3_libversion()) }
    /// `sqlite3_sourceid()`: the check-in the library was built from.
    public static var sourceID: String { String(cString: sqlite3_sourceid()) }

    /// The compile-time options (`sqlite3_compileoption_get`).
    public static var compileOptions: [String] {
        var out: [String] = []
        var i: Int32 = 0
        while let p = sqlite3_compileoption_get(i) {
            out.append(String(cString: p))
            i += 1
        }
        return out
    }

    /// Whether the R-tree module is compiled in.
    public static var hasRTree: Bool { compileOptions.contains("ENABLE_RTREE") }

    /// SQLite's heap high-water mark in bytes since the last reset (`sqlite3_memory_highwater`).
    public static func heapHighwater(reset: Bool) -> Int64 {
        sqlite3_memory_highwater(reset ? 1 : 0)
    }

    /// Resets the heap high-water mark to the current use.
    public static func resetHeapHighwater() { _ = sqlite3_memory_highwater(1) }
}
