/// Limits on a scenario predicate's shape, checked before it is parsed: the parser and the
/// compiler recurse once per nested `(` or `{` and once per `AND`, `OR` and `NOT`, so a
/// predicate past these limits would overflow the stack instead of being refused.
package enum PredicateBounds {
    /// The deepest nesting of parentheses and braces.
    static let maxNesting = 32
    /// The most logical operators (`AND`, `OR`, `NOT` and `&&`, `||`, `!`) in one predicate.
    static let maxOperators = 100

    /// The first limit `text` exceeds, as a `PredicateError` at its column; nil when within
    /// the limits or when the text does not tokenize (the parser then reports that).
    package static func check(_ text: String) -> PredicateError? {
        guard let tokens = try? PredicateLexer.tokenize(text) else { return nil }
        var depth = 0, operators = 0
        for t in tokens {
            switch t.kind {
            case .punctuation("("), .punctuation("{"):
                depth += 1
                if depth > maxNesting {
                    return PredicateError(column: t.column, message: "parentheses and braces nest more than \(maxNesting) deep")
                }
            case .punctuation(")"), .punctuation("}"):
                depth -= 1
            case .word(let w) where ["AND", "OR", "NOT"].contains(w.uppercased()):
                operators += 1
            case .symbol("&&"), .symbol("||"), .symbol("!"):
                operators += 1
            default:
                continue
            }
            if operators > maxOperators {
                return PredicateError(column: t.column, message: "more than \(maxOperators) AND, OR and NOT operators")
            }
        }
        return nil
    }
}
