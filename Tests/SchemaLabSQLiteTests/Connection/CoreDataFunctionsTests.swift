import Foundation
import Testing
@testable import SchemaLabSQLite
import SchemaLabTestSupport

/// One call of a Core Data SQL function and the value it must return.
struct FunctionCase: CustomTestStringConvertible, Sendable {
    let sql: String
    let arguments: [SQLValue]
    let expected: SQLValue
    let note: String

    var testDescription: String { "\(note): \(sql) \(arguments)" }

    static func search(_ text: SQLValue, _ pattern: SQLValue, _ options: Int64, _ expected: Int64, _ note: String) -> FunctionCase {
        FunctionCase(
            sql: "SELECT NSCoreDataStringSearch(?, ?, ?, 0)", arguments: [text, pattern, .integer(options)],
            expected: .integer(expected), note: note)
    }

    static func like(_ text: SQLValue, _ pattern: SQLValue, _ flags: Int64, _ expected: Int64, _ note: String) -> FunctionCase {
        FunctionCase(
            sql: "SELECT NSCoreDataLike(?, ?, ?)", arguments: [text, pattern, .integer(flags)],
            expected: .integer(expected), note: note)
    }

    static func matches(_ text: SQLValue, _ regex: SQLValue, _ flags: Int64, _ expected: Int64, _ note: String) -> FunctionCase {
        FunctionCase(
            sql: "SELECT NSCoreDataMatches(?, ?, ?)", arguments: [text, regex, .integer(flags)],
            expected: .integer(expected), note: note)
    }

    static func compare(_ a: SQLValue, _ b: SQLValue, _ options: Int64, _ expected: SQLValue, _ note: String) -> FunctionCase {
        FunctionCase(
            sql: "SELECT NSCoreDataStringCompare(?, ?, ?, 0)", arguments: [a, b, .integer(options)],
            expected: expected, note: note)
    }

    static func upper(_ text: SQLValue, _ expected: SQLValue, _ note: String) -> FunctionCase {
        FunctionCase(sql: "SELECT NSCoreDataToUpper(?)", arguments: [text], expected: expected, note: note)
    }

    static func lower(_ text: SQLValue, _ expected: SQLValue, _ note: String) -> FunctionCase {
        FunctionCase(sql: "SELECT NSCoreDataToLower(?)", arguments: [text], expected: expected, note: note)
    }
}

private func t(_ s: String) -> SQLValue { .text(s) }

/// Options Core Data sends to NSCoreDataStringSearch / NSCoreDataStringCompare.
private let c: Int64 = 257, d: Int64 = 384, cd: Int64 = 385, begins: Int64 = 8, ends: Int64 = 12

