import Testing
@testable import SchemaLabCoreData

/// One row of the error table: a predicate that must fail at `column` with `message`.
struct PredicateErrorCase: Sendable, CustomTestStringConvertible {
    let model: String
    let entity: String
    let predicate: String
    let arguments: [PredicateValue]
    let column: Int
    let message: String

    /// A case against V1's Photo.
    init(_ predicate: String, _ column: Int, _ message: String) {
        self.init("V1", "Photo", predicate, [], column, message)
    }

    /// A case against V1's Photo, with arguments.
    init(_ predicate: String, _ arguments: [PredicateValue], _ column: Int, _ message: String) {
        self.init("V1", "Photo", predicate, arguments, column, message)
    }

    init(_ model: String, _ entity: String, _ predicate: String, _ arguments: [PredicateValue], _ column: Int, _ message: String) {
        self.model = model
        self.entity = entity
        self.predicate = predicate
        self.arguments = arguments
        self.column = column
        self.message = message
    }

    var testDescription: String { "\(model) \(entity): \(predicate)" }
}

@Suite("Predicate errors: column and message")
struct PredicateErrorTests {
    /// Errors the parser finds without a model.
    static let syntax: [PredicateErrorCase] = [
        .init("likes > ", 8, "expected a value after '>'"),
        .init("likes >", 8, "expected a value after '>'"),
        .init("likes >> 3", 8, "expected a value after '>', found '>'"),
        .init("'abc", 1, "unterminated string"),
        .init("country == 'abc", 12, "unterminated string"),
        .init(#"country == "ab\"#, 12, "unterminated string"),
        .init("likes == %@", 10, "'%@' number 1 has no argument (0 given)"),
        .init("likes == %@ AND likes < %@", [.integer(1)], 25, "'%@' number 2 has no argument (1 given)"),
        .init("likes == %3$@", [.integer(1), .integer(2)], 10, "'%3$@' number 3 has no argument (2 given)"),
        .init("country CONTAIN 'a'", 9, "unknown operator 'CONTAIN'"),
        .init("likes > 3 AND", 14, "expected a predicate after 'AND'"),
        .init("likes > 3 AND OR likes < 2", 15, "expected a predicate after 'AND', found 'OR'"),
        .init("(likes > 3", 11, "expected ')' to close the '(' at column 1"),
        .init("likes > 3)", 10, "unexpected ')' after a complete predicate"),
        .init("likes > 3 likes", 11, "unexpected 'likes' after a complete predicate"),
        .init("", 1, "expected a predicate"),
        .init("likes", 6, "expected an operator after 'likes'"),
        .init("likes && 3", 7, "expected an operator after 'likes', found '&&'"),
        .init("likes ? 3", 7, "unexpected character '?'"),
        .init("likes + 'a' > 2", 9, "'+' needs numbers or a date, not the string \"a\""),
        .init("likes > 2 * 'b'", 11, "'*' needs numbers or a date, not the integer 2 and the string \"b\""),
        .init("likes > 2 *", 12, "expected a value after '*'"),
        .init(
            "FUNCTION(country, 'length') > 1", 1,
            #"FUNCTION(...) is not supported: Core Data's SQL store refuses it ("Unsupported function expression FUNCTION(...)")"#),
        .init("now() > 1", 1, "the function now() is not supported by the lab: write the comparison with key paths, constants and + - * /"),
        .init("size > 4", 1, "'size' is a reserved word: write #size for a key of that name"),
        .init("(likes > 3) == 2", 8, "expected ')' to close the '(' at column 1, found '>'"),
        .init("$x := 3", 4, "a variable assignment (:=) is not a predicate: Core Data fetches take none"),
        .init("likes == {1, 2}[FIRST", 22, "expected ']' after 'FIRST'"),
        .init("likes == {1, 2}[5]", 17, "index 5 is outside the array of 2"),
        .init("likes @ 3", 7, "expected a name after '@'"),
        .init("likes == %z", 10, "unknown format specifier '%z' (use %@, %K, %d, %i, %f or %s)"),
        .init("likes == 99999999999999999999", 10, "the number 99999999999999999999 does not fit in 64 bits"),
        .init("likes == 12abc", 12, "unexpected 'a' after the number 12"),
        .init("country CONTAINS[x] 'a'", 18, "unknown option '[x]' (use [c], [d], [cd], [l] or [n])"),
        .init("country CONTAINS[cn] 'a'", 18, "'[cn]': n cannot be combined with c, d or l"),
        .init("country CONTAINS[c 'a'", 20, "expected ']' after 'c', found ''a''"),
        .init("likes == {1, likes}", 14, "an array literal holds values only, not key paths"),
        .init("likes IN {1, 2", 15, "expected ',' or '}' to close the '{' at column 10"),
        .init("%K == 1", [.string("li kes")], 1, #"'%K' argument "li kes" is not a key path (dotted names of letters, digits and _)"#),
        .init(
            "%K == 1", [.string("meta..likes")], 1,
            #"'%K' argument "meta..likes" is not a key path (dotted names of letters, digits and _)"#),
        .init(
            "%K == 1", [.string("likes) OR (1")], 1,
            #"'%K' argument "likes) OR (1" is not a key path (dotted names of letters, digits and _)"#),
        .init("%K == 1", [.integer(5)], 1, "'%K' needs a string argument naming a key path, got the integer 5"),
        .init("ANY > 3", 5, "expected a key path after 'ANY', found '>'"),
        .init(
            "(likes & 4) == 4", 8,
            "'&' is not an operator of the predicate grammar (Apple's format syntax has no bitwise operators, and bitwiseAnd:with: is not a function Core Data's SQL store translates): test each flag as an attribute of its own, or with modulus:by:(divide:by:(flags, 4), 2) == 1"
        ),
        .init("books.@avg > 1", 12, "'@avg' needs a key path after it, like books.@avg.price"),
        .init(
            "books.@median.x > 1", 7,
            #"'@median' is not supported: Core Data's SQL store refuses it ("Unsupported KVC aggregate in keypath"); use @count, @avg, @sum, @min or @max"#
        ),
        .init("SUBQUERY(books, b, b.year > 1).@count > 0", 17, "expected a $variable after ',', found 'b'"),
        .init("SUBQUERY(books, $b, $b.year > 1.@count > 0", 32, "'.' can only follow a key path"),
        .init("date > CAST(1, 'NSFoo')", 16, "CAST to 'NSFoo' is not supported (use 'NSDate', 'NSNumber' or 'NSString')"),
        .init("date > CAST('x', 'NSDate')", 13, "CAST cannot make the string \"x\" into 'NSDate'"),
        .init("date > CAST(date, 'NSDate')", 13, "CAST of a key path is not supported: Core Data's SQL store casts constants only"),
        .init("date > CAST(1, 'NSDate'", 24, "expected ')' to close CAST at column 8"),
        // Columns count Characters: the flag is one Character (two scalars, eight UTF-8 bytes).
        .init("country == '🇫🇷' AND likes >", 27, "expected a value after '>'"),
    ]

    /// Errors found when the predicate meets a model.
    static let semantic: [PredicateErrorCase] = [
        .init("lieks > 3", 1, "in variant V1, no attribute 'lieks' is reachable from Photo through to-one relationships"),
        .init(
            "country == '🇫🇷' AND lieks > 1", 20, "in variant V1, no attribute 'lieks' is reachable from Photo through to-one relationships"),
        .init("likes > 3 AND meta.likes > 2", 15, "in variant V1, Photo has no relationship 'meta'"),
        .init("V2", "Photo", "meta.likse > 2", [], 1, "in variant V2, PhotoMeta has no attribute 'likse'"),
        .init("%K > 1", [.string("lieks")], 1, "in variant V1, no attribute 'lieks' is reachable from Photo through to-one relationships"),
        .init("ANY likes > 3", 1, "ANY needs a key path through a to-many relationship, but 'likes' has none"),
        .init("V2", "Photo", "ALL meta.likes > 3", [], 1, "ALL needs a key path through a to-many relationship, but 'meta.likes' has none"),
        .init("V2", "Photo", "NONE likes > 3", [], 1, "NONE needs a key path through a to-many relationship, but 'likes' has none"),
        .init("likes BEGINSWITH 'a'", 1, "BEGINSWITH compares strings; 'likes' is integer32"),
        .init("nil == country", 1, #"nil on the left of ==: Core Data's SQL store refuses it ("can't use NULL on left hand side")"#),
        .init("nil < likes", 1, #"nil on the left of <: Core Data's SQL store refuses it ("can't use NULL on left hand side")"#),
        .init("likes >= %@", [.null], 10, #">= nil: Core Data's SQL store refuses it ("illegal comparison with NULL")"#),
        .init(
            "country BEGINSWITH nil", 20,
            #"BEGINSWITH nil: Core Data's SQL store refuses it ("unimplemented SQL generation for predicate"); NSPredicate answers NO"#),
        .init(
            "likes ** 2 > 4", 1,
            #"'**' of a key path is not supported: Core Data's SQL store refuses it ("Unsupported function type passed to SQL store")"#),
        .init(
            "L1", "Author", "books[FIRST].year > 4", [], 6,
            #"[FIRST] of a relationship is not supported: Core Data's SQL store refuses it ("Unsupported function type passed to SQL store"); [SIZE] is its @count"#
        ),
        .init(
            "L1", "Author", "SUBQUERY(books, $b, year > 2000).@count > 1", [], 21,
            "in variant L1, no attribute 'year' is reachable from Author through to-one relationships"),
        .init("country IN likes", 12, "IN needs an array, a to-many relationship or a string on the right, like {1, 2}"),
        .init("country BEGINSWITH 5", 20, "BEGINSWITH needs a string, not the integer 5"),
        .init("likes BETWEEN {1}", 15, "BETWEEN needs an array of 2 values on the right, like {1, 5}, not an array of 1"),
        .init("likes BETWEEN %@", [.integer(4)], 15, "BETWEEN needs an array of 2 values on the right, like {1, 5}, not the integer 4"),
        .init("likes IN 5", 10, "IN needs an array, a to-many relationship or a string on the right, like {1, 2}, not the integer 5"),
        .init("likes == %@", [.array([.integer(1)])], 10, "an array can only be the right side of IN or BETWEEN, not of =="),
        .init("SELF == 'x'", 9, #"'SELF' is an object: compare it with nil or an integer primary key, not the string "x""#),
        .init("L1", "Book", "author > 3", [], 8, "'author' is an object: compare it with ==, != or IN"),
        .init(
            "L1", "Book", "author IN {1, 'x'}", [], 11,
            #"'author' is an object: compare it with nil or an integer primary key, not the string "x""#),
        .init(
            "L1", "Author", "books == nil", [], 1,
            "'books' is a to-many relationship: compare its @count, or use ANY, ALL, NONE or SUBQUERY"),
        .init("L1", "Author", "name.@count > 1", [], 1, "@count needs a to-many relationship; 'name' is not one"),
        .init(
            "L1", "Author", "books.@avg.pages > 1", [], 1,
            "in variant L1, no attribute 'pages' is reachable from Book through to-one relationships"),
        .init(
            "L1", "Author", "SUBQUERY(books, $b, $x.year > 1).@count > 0", [], 21, "unknown variable '$x' (only SUBQUERY defines variables)"
        ),
        .init("L1", "Author", "$b.year > 1", [], 1, "unknown variable '$b' (only SUBQUERY defines variables)"),
        .init(
            "L1", "Author", "SUBQUERY(name, $b, $b.year > 1).@count > 0", [], 10, "SUBQUERY needs a to-many relationship; 'name' is not one"
        ),
        .init("L1", "Author", "SUBQUERY(books, $b, $b.year > 1) == nil", [], 1, "a SUBQUERY is a collection: compare SUBQUERY(...).@count"),
        .init(
            "L1", "Tag", "ANY books.tags.name == 'x'", [], 5,
            "'books.tags.name' goes through two to-many relationships ('books', 'tags'); use SUBQUERY"),
        .init(
            "L1", "Author", "ANY books.writer == 1", [], 5,
            "in variant L1, no attribute 'writer' is reachable from Book through to-one relationships"),
    ]

    func check(_ c: PredicateErrorCase) throws {
        let model = try PredicateFixtures.model(c.model)
        do {
            let result = try PredicateFixtures.compile(model, c.entity, c.predicate, c.arguments)
            Issue.record("expected an error, got \(result.compiled.sql)")
        } catch let e as PredicateError {
            #expect(e == PredicateError(column: c.column, message: c.message))
        }
    }

    @Test("syntax errors", arguments: syntax)
    func syntaxError(_ c: PredicateErrorCase) throws { try check(c) }

    @Test("errors against the model", arguments: semantic)
    func semanticError(_ c: PredicateErrorCase) throws { try check(c) }

    /// `predicateWithFormat:` reads its arguments from a C variadic list and ignores the ones
    /// its format does not name: the lab parses such a predicate and says how many it used.
    @Test(
        "unused arguments are ignored, and counted",
        arguments: [
            ("likes == %@", [PredicateValue.integer(1), .integer(2)], 1),
            ("TRUEPREDICATE", [.integer(1)], 0),
            ("likes > %2$@", [.integer(1), .integer(2), .integer(3)], 2),
            ("likes > %@ AND likes < %@", [.integer(1), .integer(9)], 2),
        ])
    func unusedArguments(_ text: String, _ arguments: [PredicateValue], _ used: Int) throws {
        #expect(try PredicateParser.argumentsUsed(text, arguments: arguments) == used)
        let predicate = try PredicateParser.parse(text, arguments: arguments)
        let direct = try PredicateParser.parse(text, arguments: Array(arguments.prefix(used)))
        #expect(predicate == direct)
    }
}
