import Foundation

/// The string semantics behind Core Data's SQL functions `NSCoreDataStringSearch`,
/// `NSCoreDataStringCompare`, `NSCoreDataToUpper`/`ToLower` and the `NSCollate…`
/// collations: substring search, three-way comparison, folding and case mapping,
/// with Foundation's meaning (`String.range(of:options:)`, `compare(_:options:)`).
///
/// Options are `NSStringCompareOptions` bit values, as Core Data passes them in SQL:
/// 1 case-insensitive, 2 literal, 4 backwards, 8 anchored, 64 numeric,
/// 128 diacritic-insensitive, 256 width-insensitive, 512 forced ordering.
///
/// When both strings are ASCII, the work is done on the bytes (ASCII case folding
/// is lowercasing; diacritic and width folding change nothing in ASCII), without
/// building Swift strings. Otherwise it is delegated to Foundation, so the result
/// is Foundation's on this platform. What swift-corelibs-foundation (Linux) does,
/// checked on Swift 6.3 and pinned by the tests:
/// - case folding is full Unicode case folding: `ß` matches `SS`/`ss`, the Greek
///   final sigma `ς` matches `σ`/`Σ`, the ligature `ﬁ` matches `fi`/`FI`;
/// - `İ` (U+0130) folds to `i` + U+0307, so `İ` equals `i\u{307}` under `[c]` but
///   not `i`; with `[cd]` (the dot is a combining mark) it also equals `i`
///   (Apple's Foundation may differ here);
/// - diacritic folding strips combining marks after decomposition: `É` (U+00C9 or
///   `E` + U+0301) equals `E`, `ñ` equals `n`; it does not decompose ligatures;
/// - width folding maps fullwidth/halfwidth forms: `Ａ` (U+FF21) equals `A`;
/// - with no options, canonically equivalent strings are equal (`É` == `E\u{301}`);
/// - a search matches whole characters: `"Café"` does not contain `"e"` without
///   `[d]`, and under `[c]` `"Straße"` contains `"STRASSE"` but not `"STRAS"`;
/// - searching for an empty string finds nothing.
package enum StringMatching {
    /// `NSCaseInsensitiveSearch`.
    package static let caseInsensitive = 1
    /// `NSLiteralSearch`.
    package static let literal = 2
    /// `NSBackwardsSearch`.
    package static let backwards = 4
    /// `NSAnchoredSearch`: with ``backwards``, anchored at the end.
    package static let anchored = 8
    /// `NSNumericSearch` (comparison only): digit runs compare by value, `"file2" < "file10"`.
    package static let numeric = 64
    /// `NSDiacriticInsensitiveSearch`.
    package static let diacriticInsensitive = 128
    /// `NSWidthInsensitiveSearch`.
    package static let widthInsensitive = 256
    /// `NSForcedOrderingSearch` (comparison only).
    package static let forcedOrdering = 512

    /// The option bits this type honours; any other bit (e.g. 1024, regular
    /// expression) is ignored rather than changing what the function does.
    package static let supportedOptions = 1 | 2 | 4 | 8 | 64 | 128 | 256 | 512

    // MARK: Search (CONTAINS, BEGINSWITH, ENDSWITH)

    /// True when `text` contains `pattern` under `options`: anchored (8) at the
    /// start for BEGINSWITH, anchored and backwards (8|4) at the end for ENDSWITH,
    /// anywhere otherwise. An empty pattern is never found.
    package static func search(_ text: String, for pattern: String, options: Int) -> Bool {
        var text = text, pattern = pattern
        return text.withUTF8 { t in pattern.withUTF8 { p in search(utf8: t, pattern: p, options: options) } }
    }

    /// ``search(_:for:options:)`` on UTF-8 bytes (the SQLite functions' entry point).
    static func search(
        utf8 text: UnsafeBufferPointer<UInt8>, pattern: UnsafeBufferPointer<UInt8>,
        options: Int, patternString: String? = nil
    ) -> Bool {
        if pattern.isEmpty { return false }
        let options = options & supportedOptions
        if isASCII(text) && isASCII(pattern) {
            return asciiSearch(text, pattern, options: options)
        }
        let t = String(decoding: text, as: UTF8.self)
        let p = patternString ?? String(decoding: pattern, as: UTF8.self)
        return t.range(of: p, options: String.CompareOptions(rawValue: UInt(options))) != nil
    }

    /// ASCII search on bytes; folding is lowercasing when case-insensitive.
    static func asciiSearch(_ text: UnsafeBufferPointer<UInt8>, _ pattern: UnsafeBufferPointer<UInt8>, options: Int) -> Bool {
        let m = pattern.count, n = text.count
        guard m <= n else { return false }
        let fold = options & caseInsensitive != 0
        @inline(__always) func matches(at start: Int) -> Bool {
            var i = 0
            if fold {
                while i < m {
                    if lowerASCII(text[start + i]) != lowerASCII(pattern[i]) { return false }
                    i += 1
                }
            } else {
                while i < m {
                    if text[start + i] != pattern[i] { return false }
                    i += 1
                }
            }
            return true
        }
        if options & anchored != 0 {
            return matches(at: options & backwards != 0 ? n - m : 0)
        }
        let first = fold ? lowerASCII(pattern[0]) : pattern[0]
        var start = 0
        while start <= n - m {
            let b = fold ? lowerASCII(text[start]) : text[start]
            if b == first && matches(at: start) { return true }
            start += 1
        }
        return false
    }

    // MARK: Comparison

    /// -1, 0 or 1 as `a.compare(b, options:)` returns ascending, same or descending.
    package static func compare(_ lhs: String, _ rhs: String, options: Int) -> Int {
        var lhs = lhs, rhs = rhs
        return lhs.withUTF8 { x in rhs.withUTF8 { y in compare(utf8: x, y, options: options) } }
    }

    /// ``compare(_:_:options:)`` on UTF-8 bytes (the SQLite functions' and collations' entry point).
    static func compare(utf8 a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, options: Int) -> Int {
        let options = options & supportedOptions
        if options & forcedOrdering == 0 && isASCII(a) && isASCII(b) {
            return asciiCompare(a, b, caseInsensitive: options & caseInsensitive != 0, numeric: options & numeric != 0)
        }
        let x = String(decoding: a, as: UTF8.self), y = String(decoding: b, as: UTF8.self)
        return sign(x.compare(y, options: String.CompareOptions(rawValue: UInt(options))))
    }

    /// ASCII comparison on bytes, as Foundation does it: case folding lowercases;
    /// with `numeric`, runs of digits compare by value (leading zeros ignored, so
    /// `"a01"` equals `"a1"`; a run stops before it would overflow `Int`).
    static func asciiCompare(
        _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>,
        caseInsensitive fold: Bool, numeric: Bool
    ) -> Int {
        var i = 0, j = 0
        while i < a.count && j < b.count {
            var x = a[i], y = b[j]
            if numeric && isDigit(x) && isDigit(y) {
                let v1 = digitRun(a, &i), v2 = digitRun(b, &j)
                if v1 != v2 { return v1 < v2 ? -1 : 1 }
                continue
            }
            if fold { x = lowerASCII(x); y = lowerASCII(y) }
            if x != y { return x < y ? -1 : 1 }
            i += 1; j += 1
        }
        if i == a.count && j == b.count { return 0 }
        return i == a.count ? -1 : 1
    }

    /// The locale of the locale-sensitive collations: ICU's root locale, not
    /// `Locale.current`, so that the order does not depend on the machine's `LANG`
    /// (Core Data on Apple platforms uses the user's current locale).
    package static let collationLocale = Locale(identifier: "")

    /// Compares with a locale's collation (ICU through Foundation's
    /// `compare(_:options:range:locale:)`), for the `NSCollateLocaleSensitive…`
    /// collations. There is no ASCII fast path: collation order is not byte order
    /// (`"a" < "B"`).
    package static func localizedCompare(_ lhs: String, _ rhs: String, options: Int, locale: Locale = collationLocale) -> Int {
        sign(lhs.compare(rhs, options: String.CompareOptions(rawValue: UInt(options & supportedOptions)), range: nil, locale: locale))
    }

    // MARK: Folding and case mapping

    /// `string` folded as Foundation's `folding(options:locale:)` with no locale,
    /// for the bits 1 (case), 128 (diacritics) and 256 (width) of `options`.
    /// ASCII strings under case folding are lowercased without Foundation.
    package static func fold(_ string: String, options: Int) -> String {
        let options = options & (caseInsensitive | diacriticInsensitive | widthInsensitive)
        if options == 0 { return string }
        var copy = string
        if copy.withUTF8({ isASCII($0) }) {
            return options & caseInsensitive != 0 ? string.lowercased() : string
        }
        return string.folding(options: String.CompareOptions(rawValue: UInt(options)), locale: nil)
    }

    /// Full Unicode uppercase mapping, locale-independent (`"ß"` becomes `"SS"`).
    package static func uppercased(_ string: String) -> String { string.uppercased() }

    /// Full Unicode lowercase mapping, locale-independent (`"İ"` becomes `"i\u{307}"`).
    package static func lowercased(_ string: String) -> String { string.lowercased() }

    // MARK: Bytes

    /// True when every byte is ASCII.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in bytes where b >= 0x80 { return false }
        return true
    }

    @inline(__always)
    static func lowerASCII(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

    @inline(__always)
    static func upperASCII(_ b: UInt8) -> UInt8 { b &- 0x61 < 26 ? b & ~0x20 : b }

    @inline(__always)
    private static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    /// Consumes a run of digits from `i`, stopping before the value would overflow.
    private static func digitRun(_ s: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Int {
        var value = 0
        while i < s.count, isDigit(s[i]) {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            if o1 { break }
            let (v, o2) = m.addingReportingOverflow(Int(s[i] - 0x30))
            if o2 { break }
            value = v
            i += 1
        }
        return value
    }

    private static func sign(_ r: ComparisonResult) -> Int {
        switch r {
        case .orderedAscending: return -1
        case .orderedSame: return 0
        case .orderedDescending: return 1
        }
    }
}
