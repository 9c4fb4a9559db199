import Foundation
import Testing
@testable import SchemaLabCoreData

/// The parser alone, with no model: the tree it builds, its syntax errors, and its name with
/// Foundation imported (Foundation has a `Predicate` of its own).
@Suite("Predicate parser: the tree and syntax errors, without a model")
struct PredicateParserTests {
    @Test("Syntax errors are found by the parser alone")
    func parserAlone() {
        #expect(throws: PredicateError(column: 8, message: "expected a value after '>'")) {
            try PredicateParser.parse("likes > ", arguments: [])
        }
    }

    @Test("With Foundation imported, the AST is SchemaLabCoreData.Predicate")
    func qualifiedName() throws {
        let p: SchemaLabCoreData.Predicate = try PredicateParser.parse("TRUEPREDICATE OR FALSEPREDICATE", arguments: [])
        #expect(p == .or(.truePredicate(column: 1), .falsePredicate(column: 18), column: 15))
    }

    @Test("Columns, quantifiers, options and %K on the nodes")
    func tree() throws {
        let p = try PredicateParser.parse(
            "ANY books.year >= %@ AND NOT %K BEGINSWITH[cd] 'x'", arguments: [.integer(2000), .string("author.name")])
        let expected = SchemaLabCoreData.Predicate.and(
            .comparison(
                PredicateComparison(
                    quantifier: .any, left: .keyPath(root: .object, components: ["books", "year"], column: 5),
                    op: .greaterOrEqual, right: .constant(.integer(2000), column: 19), column: 1, operatorColumn: 16)),
            .not(
                .comparison(
                    PredicateComparison(
                        left: .keyPath(root: .object, components: ["author", "name"], column: 30), op: .beginsWith,
                        options: [.caseInsensitive, .diacriticInsensitive],
                        right: .constant(.string("x"), column: 48), column: 30, operatorColumn: 33)), column: 26),
            column: 22)
        #expect(p == expected)
    }

    @Test("Aggregates, SUBQUERY and variables")
    func collections() throws {
        let p = try PredicateParser.parse("SUBQUERY(books, $b, $b.price < 10).@count == books.@avg.price", arguments: [])
        guard case .comparison(let c) = p else { Issue.record("not a comparison"); return }
        let inner = SchemaLabCoreData.Predicate.comparison(
            PredicateComparison(
                left: .keyPath(root: .variable("b"), components: ["price"], column: 21), op: .less,
                right: .constant(.integer(10), column: 32), column: 21, operatorColumn: 30))
        #expect(
            c.left
                == .aggregate(
                    .count,
                    collection: .subquery(
                        collection: .keyPath(root: .object, components: ["books"], column: 10),
                        variable: "b", predicate: inner, column: 1), keyPath: [], column: 1))
        #expect(
            c.right
                == .aggregate(.avg, collection: .keyPath(root: .object, components: ["books"], column: 46), keyPath: ["price"], column: 46))
    }

    @Test("Array literals and nested arrays from arguments")
    func arrays() throws {
        let p = try PredicateParser.parse("x IN {1, -2.5, 'a', nil, %@, {3}}", arguments: [.date(5)])
        guard case .comparison(let c) = p else { Issue.record("not a comparison"); return }
        #expect(c.right == .constant(.array([.integer(1), .real(-2.5), .string("a"), .null, .date(5), .array([.integer(3)])]), column: 6))
    }
}
