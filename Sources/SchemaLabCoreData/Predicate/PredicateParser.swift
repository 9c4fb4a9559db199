/// Parses NSPredicate format strings (`likes > %@ AND ANY books.year >= 2000`) into a
/// `Predicate`, following the grammar of Apple's Predicate Format String Syntax.
///
/// Keywords are case-insensitive; a key that spells a reserved word is written `#key`.
/// `%@` (and `%d`, `%i`, `%f`, `%s`, ...) takes the next argument as a constant, `%K` takes it
/// as a key path or as a segment of one (`%K.%K`, `dog.%K`); `%2$@` takes argument 2. Arguments
/// the format does not use are ignored, as `predicateWithFormat:` ignores them (a C variadic
/// list cannot tell it how many it was given); ``argumentsUsed(_:arguments:)`` says how many it
/// used, for a caller that warns. Grammar, loosest first:
///
///     predicate  := and (("OR" | "||") and)*
///     and        := not (("AND" | "&&") not)*
///     not        := ("NOT" | "!") not | "(" predicate ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
///     comparison := ["ANY" | "SOME" | "ALL" | "NONE"] expr operator ["[" c|d|l|n... "]"] expr
///     expr       := term (("+" | "-") term)*
///     term       := factor (("*" | "/") factor)*
///     factor     := unary ["**" factor]
///     unary      := "-" unary | primary postfix*
///     postfix    := "." (name | #name | %K | @count | @avg|@sum|@min|@max "." keypath)
///                 | "[" (FIRST | LAST | SIZE | integer) "]"
///     primary    := "(" expr ")" | value | name | #name | SELF | $var | %K
///                 | SUBQUERY "(" expr "," $var "," predicate ")" | CAST "(" expr "," type ")"
///                 | indexed:by: "(" keypath "," string ")"
///     value      := number | string | nil | NULL | TRUE | YES | FALSE | NO | "{" [expr ("," expr)*] "}" | %@
///
/// A `(` where a predicate may start is read as a parenthesized predicate when what follows
/// its `)` cannot continue an expression, and as a parenthesized expression otherwise
/// (`(likes) > 5`, `likes == (5)`). Constant sub-expressions are folded (`2 * 3`, `{1, 2}[SIZE]`,
/// `CAST('5', 'NSNumber')`).
package enum PredicateParser {
    /// The deepest nesting of parentheses, NOTs, SUBQUERYs and braces a predicate may have.
    package static let maximumDepth = 100

    /// Parses `text`, substituting `arguments` for its format specifiers in order (arguments
    /// past the last one it uses are ignored). Throws a `PredicateError` at the column of the
    /// first problem.
    package static func parse(_ text: String, arguments: [PredicateValue]) throws(PredicateError) -> Predicate {
        try parseCounting(text, arguments: arguments).predicate
    }

    /// How many of `arguments` the predicate `text` uses (the highest argument number it
    /// takes); throws as ``parse(_:arguments:)`` does.
    package static func argumentsUsed(_ text: String, arguments: [PredicateValue]) throws(PredicateError) -> Int {
        try parseCounting(text, arguments: arguments).used
    }

    /// "2 arguments given but the predicate uses 1": what a caller says of unused arguments.
    package static func unusedArgumentsText(given: Int, used: Int) -> String {
        "\(given) argument\(given == 1 ? "" : "s") given but the predicate uses \(used)"
    }

    private static func parseCounting(_ text: String, arguments: [PredicateValue]) throws(PredicateError) -> (
        predicate: Predicate, used: Int
    ) {
        var parser = PredicateParserState(tokens: try PredicateLexer.tokenize(text), arguments: arguments)
        let p = try parser.predicate(after: nil)
        let t = parser.current
        guard t.kind == .end else {
            throw PredicateError(column: t.column, message: "unexpected '\(t.text)' after a complete predicate")
        }
        return (p, parser.argumentsUsed)
    }

    /// The words Apple's parser reserves (case-insensitively): a key that spells one is written `#key`.
    static let reservedWords: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES",
        "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO",
        "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE",
    ]
}

