import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// Core Data's SQL functions and collations, registered on every connection by
/// ``Database/init(path:)`` so that SQL written the way Core Data writes it runs.
///
/// Functions (all `SQLITE_UTF8 | SQLITE_DETERMINISTIC`; a non-text argument is
/// read as text the way `sqlite3_value_text` converts it):
/// - `NSCoreDataStringSearch(text, pattern, options, localeFlag)` → 1/0: CONTAINS
///   (no anchor bit), BEGINSWITH (options & 8), ENDSWITH (options & 12 == 12), with
///   `NSStringCompareOptions` bits: 1 `[c]`, 128 `[d]`, 256 width (Core Data sends
///   257 for `[c]`, 384 for `[d]`, 385 for `[cd]`). See `StringMatching/search(_:for:options:)`.
/// - `NSCoreDataLike(text, pattern, flags)` → 1/0: LIKE with `*`, `?`, `\`;
///   flags 1 `[c]`, 2 `[d]`, 4 `[n]`. See `PatternMatching/Like`.
/// - `NSCoreDataMatches(text, regex, flags)` → 1/0: MATCHES, an ICU regular
///   expression matching the whole text; an invalid pattern is an SQL error.
///   See `PatternMatching/Regex`.
/// - `NSCoreDataStringCompare(a, b, options, localeFlag)` → -1/0/1 (NULL if `a` or
///   `b` is NULL), options as for search plus 64 numeric.
/// - `NSCoreDataToUpper(text)`, `NSCoreDataToLower(text)`: full Unicode case mapping;
///   `NSCoreDataCanonical(text)`: the `[cd]` folding (a derived attribute's `canonical:`).
/// - `NSCoreDataNow()`: the time as Core Data stores dates; and the derived-attribute
///   triggers' callbacks `NSCoreDataDATriggerInsertUpdatedAffectedObjectValue` and
///   `NSCoreDataDATriggerUpdatedAffectedObjectValue` (5 arguments, NULL: the lab's context
///   does not refresh objects from them).
///
/// In search, LIKE and MATCHES a NULL text or pattern gives 0 (so `NOT(…)` gives 1,
/// as NSPredicate's in-memory `nil CONTAINS x` is false). `localeFlag` is accepted
/// and ignored: the lab does no locale-specific comparison in these functions.
///
/// Compiled patterns (the pattern's string, the LIKE tokens, the regex) are cached
/// per statement with `sqlite3_set_auxdata` on argument 1, which SQLite keeps while
/// that argument is a constant (a literal or a bound parameter).
///
/// Collations: `NSCollateNoCase` (options 1), `NSCollateNumericallyNoCase` (1|64),
/// `NSCollateFinderlike` (1|64|128: case- and diacritic-insensitive, numeric; not
/// locale-aware), and `NSCollateLocaleSensitive` (0) / `NSCollateLocaleSensitiveNoCase`
/// (1) which use ICU collation in the root locale (`StringMatching/collationLocale`).
enum CoreDataFunctions {
    typealias Function = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void
    typealias Collation = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32

    /// Registers every function and collation on `db`; throws on the first failure.
    static func register(on db: OpaquePointer) throws {
        let functions: [(String, Int32, Function)] = [
            ("NSCoreDataStringSearch", 4, stringSearch),
            ("NSCoreDataLike", 3, like),
            ("NSCoreDataMatches", 3, matches),
            ("NSCoreDataStringCompare", 4, stringCompare),
            ("NSCoreDataToUpper", 1, toUpper),
            ("NSCoreDataToLower", 1, toLower),
            ("NSCoreDataCanonical", 1, canonical),
        ]
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        for (name, arity, function) in functions {
            let rc = sqlite3_create_function_v2(db, name, arity, flags, nil, function, nil, nil, nil)
            try check(rc, db, "function \(name)")
        }
        // What derived attributes' triggers call: the time, and the callbacks through which
        // Core Data refreshes objects in memory (no-ops here: the lab's context does not).
        let volatile: [(String, Int32, Function)] = [
            ("NSCoreDataNow", 0, now),
            ("NSCoreDataDATriggerInsertUpdatedAffectedObjectValue", 5, affectedObject),
            ("NSCoreDataDATriggerUpdatedAffectedObjectValue", 5, affectedObject),
        ]
        for (name, arity, function) in volatile {
            let rc = sqlite3_create_function_v2(db, name, arity, SQLITE_UTF8, nil, function, nil, nil, nil)
            try check(rc, db, "function \(name)")
        }
        let collations: [(String, Collation)] = [
            ("NSCollateNoCase", collateNoCase),
            ("NSCollateNumericallyNoCase", collateNumericallyNoCase),
            ("NSCollateLocaleSensitive", collateLocaleSensitive),
            ("NSCollateLocaleSensitiveNoCase", collateLocaleSensitiveNoCase),
            ("NSCollateFinderlike", collateFinderlike),
        ]
        for (name, collation) in collations {
            let rc = sqlite3_create_collation_v2(db, name, SQLITE_UTF8, nil, collation, nil)
            try check(rc, db, "collation \(name)")
        }
    }