let functionCases: [FunctionCase] = [
    // CONTAINS, exact and [c]: full case folding (ß, final sigma, İ, ﬁ)
    .search(t("Straße"), t("STRASSE"), c, 1, "[c] ß folds to ss"),
    .search(t("Straße"), t("STRASSE"), 0, 0, "exact search is case-sensitive"),
    .search(t("STRASSE"), t("ß"), c, 1, "[c] ß in the pattern matches SS"),
    .search(t("Straße"), t("STRAS"), c, 0, "[c] a match cannot end inside the folded ß"),
    .search(t("Hello"), t("Hello"), 0, 1, "exact search finds the same text"),
    .search(t("Hello"), t("hello"), 0, 0, "exact search: h is not H"),
    .search(t("ΟΔΟΣ"), t("οδος"), c, 1, "[c] final sigma ς matches Σ"),
    .search(t("ΟΔΟΣ"), t("οδος"), 0, 0, "exact: Greek capitals are not small letters"),
    .search(t("İstanbul"), t("i\u{307}stanbul"), c, 1, "[c] İ folds to i + combining dot"),
    .search(t("İstanbul"), t("istanbul"), c, 0, "[c] İ is not plain i on Linux Foundation"),
    .search(t("İstanbul"), t("istanbul"), cd, 1, "[cd] İ's dot is a diacritic"),
    .search(t("ﬁle"), t("FILE"), c, 1, "[c] the ligature ﬁ folds to fi"),
    .search(t("ﬁle"), t("file"), 0, 0, "exact: the ligature ﬁ is not fi"),
    .search(t("ﬁle"), t("file"), d, 0, "[d] does not decompose the ligature"),
    // [d]: precomposed and decomposed É, ñ
    .search(t("Éclair"), t("Eclair"), d, 1, "[d] precomposed É matches E"),
    .search(t("E\u{301}clair"), t("Eclair"), d, 1, "[d] decomposed É matches E"),
    .search(t("Éclair"), t("Eclair"), 0, 0, "exact: É is not E"),
    .search(t("E\u{301}clair"), t("Éclair"), 0, 1, "canonically equivalent É forms are equal"),
    .search(t("Español"), t("espanol"), cd, 1, "[cd] ñ matches n"),
    .search(t("Español"), t("espanol"), c, 0, "[c] alone keeps the tilde"),
    .search(t("Café"), t("Cafe"), c, 0, "[c] alone keeps the accent"),
    // width
    .search(t("ＡＢＣ"), t("abc"), c, 1, "[c] (257) includes width: fullwidth Ａ matches a"),
    .search(t("ＡＢＣ"), t("ABC"), 256, 1, "width-insensitive alone"),
    .search(t("ＡＢＣ"), t("ABC"), 0, 0, "exact: fullwidth is not ASCII"),
    // BEGINSWITH (8) and ENDSWITH (8|4)
    .search(t("Hello World"), t("hello"), c | begins, 1, "BEGINSWITH[c] at the start"),
    .search(t("Hello World"), t("world"), c | begins, 0, "BEGINSWITH is anchored at the start"),
    .search(t("Hello World"), t("WORLD"), c | ends, 1, "ENDSWITH[c] at the end"),
    .search(t("Hello World"), t("hello"), c | ends, 0, "ENDSWITH is anchored at the end"),
    .search(t("Hello World"), t("lo wo"), c, 1, "CONTAINS[c] in the middle"),
    .search(t("Hello World"), t("lo wo"), c | begins, 0, "BEGINSWITH does not find the middle"),
    .search(t("Hello World"), t("Hello World!"), c, 0, "a pattern longer than the text"),
    .search(t("Ünïcode straße"), t("STRASSE"), cd | ends, 1, "ENDSWITH[cd] through Foundation"),
    .search(t("Ünïcode straße"), t("unicode"), cd | begins, 1, "BEGINSWITH[cd] through Foundation"),
    .search(t("Ünïcode straße"), t("unicode"), cd | ends, 0, "ENDSWITH[cd] is anchored at the end"),
    // empty, NULL, non-text
    .search(t("abc"), t(""), c, 0, "an empty pattern is never found"),
    .search(t(""), t(""), 0, 0, "not even in an empty text"),
    .search(t(""), t("a"), 0, 0, "an empty text contains nothing"),
    .search(.null, t("a"), c, 0, "NULL text"),
    .search(t("a"), .null, c, 0, "NULL pattern"),
    .search(.integer(12345), t("234"), 0, 1, "an integer text is read as its decimal text"),
    .search(.integer(12345), t("99"), 0, 0, "an integer text without the digits"),
    .search(.real(1.5), t(".5"), 0, 1, "a real text is read as SQLite prints it"),
    .search(t("abc12"), .integer(12), 0, 1, "an integer pattern"),
    FunctionCase(
        sql: "SELECT NOT NSCoreDataStringSearch(NULL, 'a', 257, 0)", arguments: [],
        expected: .integer(1), note: "NOT(NULL CONTAINS x) is true"),

    // LIKE
    .like(t("hello"), t("h*o"), 0, 1, "* matches a run"),
    .like(t("hello"), t("h*x"), 0, 0, "* then a missing letter"),
    .like(t("hello"), t("h?llo"), 0, 1, "? matches one character"),
    .like(t("hello"), t("h?lo"), 0, 0, "? matches exactly one"),
    .like(t("hello"), t("hell"), 0, 0, "the whole text must match"),
    .like(t("hello"), t("*"), 0, 1, "* matches everything"),
    .like(t(""), t("*"), 0, 1, "* matches the empty text"),
    .like(t(""), t(""), 0, 1, "an empty pattern matches the empty text"),
    .like(t("a"), t(""), 0, 0, "an empty pattern matches only the empty text"),
    .like(t("mississippi"), t("*iss*ss*"), 0, 1, "backtracking over several *"),
    .like(t("mississippi"), t("m*iss*x"), 0, 0, "backtracking fails"),
    .like(t("HELLO"), t("hello"), 0, 0, "LIKE is case-sensitive"),
    .like(t("HELLO"), t("he*o"), 1, 1, "LIKE[c]"),
    .like(t("HELLO"), t("hello"), 5, 0, "[n] turns folding off"),
    .like(t("a*b"), t("a\\*b"), 0, 1, "\\* is a literal star"),
    .like(t("axb"), t("a\\*b"), 0, 0, "\\* is not a wildcard"),
    .like(t("a?b"), t("a\\?b"), 0, 1, "\\? is a literal question mark"),
    .like(t("axb"), t("a\\?b"), 0, 0, "\\? is not a wildcard"),
    .like(t("a\\b"), t("a\\\\b"), 0, 1, "\\\\ is a literal backslash"),
    .like(t("Café"), t("Cafe"), 2, 1, "LIKE[d] precomposed"),
    .like(t("Cafe\u{301}"), t("Caf?"), 2, 1, "LIKE[d] decomposed: the mark is stripped"),
    .like(t("Café"), t("cafe"), 2, 0, "LIKE[d] is still case-sensitive"),
    .like(t("CAFÉ"), t("caf?"), 3, 1, "LIKE[cd]"),
    .like(t("CAFÉ"), t("cafe"), 1, 0, "LIKE[c] keeps the accent"),
    .like(t("Straße"), t("stra??e"), 1, 1, "LIKE[c]: ß is two characters once folded"),
    .like(t("Straße"), t("stra?e"), 1, 0, "LIKE[c]: one ? does not cover the folded ß"),
    .like(t("Straße"), t("Stra?e"), 0, 1, "LIKE: ß is one character unfolded"),
    .like(t("ﬁsh"), t("FI*"), 1, 1, "LIKE[c]: ﬁ folds to fi"),
    .like(t("Ünïcode"), t("?n?code"), 0, 1, "? matches one non-ASCII character"),
    .like(t("a\r\nb"), t("a?b"), 0, 1, "CR LF is one character"),
    .like(.null, t("*"), 0, 0, "LIKE with NULL text"),
    .like(t("x"), .null, 0, 0, "LIKE with NULL pattern"),
    .like(.integer(2024), t("20*"), 0, 1, "LIKE on an integer"),

    // MATCHES
    .matches(t("abc"), t("b.*"), 0, 0, "MATCHES is anchored at the start"),
    .matches(t("abc"), t("a.*"), 0, 1, "MATCHES the whole text"),
    .matches(t("abc"), t("ab"), 0, 0, "MATCHES is anchored at the end"),
    .matches(t("abc\n"), t("abc"), 0, 0, "a trailing newline is not ignored"),
    .matches(t("ab"), t("a|ab"), 0, 1, "alternatives are retried to cover the text"),
    .matches(t("ABC"), t("abc"), 0, 0, "MATCHES is case-sensitive"),
    .matches(t("ABC"), t("abc"), 1, 1, "MATCHES[c]"),
    .matches(t("Straße"), t("STRASSE"), 1, 1, "MATCHES[c]: ICU folds ß"),
    .matches(t("Café"), t("Caf."), 0, 1, ". matches é"),
    .matches(t("Café"), t("Cafe"), 0, 0, "é is not e"),
    .matches(t("Café"), t("Cafe"), 2, 1, "MATCHES[d] folds the text"),
    .matches(t("Cafe\u{301}"), t("Cafe"), 2, 1, "MATCHES[d] decomposed"),
    .matches(t("cafe"), t("caf[é]"), 2, 1, "MATCHES[d] folds the pattern's letters"),
    .matches(t("CAFÉ"), t("cafe"), 3, 1, "MATCHES[cd]"),
    .matches(t(""), t(""), 0, 0, "an empty regex matches nothing, as in Foundation"),
    .matches(t("a"), t(""), 0, 0, "an empty regex matches nothing"),
    // Foundation's ICU flags for MATCHES are DOTALL | MULTILINE (the whole text must still match).
    .matches(t("a\nb"), t("a.b"), 0, 1, ". matches a line break"),
    .matches(t("a\nb"), t(".*^b$"), 0, 1, "^ and $ match at a line's start and end"),
    .matches(t("a\nb"), t("^a$.*"), 0, 1, "$ matches before a line break"),
    .matches(t("a\nb"), t("^b$"), 0, 0, "the match still covers the whole text"),
    .matches(.null, t(".*"), 0, 0, "MATCHES with NULL text"),
    .matches(t("x"), .null, 0, 0, "MATCHES with NULL regex"),
    .matches(.integer(123), t("\\d+"), 0, 1, "MATCHES on an integer"),

    // compare
    .compare(t("straße"), t("STRASSE"), c, .integer(0), "==[c] ß and SS"),
    .compare(t("straße"), t("STRASSE"), 0, .integer(1), "exact: s > S"),
    .compare(t("a"), t("B"), 0, .integer(1), "exact: code point order"),
    .compare(t("a"), t("B"), c, .integer(-1), "[c]: a < b"),
    .compare(t("_"), t("A"), c, .integer(-1), "[c] folds to lowercase: _ < a"),
    .compare(t("file2"), t("file10"), 64, .integer(-1), "numeric: 2 < 10"),
    .compare(t("file2"), t("file10"), 0, .integer(1), "not numeric: '2' > '1'"),
    .compare(t("File2"), t("file10"), 65, .integer(-1), "numeric and [c]"),
    .compare(t("a01"), t("a1"), 64, .integer(0), "numeric ignores leading zeros"),
    .compare(t("É"), t("E"), 128, .integer(0), "[d] É == E"),
    .compare(t("É"), t("E"), 0, .integer(1), "exact É > E"),
    .compare(t("E\u{301}"), t("É"), 0, .integer(0), "canonical equivalence"),
    .compare(t("Ａ"), t("A"), 256, .integer(0), "width"),
    .compare(t("Ａ"), t("a"), c, .integer(0), "[c] with width"),
    .compare(t("ΟΔΟΣ"), t("οδος"), 1, .integer(0), "[c] final sigma"),
    .compare(t("ﬁ"), t("FI"), 1, .integer(0), "[c] ligature"),
    .compare(t("İ"), t("i\u{307}"), 1, .integer(0), "[c] İ and i + dot"),
    .compare(t("İ"), t("i"), 1, .integer(1), "[c] İ is not i"),
    .compare(t("abc"), t("abd"), 1, .integer(-1), "[c] ascending"),
    .compare(t("abc"), t("ab"), 1, .integer(1), "a longer string is greater"),
    .compare(t(""), t(""), 0, .integer(0), "empty strings are equal"),
    .compare(.null, t("a"), 1, .null, "NULL compares to NULL"),
    .compare(.integer(10), t("9"), 64, .integer(1), "numeric on an integer"),
    .compare(.integer(10), t("9"), 0, .integer(-1), "text order on an integer"),

    // case mapping
    .upper(t("straße"), t("STRASSE"), "ß uppercases to SS"),
    .upper(t("abc"), t("ABC"), "ASCII"),
    .upper(t("ﬁ"), t("FI"), "the ligature uppercases to FI"),
    .upper(.integer(12), t("12"), "an integer"),
    .upper(.null, .null, "NULL"),
    .lower(t("ÀÉÎ"), t("àéî"), "accented capitals"),
    .lower(t("İ"), t("i\u{307}"), "İ lowercases to i + dot"),
    .lower(t("ABC"), t("abc"), "ASCII"),
    .lower(t("ΟΔΟΣ"), t("οδοσ"), "no final-sigma context rule: Σ lowercases to σ"),
]