/// The parser's position in the token list, the arguments used so far, and what it has
/// learnt while backtracking.
struct PredicateParserState {
    var tokens: [PredicateToken]
    let arguments: [PredicateValue]
    var position = 0
    var nextArgument = 0
    /// The highest argument number used so far.
    var argumentsUsed = 0
    /// Positions of a `(` already found not to open a parenthesized predicate, so that the
    /// expression reading of nested parentheses is tried once per position, not once per path.
    var notPredicateAt: Set<Int> = []
    /// The current nesting depth (see `PredicateParser/maximumDepth`).
    var depth = 0

    init(tokens: [PredicateToken], arguments: [PredicateValue]) {
        self.tokens = tokens
        self.arguments = arguments
    }

    var current: PredicateToken { tokens[position] }
    mutating func advance() -> PredicateToken {
        let t = tokens[position]
        if t.kind != .end { position += 1 }
        return t
    }

    /// The upper-cased word when the current token is a bare word.
    var keyword: String? {
        if case .word(let w) = current.kind { return w.uppercased() }
        return nil
    }
    func isSymbol(_ s: String) -> Bool { current.kind == .symbol(s) }
    func isPunctuation(_ c: Character) -> Bool { current.kind == .punctuation(c) }

    /// `expected X after 'Y'[, found 'Z']` at the current token.
    func expected(_ what: String, after: PredicateToken?) -> PredicateError {
        var m = "expected \(what)"
        if let a = after { m += " after '\(a.text)'" }
        if current.kind != .end { m += ", found '\(current.text)'" }
        return PredicateError(column: current.column, message: m)
    }

    /// Enters one level of nesting at `token`, or throws past `PredicateParser/maximumDepth`.
    mutating func enter(_ token: PredicateToken) throws(PredicateError) {
        depth += 1
        if depth > PredicateParser.maximumDepth {
            throw PredicateError(
                column: token.column, message: "the predicate nests deeper than \(PredicateParser.maximumDepth) levels")
        }
    }

    // MARK: predicates

    mutating func predicate(after: PredicateToken?) throws(PredicateError) -> Predicate {
        var left = try conjunction(after: after)
        while keyword == "OR" || isSymbol("||") {
            let op = advance()
            left = .or(left, try conjunction(after: op), column: op.column)
        }
        return left
    }

    mutating func conjunction(after: PredicateToken?) throws(PredicateError) -> Predicate {
        var left = try negation(after: after)
        while keyword == "AND" || isSymbol("&&") {
            let op = advance()
            left = .and(left, try negation(after: op), column: op.column)
        }
        return left
    }

    mutating func negation(after: PredicateToken?) throws(PredicateError) -> Predicate {
        if keyword == "NOT" || isSymbol("!") {
            let op = advance()
            try enter(op)
            defer { depth -= 1 }
            return .not(try negation(after: op), column: op.column)
        }
        if isPunctuation("("), !notPredicateAt.contains(position) {
            let start = (position, nextArgument, argumentsUsed)
            var predicateError: PredicateError?
            do {
                let p = try parenthesizedPredicate()
                if !continuesExpression { return p }
            } catch {
                predicateError = error
            }
            // Not a predicate in parentheses: read the '(' as the start of an expression.
            notPredicateAt.insert(start.0)
            (position, nextArgument, argumentsUsed) = start
            do {
                return try comparison(after: after)
            } catch {
                guard let first = predicateError, first.column >= error.column else { throw error }
                throw first
            }
        }
        if keyword == "TRUEPREDICATE" { return .truePredicate(column: advance().column) }
        if keyword == "FALSEPREDICATE" { return .falsePredicate(column: advance().column) }
        return try comparison(after: after)
    }

    /// `( predicate )`, marked as written in parentheses.
    mutating func parenthesizedPredicate() throws(PredicateError) -> Predicate {
        let open = advance()
        try enter(open)
        defer { depth -= 1 }
        let p = try predicate(after: open)
        guard isPunctuation(")") else {
            throw expected("')' to close the '(' at column \(open.column)", after: nil)
        }
        _ = advance()
        return p.parenthesized
    }

