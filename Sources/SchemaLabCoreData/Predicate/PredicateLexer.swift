/// One token of a predicate format string.
struct PredicateToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A bare word: a keyword (matched case-insensitively by the parser) or a key.
        case word(String)
        /// `#word`: a key even when it spells a keyword.
        case escapedWord(String)
        /// `$name`
        case variable(String)
        /// `@count`, `@avg`, ... (as written)
        case aggregate(String)
        case integer(Int64)
        case real(Double)
        case string(String)
        /// `%@`, `%K`, `%d`, ...: the conversion character and the explicit position (`%2$@`), if any.
        case format(Character, position: Int?)
        /// `( ) { } [ ] , .`
        case punctuation(Character)
        /// A comparison, logical or arithmetic operator, normalized (`=` is `==`, `<>` is `!=`,
        /// `=<` is `<=`), or `:=`.
        case symbol(String)
        case end
    }
    let kind: Kind
    /// 1-based column of the first Character.
    let column: Int
    /// The text as written (for messages).
    let text: String
}

/// Splits a predicate format string into tokens. Columns are 1-based, in Characters.
/// The end token sits just after the last non-blank character, so `likes > ` reports
/// a missing value at column 8.
struct PredicateLexer {
    private let chars: [Character]
    private var i = 0

    init(_ text: String) { chars = Array(text) }

    static func tokenize(_ text: String) throws(PredicateError) -> [PredicateToken] {
        var lexer = PredicateLexer(text)
        var out: [PredicateToken] = []
        while let t = try lexer.next() { out.append(t) }
        let endColumn = out.last.map { $0.column + $0.text.count } ?? 1
        out.append(PredicateToken(kind: .end, column: endColumn, text: ""))
        return out
    }

    private func peek(_ offset: Int = 0) -> Character? {
        i + offset < chars.count ? chars[i + offset] : nil
    }

    private static func isIdentifierStart(_ c: Character) -> Bool { c == "_" || (c.isLetter && c.isASCII) }
    private static func isIdentifierPart(_ c: Character) -> Bool { c == "_" || ((c.isLetter || c.isNumber) && c.isASCII) }
    private static func isDigit(_ c: Character?) -> Bool { c.map { $0.isASCII && $0.isNumber } ?? false }

    private mutating func word() -> String {
        let start = i
        while let c = peek(), Self.isIdentifierPart(c) { i += 1 }
        return String(chars[start..<i])
    }

    private mutating func next() throws(PredicateError) -> PredicateToken? {
        while let c = peek(), c.isWhitespace { i += 1 }
        guard let c = peek() else { return nil }
        let start = i
        let column = i + 1
        func token(_ kind: PredicateToken.Kind) -> PredicateToken {
            PredicateToken(kind: kind, column: column, text: String(chars[start..<i]))
        }
        if Self.isIdentifierStart(c) {
            let w = word()
            // `indexed:by:(key, "index")`, the R-tree fetch-index function, is one word.
            if w.lowercased() == "indexed", i + 4 <= chars.count, String(chars[i..<i + 4]).lowercased() == ":by:" {
                i += 4
                return token(.word("indexed:by:"))
            }
            // A function name in Apple's spelling is one word: `sum:`, `modulus:by:`.
            if peek() == ":", peek(1) != "=" {
                var name = w
                while peek() == ":", peek(1) != "=" {
                    i += 1
                    name.append(":")
                    var end = i
                    while end < chars.count, Self.isIdentifierPart(chars[end]) { end += 1 }
                    guard end > i, end < chars.count, chars[end] == ":" else { break }
                    name += String(chars[i..<end])
                    i = end
                }
                return token(.word(name))
            }
            return token(.word(w))
        }
        if c == "#" || c == "$" || c == "@" {
            i += 1
            guard let d = peek(), Self.isIdentifierStart(d) else {
                throw PredicateError(column: column, message: "expected a name after '\(c)'")
            }
            let w = word()
            return token(c == "#" ? .escapedWord(w) : c == "$" ? .variable(w) : .aggregate(w))
        }
        if Self.isDigit(c) || (c == "-" && Self.isDigit(peek(1))) { return try number(column) }
        if c == "'" || c == "\"" { return try string(quote: c, column: column) }
        if c == "%" { return try format(column) }
        if "(){}[],.".contains(c) {
            i += 1
            return token(.punctuation(c))
        }
        let two = peek(1).map { String([c, $0]) } ?? ""
        let pairs: [String: String] = [
            "==": "==", "!=": "!=", "<>": "!=", "<=": "<=", "=<": "<=", ">=": ">=", "=>": ">=", "&&": "&&", "||": "||",
            ":=": ":=",
        ]
        if let op = pairs[two] {
            i += 2
            return token(.symbol(op))
        }
        let singles: [Character: String] = ["=": "==", "<": "<", ">": ">", "!": "!"]
        if let op = singles[c] {
            i += 1
            return token(.symbol(op))
        }
        if c == "*" && peek(1) == "*" {
            i += 2
            return token(.symbol("**"))
        }
        if "+-*/".contains(c) {
            i += 1
            return token(.symbol(String(c)))
        }
        if "&|^~".contains(c) {
            // A bitwise test, `(flags & 4) == 4`: Apple's format grammar has no bitwise operator,
            // and NSExpression's bitwiseAnd:with: is not among the functions Core Data's SQL
            // store translates, so the lab says what to write instead.
            throw PredicateError(
                column: column,
                message:
                    "'\(c)' is not an operator of the predicate grammar (Apple's format syntax has no bitwise operators, and bitwiseAnd:with: is not a function Core Data's SQL store translates): test each flag as an attribute of its own, or with modulus:by:(divide:by:(flags, 4), 2) == 1"
            )
        }
        throw PredicateError(column: column, message: "unexpected character '\(c)'")
    }

