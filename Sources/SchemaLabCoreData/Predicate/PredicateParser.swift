/// Parses NSPredicate format strings (`likes > %@ AND ANY books.year >= 2000`) into a
/// ``Predicate``.
///
/// Keywords are case-insensitive; a key that spells a keyword is written `#key`.
/// `%@` (and `%d`, `%f`, ...) takes the next argument as a constant, `%K` takes it as
/// a key path (a string of dotted identifiers); `%2$@` takes argument 2. Every
/// argument must be used. Grammar, loosest first:
///
///     predicate  := and (("OR" | "||") and)*
///     and        := not (("AND" | "&&") not)*
///     not        := ("NOT" | "!") not | "(" predicate ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
///     comparison := ["ANY" | "SOME" | "ALL" | "NONE"] expr operator ["[" c|d|cd|n "]"] expr
///     expr       := value | keypath ("." name)* ["." @count | "." @avg|@sum|@min|@max "." keypath]
///     value      := number | string | nil | NULL | TRUE | YES | FALSE | NO | "{" values "}" | %@
///                 | CAST "(" number "," 'NSDate' ")"
///     keypath    := name | #name | SELF | $var | %K | SUBQUERY "(" expr "," $var "," predicate ")"
public enum PredicateParser {
    /// Parses `text`, substituting `arguments` for its format specifiers in order.
    /// Throws a ``PredicateError`` at the column of the first problem.
    public static func parse(_ text: String, arguments: [PredicateValue]) throws(PredicateError) -> Predicate {
        var parser = Parser(tokens: try PredicateLexer.tokenize(text), arguments: arguments)
        let p = try parser.predicate(after: nil)
        let t = parser.current
        guard t.kind == .end else {
            throw PredicateError(column: t.column, message: "unexpected '\(t.text)' after a complete predicate")
        }
        if parser.argumentsUsed < arguments.count {
            let n = arguments.count
            throw PredicateError(
                column: 1, message: "\(n) argument\(n == 1 ? "" : "s") given but the predicate uses \(parser.argumentsUsed)")
        }
        return p
    }
}

private let reservedWords: Set<String> = [
    "AND", "OR", "NOT", "IN", "BETWEEN", "LIKE", "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH",
    "ANY", "ALL", "NONE", "SOME", "TRUEPREDICATE", "FALSEPREDICATE", "SUBQUERY",
    "NIL", "NULL", "TRUE", "FALSE", "YES", "NO", "SELF", "CAST",
]