@Suite("Core Data's SQL functions and collations on every connection")
struct CoreDataFunctionsTests {
    @Test("Each function returns what Foundation and NSPredicate would", arguments: functionCases)
    func function(_ testCase: FunctionCase) throws {
        let db = try Database(path: ":memory:")
        let value = try db.scalar(testCase.sql, testCase.arguments)
        #expect(value == testCase.expected, "\(testCase.note)")
    }

    @Test("An invalid regular expression is an SQL error naming the pattern")
    func invalidRegex() throws {
        let db = try Database(path: ":memory:")
        let error = #expect(throws: SQLiteError.self) {
            try db.scalar("SELECT NSCoreDataMatches('abc', ?, 0)", [.text("a(b")])
        }
        #expect(error?.message.contains("NSCoreDataMatches") == true)
        #expect(error?.message.contains("'a(b'") == true)
    }

    @Test("A new connection has every function and collation")
    func newConnection() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for path in [":memory:", dir + "/fresh.sqlite"] {
            let db = try Database(path: path)
            let row = try db.rows(
                """
                SELECT NSCoreDataStringSearch('Straße', 'STRASSE', 257, 0), NSCoreDataLike('abc', 'a*', 0),
                       NSCoreDataMatches('abc', 'a.c', 0), NSCoreDataStringCompare('a', 'B', 1, 0),
                       NSCoreDataToUpper('ß'), NSCoreDataToLower('Ä')
                """)
            #expect(row == [[.integer(1), .integer(1), .integer(1), .integer(-1), .text("SS"), .text("ä")]])
            for collation in [
                "NSCollateNoCase", "NSCollateNumericallyNoCase", "NSCollateLocaleSensitive",
                "NSCollateLocaleSensitiveNoCase", "NSCollateFinderlike",
            ] {
                #expect(try db.scalar("SELECT 'a' < 'B' COLLATE \(collation)") == .integer(1), "\(collation)")
            }
        }
    }

    @Test("The cached pattern follows a new binding of the same prepared statement")
    func auxdataFollowsRebinding() throws {
        let db = try Database(path: ":memory:")
        try db.executeScript(
            """
            CREATE TABLE t(name TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
            INSERT INTO t SELECT CASE i % 3 WHEN 0 THEN 'Straße ' || i WHEN 1 THEN 'abc' || i ELSE 'Ünïcode' END FROM n;
            """)
        for (sql, pattern, flags, expected) in [
            ("SELECT count(*) FROM t WHERE NSCoreDataStringSearch(name, ?, ?, 0)", "STRASSE", 257, 100),
            ("SELECT count(*) FROM t WHERE NSCoreDataStringSearch(name, ?, ?, 0)", "ABC", 257, 100),
            ("SELECT count(*) FROM t WHERE NSCoreDataStringSearch(name, ?, ?, 0)", "ABC", 0, 0),
            ("SELECT count(*) FROM t WHERE NSCoreDataLike(name, ?, ?)", "*code", 0, 100),
            ("SELECT count(*) FROM t WHERE NSCoreDataLike(name, ?, ?)", "abc?", 0, 3),
            ("SELECT count(*) FROM t WHERE NSCoreDataLike(name, ?, ?)", "UNICODE", 3, 100),
            ("SELECT count(*) FROM t WHERE NSCoreDataMatches(name, ?, ?)", "abc\\d{2}", 0, 30),
            ("SELECT count(*) FROM t WHERE NSCoreDataMatches(name, ?, ?)", "strasse \\d+", 3, 100),
        ] {
            let s = try db.statement(sql)
            try s.bind([.text(pattern), .integer(Int64(flags))])
            #expect(try s.step())
            #expect(s.int64(at: 0) == Int64(expected), "\(pattern) \(flags)")
            s.reset()
        }
    }

    @Test(
        "Collations order rows in ORDER BY",
        arguments: [
            ("NSCollateNoCase", ["b", "A", "C"], ["A", "b", "C"]),
            ("BINARY", ["b", "A", "C"], ["A", "C", "b"]),
            ("NSCollateNumericallyNoCase", ["file10", "File2", "file1"], ["file1", "File2", "file10"]),
            ("NSCollateNoCase", ["file10", "File2", "file1"], ["file1", "file10", "File2"]),
            ("NSCollateFinderlike", ["Éclair2", "eclair10", "Eclair1"], ["Eclair1", "Éclair2", "eclair10"]),
            ("NSCollateNumericallyNoCase", ["Éclair2", "eclair10", "Eclair1"], ["Eclair1", "eclair10", "Éclair2"]),
            ("NSCollateLocaleSensitive", ["b", "A", "a", "B", "é", "f", "e"], ["a", "A", "b", "B", "e", "é", "f"]),
            ("NSCollateLocaleSensitiveNoCase", ["b", "A", "C"], ["A", "b", "C"]),
        ])
    func collation(_ name: String, _ values: [String], _ expected: [String]) throws {
        let db = try Database(path: ":memory:")
        try db.executeScript("CREATE TABLE t(name TEXT)")
        for v in values { try db.execute("INSERT INTO t VALUES (?)", [.text(v)]) }
        let rows = try db.rows("SELECT name FROM t ORDER BY name COLLATE \(name)")
        #expect(rows.map { $0[0] } == expected.map(SQLValue.text))
    }

    @Test("A collation can back an index, and the index agrees with the collation")
    func collationIndex() throws {
        let db = try Database(path: ":memory:")
        try db.executeScript(
            """
            CREATE TABLE t(name TEXT COLLATE NSCollateNumericallyNoCase);
            CREATE INDEX t_name ON t(name);
            INSERT INTO t VALUES ('file10'), ('File2'), ('file1'), ('FILE2');
            """)
        #expect(try db.scalar("SELECT count(*) FROM t WHERE name = 'file2'") == .integer(2))
        #expect(try db.rows("SELECT name FROM t ORDER BY name").map { $0[0] }.last == .text("file10"))
    }
}

