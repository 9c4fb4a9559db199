import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData

/// BEGINSWITH as a range: the upper bound of a prefix, above every string that has it in SQLite's BINARY order.
@Suite("Predicate compiler: the upper bound of a prefix range")
struct PredicatePrefixBoundTests {
    @Test(
        "The upper bound of a prefix range",
        arguments: [
            ("ab", "ac"), ("a", "b"), ("az", "a{"), ("é", "ê"), ("a\u{D7FF}", "a\u{E000}"),
            ("a\u{10FFFF}", "b"), ("\u{10FFFF}\u{10FFFF}", nil), ("", nil), ("🇫🇷", "🇫🇸"),
        ] as [(String, String?)])
    func upperBound(_ prefix: String, _ expected: String?) {
        #expect(PredicateCompiler.prefixUpperBound(prefix) == expected)
        if let upper = expected {
            // Every string with the prefix sorts below the bound in UTF-8 byte order (SQLite BINARY).
            for suffix in ["", "\u{10FFFF}", "zzz", "\u{0}"] {
                #expect(Array((prefix + suffix).utf8).lexicographicallyPrecedes(Array(upper.utf8)))
            }
        }
    }
}