private struct Parser {
    let tokens: [PredicateToken]
    let arguments: [PredicateValue]
    var position = 0
    var nextArgument = 0
    /// The highest argument number used so far.
    var argumentsUsed = 0

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
            return .not(try negation(after: op), column: op.column)
        }
        if isPunctuation("(") {
            let open = advance()
            let p = try predicate(after: open)
            guard isPunctuation(")") else {
                throw expected("')' to close the '(' at column \(open.column)", after: nil)
            }
            _ = advance()
            return p.parenthesized
        }
        if keyword == "TRUEPREDICATE" { return .truePredicate(column: advance().column) }
        if keyword == "FALSEPREDICATE" { return .falsePredicate(column: advance().column) }
        return try comparison(after: after)
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
        if case .word(let w) = lastOfLeft.kind, w.uppercased() == "FUNCTION", opToken.kind == .punctuation("(") {
            throw PredicateError(column: lastOfLeft.column, message: "FUNCTION(...) is not supported: compare a key path with a value")
        }
        let op: ComparisonOperator
        switch opToken.kind {
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
            if op == .between || op == .in {
                throw PredicateError(column: open.column, message: "\(op.rawValue) takes no [c], [d] or [n] options")
            }
        }
        guard let right = try expression() else {
            throw expected("a value", after: lastToken)
        }
        return .comparison(
            PredicateComparison(
                quantifier: quantifier, left: left, op: op, options: options,
                right: right, column: start, operatorColumn: opToken.column))
    }

    // MARK: expressions

    /// Parses an expression, or returns nil (consuming nothing) when the current token cannot start one.
    mutating func expression() throws(PredicateError) -> PredicateExpression? {
        let t = current
        var expr: PredicateExpression
        switch t.kind {
        case .word(let w):
            switch w.uppercased() {
            case "NIL", "NULL": expr = .constant(.null, column: t.column)
            case "TRUE", "YES": expr = .constant(.bool(true), column: t.column)
            case "FALSE", "NO": expr = .constant(.bool(false), column: t.column)
            case "SELF": expr = .keyPath(root: .object, components: [], column: t.column)
            case "SUBQUERY": return try subquery()
            case "CAST": return try cast()
            case "INDEXED:BY:": return try indexedBy()
            case let upper where reservedWords.contains(upper): return nil
            default: expr = .keyPath(root: .object, components: [w], column: t.column)
            }
        case .escapedWord(let w): expr = .keyPath(root: .object, components: [w], column: t.column)
        case .variable(let v): expr = .keyPath(root: .variable(v), components: [], column: t.column)
        case .integer(let v): expr = .constant(.integer(v), column: t.column)
        case .real(let v): expr = .constant(.real(v), column: t.column)
        case .string(let s): expr = .constant(.string(s), column: t.column)
        case .format(let conv, let pos):
            let value = try argument(t, position: pos)
            if conv == "K" {
                guard case .string(let path) = value else {
                    throw PredicateError(column: t.column, message: "'%K' needs a string argument naming a key path, got \(value.phrase)")
                }
                let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                let valid = parts.allSatisfy { p in
                    guard let f = p.first, f == "_" || (f.isLetter && f.isASCII) else { return false }
                    return p.allSatisfy { $0 == "_" || (($0.isLetter || $0.isNumber) && $0.isASCII) }
                }
                guard valid else {
                    throw PredicateError(
                        column: t.column, message: "'%K' argument \"\(path)\" is not a key path (dotted names of letters, digits and _)")
                }
                expr = .keyPath(root: .object, components: parts, column: t.column)
            } else {
                expr = .constant(value, column: t.column)
            }
        case .punctuation("{"): return try arrayLiteral()
        default: return nil
        }
        _ = advance()
        return try postfix(expr)
    }

    /// `.name`, `.@count`, `.@avg.key` after an expression.
    mutating func postfix(_ start: PredicateExpression) throws(PredicateError) -> PredicateExpression {
        var expr = start
        while isPunctuation(".") {
            let dot = advance()
            let t = current
            switch (t.kind, expr) {
            case (.word(let w), .keyPath(let root, let comps, let c)), (.escapedWord(let w), .keyPath(let root, let comps, let c)):
                _ = advance()
                expr = .keyPath(root: root, components: comps + [w], column: c)
            case (.aggregate(let name), .keyPath), (.aggregate(let name), .subquery):
                _ = advance()
                guard let f = CollectionFunction(rawValue: "@" + name.lowercased()) else {
                    throw PredicateError(
                        column: t.column, message: "unknown collection operator '@\(name)' (use @count, @avg, @sum, @min or @max)")
                }
                var keyPath: [String] = []
                if f != .count {
                    guard isPunctuation(".") else {
                        throw PredicateError(
                            column: current.column, message: "'@\(name)' needs a key path after it, like books.@\(name.lowercased()).price")
                    }
                    while isPunctuation(".") {
                        let d = advance()
                        switch current.kind {
                        case .word(let w), .escapedWord(let w): keyPath.append(w); _ = advance()
                        default: throw expected("a key", after: d)
                        }
                    }
                }
                return .aggregate(f, collection: expr, keyPath: keyPath, column: expr.column)
            case (.word, _), (.escapedWord, _), (.aggregate, _):
                throw PredicateError(column: dot.column, message: "'.' can only follow a key path")
            default:
                throw expected("a key or a collection operator", after: dot)
            }
        }
        return expr
    }

    mutating func subquery() throws(PredicateError) -> PredicateExpression {
        let keywordToken = advance()
        guard isPunctuation("(") else { throw expected("'('", after: keywordToken) }
        let open = advance()
        guard let collection = try expression() else { throw expected("a collection key path", after: open) }
        guard isPunctuation(",") else { throw expected("','", after: tokens[position - 1]) }
        let comma = advance()
        guard case .variable(let v) = current.kind else { throw expected("a $variable", after: comma) }
        _ = advance()
        guard isPunctuation(",") else { throw expected("','", after: tokens[position - 1]) }
        let comma2 = advance()
        let p = try predicate(after: comma2)
        guard isPunctuation(")") else { throw expected("')' to close SUBQUERY at column \(keywordToken.column)", after: nil) }
        _ = advance()
        return try postfix(.subquery(collection: collection, variable: v, predicate: p, column: keywordToken.column))
    }

    /// `indexed:by:(latitude, "byLocation")`: a key path and the name of the R-tree fetch
    /// index that answers it.
    mutating func indexedBy() throws(PredicateError) -> PredicateExpression {
        let keywordToken = advance()
        guard isPunctuation("(") else { throw expected("'('", after: keywordToken) }
        let open = advance()
        let keyToken = current
        guard let key = try expression() else { throw expected("a key path", after: open) }
        guard case .keyPath(.object, let comps, _) = key, !comps.isEmpty else {
            throw PredicateError(
                column: keyToken.column,
                message: "indexed:by: needs an attribute key path first, like indexed:by:(latitude, \"byLocation\")")
        }
        guard isPunctuation(",") else { throw expected("','", after: tokens[position - 1]) }
        let comma = advance()
        let nameToken = current
        guard let name = try expression() else { throw expected("an index name string", after: comma) }
        guard case .constant(.string(let index), _) = name else {
            throw PredicateError(column: nameToken.column, message: "indexed:by: needs the index name as a string, like \"byLocation\"")
        }
        guard isPunctuation(")") else { throw expected("')' to close indexed:by: at column \(keywordToken.column)", after: nil) }
        _ = advance()
        return .indexed(key, index: index, column: keywordToken.column)
    }

    /// `CAST(436492800, 'NSDate')`: a date literal as NSPredicate prints one (seconds since 2001).
    mutating func cast() throws(PredicateError) -> PredicateExpression {
        let keywordToken = advance()
        guard isPunctuation("(") else { throw expected("'('", after: keywordToken) }
        let open = advance()
        let valueToken = current
        guard let value = try expression() else { throw expected("a number", after: open) }
        let seconds: Double
        switch value {
        case .constant(.integer(let v), _): seconds = Double(v)
        case .constant(.real(let v), _): seconds = v
        default: throw PredicateError(column: valueToken.column, message: "CAST needs a number of seconds since 2001 here")
        }
        guard isPunctuation(",") else { throw expected("','", after: tokens[position - 1]) }
        let comma = advance()
        guard case .string(let type) = current.kind else { throw expected("a type name string like 'NSDate'", after: comma) }
        let typeToken = advance()
        guard type == "NSDate" else {
            throw PredicateError(column: typeToken.column, message: "CAST to '\(type)' is not supported (only 'NSDate')")
        }
        guard isPunctuation(")") else { throw expected("')' to close CAST at column \(keywordToken.column)", after: nil) }
        _ = advance()
        return .constant(.date(seconds), column: keywordToken.column)
    }

    mutating func arrayLiteral() throws(PredicateError) -> PredicateExpression {
        let open = advance()
        var values: [PredicateValue] = []
        if isPunctuation("}") {
            _ = advance()
            return .constant(.array([]), column: open.column)
        }
        while true {
            let before = tokens[position - 1]
            let elementColumn = current.column
            guard let e = try expression() else { throw expected("a value", after: before) }
            guard case .constant(let v, _) = e else {
                throw PredicateError(column: elementColumn, message: "an array literal holds values only, not key paths")
            }
            values.append(v)
            if isPunctuation(",") { _ = advance(); continue }
            if isPunctuation("}") { _ = advance(); break }
            throw expected("',' or '}' to close the '{' at column \(open.column)", after: nil)
        }
        return .constant(.array(values), column: open.column)
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