/// The pure-Swift semantics, without SQLite.
@Suite("Core Data functions' pure-Swift semantics: StringMatching and PatternMatching")
struct CoreDataFunctionsSemanticsTests {
    @Test("Search and compare, checked directly")
    func direct() {
        #expect(StringMatching.search("Straße", for: "STRASSE", options: 257))
        #expect(!StringMatching.search("Straße", for: "STRASSE", options: 0))
        #expect(StringMatching.search("x Éclair", for: "ECLAIR", options: 385 | 12))
        #expect(!StringMatching.search("Éclair x", for: "ECLAIR", options: 385 | 12))
        #expect(StringMatching.compare("file2", "file10", options: 64) == -1)
        #expect(StringMatching.compare("ß", "ss", options: 1) == 0)
        #expect(StringMatching.fold("Straße ﬁ", options: 1) == "strasse fi")
        #expect(StringMatching.fold("Éñ", options: 128) == "En")
        #expect(StringMatching.fold("Ａｂ", options: 256) == "Ab")
        #expect(StringMatching.fold("ABC", options: 1) == "abc")
        #expect(StringMatching.uppercased("straße") == "STRASSE")
        #expect(StringMatching.localizedCompare("a", "B", options: 0) == -1)
    }

    @Test("LIKE and MATCHES, checked directly")
    func patterns() throws {
        #expect(PatternMatching.Like("*ße", options: 0).matches("Straße"))
        #expect(PatternMatching.Like("STRA*", options: 1).matches("straße"))
        #expect(!PatternMatching.Like("STRA*", options: 0).matches("straße"))
        #expect(try PatternMatching.Regex("[a-z]+", options: 0).matches("abc"))
        #expect(try !PatternMatching.Regex("[a-z]+", options: 0).matches("abc1"))
        #expect(try PatternMatching.Regex("(?x) a b # comment", options: 0).matches("ab"))
        #expect(try !PatternMatching.Regex("(?x) a b # comment", options: 0).matches("abc"))
        #expect(try PatternMatching.Regex("a\\Qb)", options: 0).matches("ab)"))
        let error = #expect(throws: PatternMatching.InvalidRegex.self) { try PatternMatching.Regex("[", options: 0) }
        #expect(error?.pattern == "[")
    }

}