    private static func check(_ rc: Int32, _ db: OpaquePointer, _ what: String) throws {
        guard rc == SQLITE_OK else {
            throw SQLiteError(code: rc, message: "cannot register \(what): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    // MARK: Functions

    static let stringSearch: Function = { ctx, _, argv in
        guard let argv, let text = textArgument(argv[0]), let pattern = textArgument(argv[1]) else {
            return sqlite3_result_int(ctx, 0)
        }
        let options = Int(sqlite3_value_int64(argv[2]))
        let patternString = cached(ctx, argument: 1, key: pattern, flags: 0) { String(decoding: pattern, as: UTF8.self) }
        let found = StringMatching.search(utf8: text, pattern: pattern, options: options, patternString: patternString)
        sqlite3_result_int(ctx, found ? 1 : 0)
    }

    static let like: Function = { ctx, _, argv in
        guard let argv, let text = textArgument(argv[0]), let pattern = textArgument(argv[1]) else {
            return sqlite3_result_int(ctx, 0)
        }
        let flags = Int(sqlite3_value_int64(argv[2]))
        let compiled = cached(ctx, argument: 1, key: pattern, flags: flags) {
            PatternMatching.Like(String(decoding: pattern, as: UTF8.self), options: flags)
        }
        sqlite3_result_int(ctx, compiled.matches(utf8: text) ? 1 : 0)
    }

    static let matches: Function = { ctx, _, argv in
        guard let argv, let text = textArgument(argv[0]), let pattern = textArgument(argv[1]) else {
            return sqlite3_result_int(ctx, 0)
        }
        let flags = Int(sqlite3_value_int64(argv[2]))
        let compiled = cached(ctx, argument: 1, key: pattern, flags: flags) {
            () -> Result<PatternMatching.Regex, PatternMatching.InvalidRegex> in
            Result { () throws(PatternMatching.InvalidRegex) in
                try PatternMatching.Regex(String(decoding: pattern, as: UTF8.self), options: flags)
            }
        }
        switch compiled {
        case .success(let regex):
            sqlite3_result_int(ctx, regex.matches(String(decoding: text, as: UTF8.self)) ? 1 : 0)
        case .failure(let error):
            sqlite3_result_error(ctx, "NSCoreDataMatches: \(error)", -1)
        }
    }

    static let stringCompare: Function = { ctx, _, argv in
        guard let argv, let a = textArgument(argv[0]), let b = textArgument(argv[1]) else {
            return sqlite3_result_null(ctx)
        }
        let options = Int(sqlite3_value_int64(argv[2]))
        sqlite3_result_int(ctx, Int32(StringMatching.compare(utf8: a, b, options: options)))
    }

    /// `canonical:` of a derived attribute: lower-cased, diacritics and width folded (NSString's
    /// folding with options 385), as the `[n]` search form expects.
    static let canonical: Function = { ctx, _, argv in
        guard let argv, let text = textArgument(argv[0]) else { return sqlite3_result_null(ctx) }
        var folded = StringMatching.fold(String(decoding: text, as: UTF8.self), options: 385)
        folded.withUTF8 { buf in
            buf.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_result_text(ctx, chars.baseAddress, Int32(chars.count), schemalab_sqlite_transient())
            }
        }
    }

    /// `now()`: seconds since 2001-01-01 UTC, as Core Data stores dates.
    static let now: Function = { ctx, _, _ in
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        sqlite3_result_double(ctx, Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9 - 978_307_200)
    }

    /// The derived-attribute triggers' callback: returns NULL.
    static let affectedObject: Function = { ctx, _, _ in sqlite3_result_null(ctx) }

    static let toUpper: Function = { ctx, _, argv in mapCase(ctx, argv, upper: true) }
    static let toLower: Function = { ctx, _, argv in mapCase(ctx, argv, upper: false) }

    private static func mapCase(_ ctx: OpaquePointer?, _ argv: UnsafeMutablePointer<OpaquePointer?>?, upper: Bool) {
        guard let argv, let text = textArgument(argv[0]) else { return sqlite3_result_null(ctx) }
        if StringMatching.isASCII(text) {
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: max(text.count, 1)) { out in
                for i in 0..<text.count {
                    let b = upper ? StringMatching.upperASCII(text[i]) : StringMatching.lowerASCII(text[i])
                    out[i] = CChar(bitPattern: b)
                }
                sqlite3_result_text(ctx, out.baseAddress, Int32(text.count), schemalab_sqlite_transient())
            }
            return
        }
        let s = String(decoding: text, as: UTF8.self)
        var mapped = upper ? StringMatching.uppercased(s) : StringMatching.lowercased(s)
        mapped.withUTF8 { buf in
            buf.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_result_text(ctx, chars.baseAddress, Int32(chars.count), schemalab_sqlite_transient())
            }
        }
    }

