import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData

/// One row of the predicate → SQL table.
struct PredicateSQLCase: Sendable, CustomTestStringConvertible {
    let model: String
    let entity: String
    let predicate: String
    let arguments: [PredicateValue]
    let sql: String
    let bindings: [SQLValue]
    /// The planner's FROM clause, when the case checks joins.
    let from: String?

    init(
        _ model: String, _ entity: String, _ predicate: String, _ arguments: [PredicateValue] = [],
        _ sql: String, _ bindings: [SQLValue], from: String? = nil
    ) {
        self.model = model
        self.entity = entity
        self.predicate = predicate
        self.arguments = arguments
        self.sql = sql
        self.bindings = bindings
        self.from = from
    }

    var testDescription: String { "\(model) \(entity): \(predicate)" }
}

private func i(_ v: Int64) -> SQLValue { .integer(v) }
private func s(_ v: String) -> SQLValue { .text(v) }

@Suite("Predicate compiler: format string to Core Data-shaped SQL")
struct PredicateCompilerTests {
    static let comparisons: [PredicateSQLCase] = [
        .init("V1", "Photo", "likes > 100", [], "t0.ZLIKES > ?", [i(100)], from: "FROM ZPHOTO t0"),
        .init("V1", "Photo", "likes >= 100", [], "t0.ZLIKES >= ?", [i(100)]),
        .init("V1", "Photo", "likes => 100", [], "t0.ZLIKES >= ?", [i(100)]),
        .init("V1", "Photo", "likes < 100", [], "t0.ZLIKES < ?", [i(100)]),
        .init("V1", "Photo", "likes <= 100", [], "t0.ZLIKES <= ?", [i(100)]),
        .init("V1", "Photo", "likes =< 100", [], "t0.ZLIKES <= ?", [i(100)]),
        .init("V1", "Photo", "likes == 7", [], "t0.ZLIKES = ?", [i(7)]),
        .init("V1", "Photo", "likes = 7", [], "t0.ZLIKES = ?", [i(7)]),
        .init("V1", "Photo", "likes != 5", [], "(t0.ZLIKES <> ? OR t0.ZLIKES IS NULL)", [i(5)]),
        .init("V1", "Photo", "likes <> 5", [], "(t0.ZLIKES <> ? OR t0.ZLIKES IS NULL)", [i(5)]),
        // A constant on the left is flipped.
        .init("V1", "Photo", "100 < likes", [], "? < t0.ZLIKES", [i(100)]),
        .init("V1", "Photo", "100 >= likes", [], "? >= t0.ZLIKES", [i(100)]),
        .init("V1", "Photo", "'FR' == country", [], "? = t0.ZCOUNTRY", [s("FR")]),
        // nil
        .init("V1", "Photo", "country == nil", [], "t0.ZCOUNTRY IS NULL", []),
        .init("V1", "Photo", "country = NULL", [], "t0.ZCOUNTRY IS NULL", []),
        .init("V1", "Photo", "country != nil", [], "t0.ZCOUNTRY IS NOT NULL", []),
        .init("V1", "Photo", "country <> %@", [.null], "t0.ZCOUNTRY IS NOT NULL", []),
        // Literals and arguments.
        .init("V1", "Photo", "likes > -5", [], "t0.ZLIKES > ?", [i(-5)]),
        .init("V1", "Photo", "latitude < 1.25", [], "t0.ZLATITUDE < ?", [.real(1.25)]),
        .init("V1", "Photo", "latitude < -2.5e2", [], "t0.ZLATITUDE < ?", [.real(-250)]),
        .init("V1", "Photo", "likes == TRUE OR likes == no", [], "(t0.ZLIKES = ? OR t0.ZLIKES = ?)", [i(1), i(0)]),
        .init("V1", "Photo", "likes == yes OR likes == False", [], "(t0.ZLIKES = ? OR t0.ZLIKES = ?)", [i(1), i(0)]),
        .init(
            "V1", "Photo", #"country == 'it\'s' OR country == "say \"hi\"\n""#, [],
            "(t0.ZCOUNTRY = ? OR t0.ZCOUNTRY = ?)", [s("it's"), s("say \"hi\"\n")]),
        .init("V1", "Photo", #"country == '\u00e9\\'"#, [], "t0.ZCOUNTRY = ?", [s("é\\")]),
        .init("V1", "Photo", "likes > %@", [.integer(10)], "t0.ZLIKES > ?", [i(10)]),
        .init(
            "V1", "Photo", "likes > %d AND latitude < %f", [.integer(3), .real(0.5)],
            "(t0.ZLIKES > ? AND t0.ZLATITUDE < ?)", [i(3), .real(0.5)]),
        .init(
            "V1", "Photo", "likes > %2$@ AND likes < %1$@", [.integer(10), .integer(1)],
            "(t0.ZLIKES > ? AND t0.ZLIKES < ?)", [i(1), i(10)]),
        .init("V1", "Photo", "%K > %@", [.string("likes"), .integer(5)], "t0.ZLIKES > ?", [i(5)]),
        .init("V1", "Photo", "%K == %@", [.string("country"), .string("likes")], "t0.ZCOUNTRY = ?", [s("likes")]),
        .init("V1", "Photo", "date > %@", [.date(436_492_800)], "t0.ZDATE > ?", [.real(436_492_800)]),
        .init(
            "V1", "Photo", "date BETWEEN %@", [.array([.date(0), .date(86_400.5)])],
            "t0.ZDATE BETWEEN ? AND ?", [.real(0), .real(86_400.5)]),
        .init("V1", "Photo", "date > CAST(436492800, 'NSDate')", [], "t0.ZDATE > ?", [.real(436_492_800)]),
        .init("V1", "Photo", #"date BETWEEN {cast(-1.5, "NSDate"), %@}"#, [.date(2)], "t0.ZDATE BETWEEN ? AND ?", [.real(-1.5), .real(2)]),
        // BETWEEN and IN.
        .init("V1", "Photo", "likes BETWEEN {1, 5}", [], "t0.ZLIKES BETWEEN ? AND ?", [i(1), i(5)]),
        .init("V1", "Photo", "likes between %@", [.array([.integer(2), .integer(9)])], "t0.ZLIKES BETWEEN ? AND ?", [i(2), i(9)]),
        .init("V1", "Photo", "likes IN {1, 2, 3}", [], "t0.ZLIKES IN (?,?,?)", [i(1), i(2), i(3)]),
        .init("V1", "Photo", "country in %@", [.array([.string("FR"), .string("IT")])], "t0.ZCOUNTRY IN (?,?)", [s("FR"), s("IT")]),
        .init("V1", "Photo", "likes IN %@", [.array([])], "0", []),
        .init("V1", "Photo", "likes IN {}", [], "0", []),
        // Compounds, precedence, NOT.
        .init("V1", "Photo", "country == 'FR' AND likes > 10", [], "(t0.ZCOUNTRY = ? AND t0.ZLIKES > ?)", [s("FR"), i(10)]),
        .init(
            "V1", "Photo", "country == 'FR' && likes > 10 || likes < 3", [],
            "((t0.ZCOUNTRY = ? AND t0.ZLIKES > ?) OR t0.ZLIKES < ?)", [s("FR"), i(10), i(3)]),
        .init(
            "V1", "Photo", "likes < 3 or country == 'FR' and likes > 10", [],
            "(t0.ZLIKES < ? OR (t0.ZCOUNTRY = ? AND t0.ZLIKES > ?))", [i(3), s("FR"), i(10)]),
        .init(
            "V1", "Photo", "(likes < 3 OR country == 'FR') AND likes > 10", [],
            "((t0.ZLIKES < ? OR t0.ZCOUNTRY = ?) AND t0.ZLIKES > ?)", [i(3), s("FR"), i(10)]),
        .init("V1", "Photo", "NOT likes > 5", [], "NOT (t0.ZLIKES > ?)", [i(5)]),
        .init("V1", "Photo", "!(likes > 5 AND likes < 9)", [], "NOT ((t0.ZLIKES > ? AND t0.ZLIKES < ?))", [i(5), i(9)]),
        .init("V1", "Photo", "not not likes > 5", [], "NOT (NOT (t0.ZLIKES > ?))", [i(5)]),
        .init("V1", "Photo", "TRUEPREDICATE", [], "1", []),
        .init("V1", "Photo", "falsepredicate OR likes > 1", [], "(0 OR t0.ZLIKES > ?)", [i(1)]),
        // Key path against key path.
        .init("V1", "Photo", "width > height", [], "t0.ZWIDTH > t0.ZHEIGHT", []),
        .init("V1", "Photo", "width != height", [], "t0.ZWIDTH IS NOT t0.ZHEIGHT", []),
        // SELF.
        .init("V1", "Photo", "SELF IN %@", [.array([.integer(3), .integer(1), .integer(2)])], "t0.Z_PK IN (?,?,?)", [i(3), i(1), i(2)]),
        .init("V1", "Photo", "self == %@", [.integer(7)], "t0.Z_PK = ?", [i(7)]),
        .init("V1", "Photo", "#size > 4", [], "t0.ZSIZE > ?", [i(4)]),
    ]

    static let strings: [PredicateSQLCase] = [
        .init("V1", "Photo", "country CONTAINS 'a'", [], "NSCoreDataStringSearch(t0.ZCOUNTRY, ?, 0, 0)", [s("a")]),
        .init("V1", "Photo", "country CONTAINS[c] 'a'", [], "NSCoreDataStringSearch(t0.ZCOUNTRY, ?, 257, 0)", [s("a")]),
        .init("V1", "Photo", "country CONTAINS[d] 'a'", [], "NSCoreDataStringSearch(t0.ZCOUNTRY, ?, 384, 0)", [s("a")]),
        .init("V1", "Photo", "country contains[cd] 'a'", [], "NSCoreDataStringSearch(t0.ZCOUNTRY, ?, 385, 0)", [s("a")]),
        .init("V1", "Photo", "country CONTAINS[n] 'a'", [], "NSCoreDataStringSearch(t0.ZCOUNTRY, ?, 0, 0)", [s("a")]),
        .init("V1", "Photo", "country BEGINSWITH 'a'", [], "NSCoreDataStringSearch(t0.ZCOUNTRY, ?, 8, 0)", [s("a")]),
        .init("V1", "Photo", "country BEGINSWITH[c] 'a'", [], "NSCoreDataStringSearch(t0.ZCOUNTRY, ?, 265, 0)", [s("a")]),
        .init("V1", "Photo", "country BEGINSWITH[d] 'a'", [], "NSCoreDataStringSearch(t0.ZCOUNTRY, ?, 392, 0)", [s("a")]),
        .init("V1", "Photo", "country beginswith[DC] 'a'", [], "NSCoreDataStringSearch(t0.ZCOUNTRY, ?, 393, 0)", [s("a")]),
        .init("V1", "Photo", "country ENDSWITH 'a'", [], "NSCoreDataStringSearch(t0.ZCOUNTRY, ?, 12, 0)", [s("a")]),
        .init("V1", "Photo", "country ENDSWITH[c] 'a'", [], "NSCoreDataStringSearch(t0.ZCOUNTRY, ?, 269, 0)", [s("a")]),
        .init("V1", "Photo", "country ENDSWITH[d] 'a'", [], "NSCoreDataStringSearch(t0.ZCOUNTRY, ?, 396, 0)", [s("a")]),
        .init("V1", "Photo", "country ENDSWITH[cd] 'a'", [], "NSCoreDataStringSearch(t0.ZCOUNTRY, ?, 397, 0)", [s("a")]),
        .init("V1", "Photo", "country ENDSWITH[n] 'a'", [], "NSCoreDataStringSearch(t0.ZCOUNTRY, ?, 12, 0)", [s("a")]),
        .init("V1", "Photo", "country LIKE 'F*'", [], "NSCoreDataLike(t0.ZCOUNTRY, ?, 0)", [s("F*")]),
        .init("V1", "Photo", "country LIKE[c] 'F*'", [], "NSCoreDataLike(t0.ZCOUNTRY, ?, 1)", [s("F*")]),
        .init("V1", "Photo", "country LIKE[d] 'F*'", [], "NSCoreDataLike(t0.ZCOUNTRY, ?, 2)", [s("F*")]),
        .init("V1", "Photo", "country LIKE[cd] 'F*'", [], "NSCoreDataLike(t0.ZCOUNTRY, ?, 3)", [s("F*")]),
        .init("V1", "Photo", "country LIKE[n] 'F*'", [], "NSCoreDataLike(t0.ZCOUNTRY, ?, 4)", [s("F*")]),
        .init("V1", "Photo", "country MATCHES '[A-Z]+'", [], "NSCoreDataMatches(t0.ZCOUNTRY, ?, 0)", [s("[A-Z]+")]),
        .init("V1", "Photo", "country MATCHES[c] %@", [.string("f.")], "NSCoreDataMatches(t0.ZCOUNTRY, ?, 1)", [s("f.")]),
        .init("V1", "Photo", "country MATCHES[d] 'x'", [], "NSCoreDataMatches(t0.ZCOUNTRY, ?, 2)", [s("x")]),
        .init("V1", "Photo", "country MATCHES[cd] 'x'", [], "NSCoreDataMatches(t0.ZCOUNTRY, ?, 3)", [s("x")]),
        .init("V1", "Photo", "country MATCHES[n] 'x'", [], "NSCoreDataMatches(t0.ZCOUNTRY, ?, 4)", [s("x")]),
        .init("V1", "Photo", "country ==[c] 'fr'", [], "NSCoreDataStringCompare(t0.ZCOUNTRY, ?, 257, 0) = 0", [s("fr")]),
        .init("V1", "Photo", "country ==[d] 'fr'", [], "NSCoreDataStringCompare(t0.ZCOUNTRY, ?, 384, 0) = 0", [s("fr")]),
        .init("V1", "Photo", "country !=[cd] 'fr'", [], "NSCoreDataStringCompare(t0.ZCOUNTRY, ?, 385, 0) <> 0", [s("fr")]),
        .init("V1", "Photo", "country <[cd] 'm'", [], "NSCoreDataStringCompare(t0.ZCOUNTRY, ?, 385, 0) < 0", [s("m")]),
        .init("V1", "Photo", "country >=[c] 'm'", [], "NSCoreDataStringCompare(t0.ZCOUNTRY, ?, 257, 0) >= 0", [s("m")]),
        .init("V1", "Photo", "'m' >[c] country", [], "NSCoreDataStringCompare(?, t0.ZCOUNTRY, 257, 0) > 0", [s("m")]),
        .init("V1", "Photo", "country ==[c] nil", [], "t0.ZCOUNTRY IS NULL", []),
        .init("V1", "Photo", "country ==[n] 'fr'", [], "t0.ZCOUNTRY = ?", [s("fr")]),
        .init("V1", "Photo", "country !=[n] 'fr'", [], "(t0.ZCOUNTRY <> ? OR t0.ZCOUNTRY IS NULL)", [s("fr")]),
        // [n] BEGINSWITH is a range an index can use.
        .init("V1", "Photo", "country BEGINSWITH[n] 'ab'", [], "(t0.ZCOUNTRY >= ? AND t0.ZCOUNTRY < ?)", [s("ab"), s("ac")]),
        .init(
            "V1", "Photo", "country BEGINSWITH[n] %@", [.string("a\u{10FFFF}")],
            "(t0.ZCOUNTRY >= ? AND t0.ZCOUNTRY < ?)", [s("a\u{10FFFF}"), s("b")]),
        .init("V1", "Photo", "country BEGINSWITH[n] ''", [], "0", []),
    ]

    static let joins: [PredicateSQLCase] = [
        .init(
            "V2", "Photo", "likes > %@", [.integer(100)], "t1.ZLIKES > ?", [i(100)],
            from: "FROM ZPHOTO t0 JOIN ZPHOTOMETA t1 ON t0.ZMETA = t1.Z_PK"),
        .init(
            "V2", "Photo", "meta.likes > 1 AND country == 'FR' AND assetURL ENDSWITH '.jpg'", [],
            "(t1.ZLIKES > ? AND t1.ZCOUNTRY = ? AND NSCoreDataStringSearch(t0.ZASSETURL, ?, 12, 0))", [i(1), s("FR"), s(".jpg")],
            from: "FROM ZPHOTO t0 JOIN ZPHOTOMETA t1 ON t0.ZMETA = t1.Z_PK"),
        .init("V2", "Photo", "meta == nil", [], "t0.ZMETA IS NULL", [], from: "FROM ZPHOTO t0"),
        .init(
            "V2", "Photo", "meta.photo.assetURL == 'x' AND width > height", [], "(t2.ZASSETURL = ? AND t1.ZWIDTH > t1.ZHEIGHT)", [s("x")],
            from: "FROM ZPHOTO t0 JOIN ZPHOTOMETA t1 ON t0.ZMETA = t1.Z_PK JOIN ZPHOTO t2 ON t1.ZPHOTO = t2.Z_PK"),
        .init(
            "V2", "PhotoMeta", "photo.assetURL BEGINSWITH[n] 'file:'", [], "(t1.ZASSETURL >= ? AND t1.ZASSETURL < ?)",
            [s("file:"), s("file;")],
            from: "FROM ZPHOTOMETA t0 JOIN ZPHOTO t1 ON t0.ZPHOTO = t1.Z_PK"),
        .init(
            "L1", "Book", "author.name == 'Ann'", [], "t1.ZNAME = ?", [s("Ann")],
            from: "FROM ZBOOK t0 JOIN ZAUTHOR t1 ON t0.ZAUTHOR = t1.Z_PK"),
        .init("L1", "Book", "author == nil", [], "t0.ZAUTHOR IS NULL", [], from: "FROM ZBOOK t0"),
        // ANY through a to-one: one value, read as the comparison without ANY (an app's launch request).
        .init(
            "L1", "Book", "ANY author IN %@", [.array([.integer(1), .integer(2)])], "t0.ZAUTHOR IN (?,?)", [i(1), i(2)],
            from: "FROM ZBOOK t0"),
        .init(
            "L1", "Book", "ANY author.name == 'Ann'", [], "t1.ZNAME = ?", [s("Ann")],
            from: "FROM ZBOOK t0 JOIN ZAUTHOR t1 ON t0.ZAUTHOR = t1.Z_PK"),
        .init("L1", "Book", "author == %@", [.integer(3)], "t0.ZAUTHOR = ?", [i(3)], from: "FROM ZBOOK t0"),
        .init("L1", "Book", "author != %@", [.integer(3)], "(t0.ZAUTHOR <> ? OR t0.ZAUTHOR IS NULL)", [i(3)]),
        .init("L1", "Book", "author IN {1, 2}", [], "t0.ZAUTHOR IN (?,?)", [i(1), i(2)]),
        .init("L1", "Author", "born > %@", [.date(-31_536_000)], "t0.ZBORN > ?", [.real(-31_536_000)]),
    ]

    static let toMany: [PredicateSQLCase] = [
        .init(
            "L1", "Author", "books.@count > 3", [], "(SELECT COUNT(t1.Z_PK) FROM ZBOOK t1 WHERE (t0.Z_PK = t1.ZAUTHOR) ) > ?", [i(3)],
            from: "FROM ZAUTHOR t0"),
        .init("L1", "Author", "books.@count == 0", [], "(SELECT COUNT(t1.Z_PK) FROM ZBOOK t1 WHERE (t0.Z_PK = t1.ZAUTHOR) ) = ?", [i(0)]),
        .init("L1", "Author", "2 <= books.@COUNT", [], "? <= (SELECT COUNT(t1.Z_PK) FROM ZBOOK t1 WHERE (t0.Z_PK = t1.ZAUTHOR) )", [i(2)]),
        .init("L1", "Author", "books.@count != 1", [], "(SELECT COUNT(t1.Z_PK) FROM ZBOOK t1 WHERE (t0.Z_PK = t1.ZAUTHOR) ) <> ?", [i(1)]),
        .init(
            "L1", "Book", "tags.@count >= 2", [], "(SELECT COUNT(t1.Z_3TAGS) FROM Z_2TAGS t1 WHERE (t0.Z_PK = t1.Z_2BOOKS) ) >= ?", [i(2)]),
        .init("L1", "Tag", "books.@count > 1", [], "(SELECT COUNT(t1.Z_2BOOKS) FROM Z_2TAGS t1 WHERE (t0.Z_PK = t1.Z_3TAGS) ) > ?", [i(1)]),
        .init(
            "L1", "Author", "books.@avg.price > 10", [], "(SELECT AVG(t1.ZPRICE) FROM ZBOOK t1 WHERE (t0.Z_PK = t1.ZAUTHOR) ) > ?", [i(10)]),
        .init(
            "L1", "Author", "books.@sum.price < 1", [],
            "(SELECT COALESCE(SUM(t1.ZPRICE), 0) FROM ZBOOK t1 WHERE (t0.Z_PK = t1.ZAUTHOR) ) < ?",
            [i(1)]),
        .init(
            "L1", "Author", "books.@min.year < 1950", [], "(SELECT MIN(t1.ZYEAR) FROM ZBOOK t1 WHERE (t0.Z_PK = t1.ZAUTHOR) ) < ?",
            [i(1950)]),
        .init(
            "L1", "Author", "books.@max.year != 2000", [], "(SELECT MAX(t1.ZYEAR) FROM ZBOOK t1 WHERE (t0.Z_PK = t1.ZAUTHOR) ) IS NOT ?",
            [i(2000)]),
        .init(
            "L1", "Book", "tags.@max.name == 'z'", [],
            "(SELECT MAX(t2.ZNAME) FROM Z_2TAGS t1 JOIN ZTAG t2 ON t1.Z_3TAGS = t2.Z_PK WHERE (t0.Z_PK = t1.Z_2BOOKS) ) = ?", [s("z")]),
        .init(
            "L1", "Book", "author.books.@count > 1", [], "(SELECT COUNT(t2.Z_PK) FROM ZBOOK t2 WHERE (t1.Z_PK = t2.ZAUTHOR) ) > ?", [i(1)],
            from: "FROM ZBOOK t0 JOIN ZAUTHOR t1 ON t0.ZAUTHOR = t1.Z_PK"),
        .init(
            "L1", "Author", "ANY books.year > 2000", [], "t0.Z_PK IN (SELECT t1.ZAUTHOR FROM ZBOOK t1 WHERE t1.ZYEAR > ?)", [i(2000)],
            from: "FROM ZAUTHOR t0"),
        .init("L1", "Author", "some books.year > 2000", [], "t0.Z_PK IN (SELECT t1.ZAUTHOR FROM ZBOOK t1 WHERE t1.ZYEAR > ?)", [i(2000)]),
        .init("L1", "Author", "books.year > 2000", [], "t0.Z_PK IN (SELECT t1.ZAUTHOR FROM ZBOOK t1 WHERE t1.ZYEAR > ?)", [i(2000)]),
        .init("L1", "Author", "ANY 2000 < books.year", [], "t0.Z_PK IN (SELECT t1.ZAUTHOR FROM ZBOOK t1 WHERE ? < t1.ZYEAR)", [i(2000)]),
        .init(
            "L1", "Author", "NONE books.year > 2000", [],
            "t0.Z_PK NOT IN (SELECT t1.ZAUTHOR FROM ZBOOK t1 WHERE t1.ZAUTHOR IS NOT NULL AND t1.ZYEAR > ?)", [i(2000)]),
        .init(
            "L1", "Author", "ALL books.year > 2000", [],
            "t0.Z_PK NOT IN (SELECT t1.ZAUTHOR FROM ZBOOK t1 WHERE t1.ZAUTHOR IS NOT NULL AND NOT COALESCE(t1.ZYEAR > ?, 0))", [i(2000)]),
        .init(
            "L1", "Author", "ANY books.title BEGINSWITH[c] %@", [.string("the")],
            "t0.Z_PK IN (SELECT t1.ZAUTHOR FROM ZBOOK t1 WHERE NSCoreDataStringSearch(t1.ZTITLE, ?, 265, 0))", [s("the")]),
        .init(
            "L1", "Author", "ANY books.year > 2000 AND name == 'Ann'", [],
            "(t0.Z_PK IN (SELECT t1.ZAUTHOR FROM ZBOOK t1 WHERE t1.ZYEAR > ?) AND t0.ZNAME = ?)", [i(2000), s("Ann")]),
        .init(
            "L1", "Book", "ANY tags.name == 'sf'", [],
            "t0.Z_PK IN (SELECT t1.Z_2BOOKS FROM Z_2TAGS t1 JOIN ZTAG t2 ON t1.Z_3TAGS = t2.Z_PK WHERE t2.ZNAME = ?)", [s("sf")]),
        .init(
            "L1", "Book", "ALL tags.name IN {'sf', 'fantasy'}", [],
            "t0.Z_PK NOT IN (SELECT t1.Z_2BOOKS FROM Z_2TAGS t1 JOIN ZTAG t2 ON t1.Z_3TAGS = t2.Z_PK WHERE t1.Z_2BOOKS IS NOT NULL AND NOT COALESCE(t2.ZNAME IN (?,?), 0))",
            [s("sf"), s("fantasy")]),
        .init(
            "L1", "Book", "ANY tags == %@", [.integer(5)], "t0.Z_PK IN (SELECT t1.Z_2BOOKS FROM Z_2TAGS t1 WHERE t1.Z_3TAGS = ?)", [i(5)]),
        .init(
            "L1", "Tag", "ANY books.author.name == 'Ann'", [],
            "t0.Z_PK IN (SELECT t1.Z_3TAGS FROM Z_2TAGS t1 JOIN ZBOOK t2 ON t1.Z_2BOOKS = t2.Z_PK JOIN ZAUTHOR t3 ON t2.ZAUTHOR = t3.Z_PK WHERE t3.ZNAME = ?)",
            [s("Ann")], from: "FROM ZTAG t0"),
        .init(
            "L1", "Author", "SUBQUERY(books, $b, $b.year > 2000 AND $b.price < 10).@count > 0", [],
            "(SELECT COUNT(t1.Z_PK) FROM ZBOOK t1 WHERE (t0.Z_PK = t1.ZAUTHOR AND ((t1.ZYEAR > ? AND t1.ZPRICE < ?))) ) > ?",
            [i(2000), i(10), i(0)]),
        .init(
            "L1", "Book", "subquery(tags, $t, $t.name BEGINSWITH 's').@count == %@", [.integer(1)],
            "(SELECT COUNT(t2.Z_PK) FROM Z_2TAGS t1 JOIN ZTAG t2 ON t1.Z_3TAGS = t2.Z_PK WHERE (t0.Z_PK = t1.Z_2BOOKS AND (NSCoreDataStringSearch(t2.ZNAME, ?, 8, 0))) ) = ?",
            [s("s"), i(1)]),
        .init(
            "L1", "Author", "SUBQUERY(books, $b, ANY $b.tags.name == 'sf').@count > 0", [],
            "(SELECT COUNT(t1.Z_PK) FROM ZBOOK t1 WHERE (t0.Z_PK = t1.ZAUTHOR AND (t1.Z_PK IN (SELECT t2.Z_2BOOKS FROM Z_2TAGS t2 JOIN ZTAG t3 ON t2.Z_3TAGS = t3.Z_PK WHERE t3.ZNAME = ?))) ) > ?",
            [s("sf"), i(0)]),
        .init("L1", "Author", "ANY books == %@", [.integer(4)], "t0.Z_PK IN (SELECT t1.ZAUTHOR FROM ZBOOK t1 WHERE t1.Z_PK = ?)", [i(4)]),
        .init(
            "L1", "Author", "SUBQUERY(books, $b, $b IN %@ OR $b.author == nil).@count == 0", [.array([.integer(1), .integer(2)])],
            "(SELECT COUNT(t1.Z_PK) FROM ZBOOK t1 WHERE (t0.Z_PK = t1.ZAUTHOR AND ((t1.Z_PK IN (?,?) OR t1.ZAUTHOR IS NULL))) ) = ?",
            [i(1), i(2), i(0)]),
        .init(
            "L1", "Book", "SUBQUERY(author.books, $b, $b.year > year).@count > 0", [],
            "(SELECT COUNT(t2.Z_PK) FROM ZBOOK t2 WHERE (t1.Z_PK = t2.ZAUTHOR AND (t2.ZYEAR > t0.ZYEAR)) ) > ?", [i(0)],
            from: "FROM ZBOOK t0 JOIN ZAUTHOR t1 ON t0.ZAUTHOR = t1.Z_PK"),
        // A key path without the variable is the outer object's (NSSubqueryExpression evaluates
        // the predicate with the outer object; Core Data scopes only $b key paths to the subquery).
        .init(
            "L1", "Author", "SUBQUERY(books, $b, name == 'Ann' AND SELF.born > 5).@count > 1", [],
            "(SELECT COUNT(t1.Z_PK) FROM ZBOOK t1 WHERE (t0.Z_PK = t1.ZAUTHOR AND ((t0.ZNAME = ? AND t0.ZBORN > ?))) ) > ?",
            [s("Ann"), i(5), i(1)]),
    ]

    func check(_ c: PredicateSQLCase) throws {
        let model = try PredicateFixtures.model(c.model)
        let (compiled, from) = try PredicateFixtures.compile(model, c.entity, c.predicate, c.arguments)
        #expect(compiled.sql == c.sql)
        #expect(compiled.bindings == c.bindings)
        #expect(compiled.sql.filter { $0 == "?" }.count == compiled.bindings.count, "one binding per placeholder")
        if let expected = c.from { #expect(from == expected) }
    }

    @Test("comparisons, literals, arguments, BETWEEN, IN, compounds, SELF", arguments: comparisons)
    func comparison(_ c: PredicateSQLCase) throws { try check(c) }

    @Test("string operators and their [c] [d] [cd] [n] modifiers", arguments: strings)
    func string(_ c: PredicateSQLCase) throws { try check(c) }

    @Test("to-one key paths join through the planner", arguments: joins)
    func join(_ c: PredicateSQLCase) throws { try check(c) }

    @Test("to-many: @count, aggregates, ANY/ALL/NONE, SUBQUERY", arguments: toMany)
    func toManyCase(_ c: PredicateSQLCase) throws { try check(c) }

    @Test("A predicate join and a sort on the same path share one join, promoted to LEFT OUTER")
    func sharedJoin() throws {
        let model = try PredicateFixtures.photoModel("V2")
        let photo = model.entity("Photo")!
        let joins = JoinPlanner(model: model, entity: photo)
        let compiled = try PredicateCompiler(model: model, entity: photo, joins: joins)
            .compile(PredicateParser.parse("likes > 5", arguments: []))
        let date = try model.resolve(keyPath: "date", from: "Photo")
        #expect(joins.column(date, outer: true) == "t1.ZDATE")
        #expect(compiled.sql == "t1.ZLIKES > ?")
        #expect(joins.fromClause == "FROM ZPHOTO t0 LEFT OUTER JOIN ZPHOTOMETA t1 ON t0.ZMETA = t1.Z_PK")
    }
}