    /// True when the current token can only continue an expression (an operator, a `.` or
    /// `[` postfix, arithmetic), so that a parenthesized group before it was an expression.
    var continuesExpression: Bool {
        switch current.kind {
        case .symbol(let s): return ComparisonOperator(rawValue: s) != nil || ArithmeticOperator(rawValue: s) != nil
        case .word(let w):
            guard let op = ComparisonOperator(rawValue: w.uppercased()) else { return false }
            return op.rawValue.first!.isLetter
        case .punctuation(let c): return c == "." || c == "["
        case .integer, .real: return current.text.hasPrefix("-")
        default: return false
        }
    }

    mutating func comparison(after: PredicateToken?) throws(PredicateError) -> Predicate {
        let start = current.column
        var quantifier = ComparisonQuantifier.direct
        var quantifierToken: PredicateToken?
        switch keyword {
        case "ANY", "SOME": quantifier = .any
        case "ALL": quantifier = .all
        case "NONE": quantifier = .none
        default: break
        }
        if quantifier != .direct { quantifierToken = advance() }
        guard let left = try expression() else {
            if let q = quantifierToken { throw expected("a key path", after: q) }
            if current.kind == .end && after == nil { throw PredicateError(column: current.column, message: "expected a predicate") }
            throw expected("a predicate", after: after)
        }
        let lastOfLeft = tokens[position - 1]
        let opToken = current
        let op: ComparisonOperator
        switch opToken.kind {
        case .symbol(":="):
            throw PredicateError(
                column: opToken.column, message: "a variable assignment (:=) is not a predicate: Core Data fetches take none")
        case .symbol(let s):
            guard let o = ComparisonOperator(rawValue: s) else { throw expected("an operator", after: lastOfLeft) }
            op = o
        case .word(let w):
            guard let o = ComparisonOperator(rawValue: w.uppercased()), o.rawValue.first!.isLetter else {
                throw PredicateError(column: opToken.column, message: "unknown operator '\(w)'")
            }
            op = o
        default:
            throw expected("an operator", after: lastOfLeft)
        }
        _ = advance()
        var lastToken = opToken
        var options: ComparisonOptions = []
        if isPunctuation("[") {
            let open = advance()
            guard case .word(let w) = current.kind else { throw expected("c, d, cd, l or n", after: open) }
            let optionToken = advance()
            for ch in w.lowercased() {
                switch ch {
                case "c": options.insert(.caseInsensitive)
                case "d": options.insert(.diacriticInsensitive)
                case "n": options.insert(.normalized)
                case "l": options.insert(.localeSensitive)
                default:
                    throw PredicateError(
                        column: optionToken.column, message: "unknown option '[\(w)]' (use [c], [d], [cd], [l] or [n])")
                }
            }
            if options.contains(.normalized) && options != .normalized {
                throw PredicateError(column: optionToken.column, message: "'[\(w)]': n cannot be combined with c, d or l")
            }
            guard isPunctuation("]") else { throw expected("']'", after: optionToken) }
            lastToken = advance()
        }
        guard let right = try expression() else {
            throw expected("a value", after: lastToken)
        }
        return .comparison(
            PredicateComparison(
                quantifier: quantifier, left: left, op: op, options: options,
                right: right, column: start, operatorColumn: opToken.column))
    }

    mutating func argument(_ t: PredicateToken, position: Int?) throws(PredicateError) -> PredicateValue {
        let number: Int
        if let p = position {
            number = p
        } else {
            nextArgument += 1
            number = nextArgument
        }
        guard number <= arguments.count else {
            throw PredicateError(column: t.column, message: "'\(t.text)' number \(number) has no argument (\(arguments.count) given)")
        }
        argumentsUsed = max(argumentsUsed, number)
        return arguments[number - 1]
    }
}