    // MARK: Collations

    static let collateNoCase: Collation = { _, n1, p1, n2, p2 in
        Int32(StringMatching.compare(utf8: bytes(p1, n1), bytes(p2, n2), options: StringMatching.caseInsensitive))
    }

    static let collateNumericallyNoCase: Collation = { _, n1, p1, n2, p2 in
        Int32(
            StringMatching.compare(
                utf8: bytes(p1, n1), bytes(p2, n2),
                options: StringMatching.caseInsensitive | StringMatching.numeric))
    }

    static let collateFinderlike: Collation = { _, n1, p1, n2, p2 in
        Int32(
            StringMatching.compare(
                utf8: bytes(p1, n1), bytes(p2, n2),
                options: StringMatching.caseInsensitive | StringMatching.numeric
                    | StringMatching.diacriticInsensitive))
    }

    static let collateLocaleSensitive: Collation = { _, n1, p1, n2, p2 in
        Int32(StringMatching.localizedCompare(string(p1, n1), string(p2, n2), options: 0))
    }

    static let collateLocaleSensitiveNoCase: Collation = { _, n1, p1, n2, p2 in
        Int32(StringMatching.localizedCompare(string(p1, n1), string(p2, n2), options: StringMatching.caseInsensitive))
    }

    // MARK: Values

    /// The argument's UTF-8 text (converted as `sqlite3_value_text` does), or nil for NULL.
    /// Valid until the function returns.
    @inline(__always)
    private static func textArgument(_ value: OpaquePointer?) -> UnsafeBufferPointer<UInt8>? {
        if sqlite3_value_type(value) == SQLITE_NULL { return nil }
        let p = sqlite3_value_text(value)
        let n = Int(sqlite3_value_bytes(value))
        return UnsafeBufferPointer(start: p, count: p == nil ? 0 : n)
    }

    @inline(__always)
    private static func bytes(_ p: UnsafeRawPointer?, _ n: Int32) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: p?.assumingMemoryBound(to: UInt8.self), count: p == nil ? 0 : Int(n))
    }

    private static func string(_ p: UnsafeRawPointer?, _ n: Int32) -> String {
        String(decoding: bytes(p, n), as: UTF8.self)
    }

    // MARK: Per-statement cache (auxdata)

    /// A value cached on a function argument, with the argument bytes and flags it was made from.
    private final class AuxEntry<Value> {
        let key: [UInt8]
        let flags: Int
        let value: Value
        init(key: [UInt8], flags: Int, value: Value) {
            self.key = key
            self.flags = flags
            self.value = value
        }
    }

    private static let releaseAux: @convention(c) (UnsafeMutableRawPointer?) -> Void = { p in
        if let p { Unmanaged<AnyObject>.fromOpaque(p).release() }
    }

    /// The value cached on argument `argument` of this call if it was made from the
    /// same bytes and flags, else `make()`, cached with `sqlite3_set_auxdata`.
    private static func cached<Value>(
        _ ctx: OpaquePointer?, argument: Int32, key: UnsafeBufferPointer<UInt8>,
        flags: Int, _ make: () -> Value
    ) -> Value {
        if let p = sqlite3_get_auxdata(ctx, argument),
            let entry = Unmanaged<AnyObject>.fromOpaque(p).takeUnretainedValue() as? AuxEntry<Value>,
            entry.flags == flags, entry.key.elementsEqual(key)
        {
            return entry.value
        }
        let entry = AuxEntry(key: Array(key), flags: flags, value: make())
        // SQLite owns one retain; it releases it (possibly at once) through releaseAux.
        sqlite3_set_auxdata(ctx, argument, Unmanaged.passRetained(entry as AnyObject).toOpaque(), releaseAux)
        return entry.value
    }
}