    private mutating func number(_ column: Int) throws(PredicateError) -> PredicateToken {
        let start = i
        if peek() == "-" { i += 1 }
        while Self.isDigit(peek()) { i += 1 }
        var isReal = false
        if peek() == ".", Self.isDigit(peek(1)) {
            isReal = true
            i += 1
            while Self.isDigit(peek()) { i += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            let signed = peek(1) == "+" || peek(1) == "-"
            if Self.isDigit(peek(signed ? 2 : 1)) {
                isReal = true
                i += signed ? 2 : 1
                while Self.isDigit(peek()) { i += 1 }
            }
        }
        if let c = peek(), Self.isIdentifierStart(c) {
            throw PredicateError(column: i + 1, message: "unexpected '\(c)' after the number \(String(chars[start..<i]))")
        }
        let text = String(chars[start..<i])
        if !isReal {
            guard let v = Int64(text) else { throw PredicateError(column: column, message: "the number \(text) does not fit in 64 bits") }
            return PredicateToken(kind: .integer(v), column: column, text: text)
        }
        return PredicateToken(kind: .real(Double(text)!), column: column, text: text)
    }

    private mutating func string(quote: Character, column: Int) throws(PredicateError) -> PredicateToken {
        let start = i
        i += 1
        var value = ""
        while true {
            guard let c = peek() else { throw PredicateError(column: column, message: "unterminated string") }
            i += 1
            if c == quote { break }
            if c != "\\" {
                value.append(c)
                continue
            }
            guard let e = peek() else { throw PredicateError(column: column, message: "unterminated string") }
            i += 1
            switch e {
            case "n": value.append("\n")
            case "t": value.append("\t")
            case "r": value.append("\r")
            case "0": value.append("\0")
            case "x": value.unicodeScalars.append(try hexScalar(digits: 2, escape: "\\x needs two hexadecimal digits"))
            case "u":
                value.unicodeScalars.append(try hexScalar(digits: 4, escape: "\\u needs four hexadecimal digits naming a Unicode scalar"))
            default: value.append(e)  // \\ \' \" and any other escaped character stand for themselves
            }
        }
        return PredicateToken(kind: .string(value), column: column, text: String(chars[start..<i]))
    }

    /// The scalar named by the `digits` hexadecimal digits after `\\x` or `\\u`; `message` at the
    /// escape's letter when they are missing or name no scalar.
    private mutating func hexScalar(digits: Int, escape message: String) throws(PredicateError) -> Unicode.Scalar {
        let hex = (0..<digits).compactMap { peek($0) }
        guard hex.count == digits, let v = UInt32(String(hex), radix: 16), let scalar = Unicode.Scalar(v) else {
            throw PredicateError(column: i - 1, message: message)
        }
        i += digits
        return scalar
    }

    private mutating func format(_ column: Int) throws(PredicateError) -> PredicateToken {
        let start = i
        i += 1
        var position: Int?
        if Self.isDigit(peek()) {
            var digits = ""
            while Self.isDigit(peek()) { digits.append(peek()!); i += 1 }
            guard peek() == "$", let p = Int(digits), p >= 1 else {
                throw PredicateError(column: column, message: "a positional format specifier is written %N$@ with N from 1")
            }
            i += 1
            position = p
        }
        while let c = peek(), c == "l" || c == "h" || c == "q" { i += 1 }
        guard let conv = peek(), "@KdiufgeDUxXsSco".contains(conv) else {
            let found = peek().map { "'%\($0)'" } ?? "'%' at the end"
            throw PredicateError(column: column, message: "unknown format specifier \(found) (use %@, %K, %d, %i, %f or %s)")
        }
        i += 1
        return PredicateToken(kind: .format(conv, position: position), column: column, text: String(chars[start..<i]))
    }
}
