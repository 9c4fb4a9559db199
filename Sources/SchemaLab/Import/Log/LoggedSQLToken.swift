/// A token of a logged SQL statement.
package enum LoggedSQLToken: Equatable, Sendable {
    /// A name or keyword, as written (`SELECT`, `t0`, `ZNAME`, `NSCoreDataLike`).
    case word(String)
    /// An integer literal.
    case integer(Int64)
    /// A number literal with a fraction.
    case real(Double)
    /// A string literal, unquoted.
    case string(String)
    /// `?`.
    case parameter
    /// Punctuation and operators: `(`, `)`, `,`, `.`, `*`, `=`, `==`, `!=`, `<>`, `<`, `<=`, `>`, `>=`, `;`, `||`, `-`, `+`, `/`.
    case symbol(String)

    /// True for the keyword `keyword` (any case).
    func isWord(_ keyword: String) -> Bool {
        if case .word(let w) = self { return w.caseInsensitiveCompare(keyword) == .orderedSame }
        return false
    }
}

/// Splits a logged statement into tokens.
package enum LoggedSQLLexer {
    /// A statement the lexer cannot read: an unterminated string, an unknown character.
    package struct Failure: Error, Sendable {
        /// What went wrong.
        package let message: String
    }

    /// The tokens of `sql`.
    package static func tokens(_ sql: String) throws(Failure) -> [LoggedSQLToken] {
        let chars = Array(sql.unicodeScalars)
        var out: [LoggedSQLToken] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c.properties.isWhitespace {
                i += 1
            } else if c.properties.isAlphabetic || c == "_" {
                var j = i
                while j < chars.count, chars[j].properties.isAlphabetic || chars[j] == "_" || ("0"..."9").contains(chars[j]) { j += 1 }
                out.append(.word(String(String.UnicodeScalarView(chars[i..<j]))))
                i = j
            } else if ("0"..."9").contains(c) {
                var j = i
                while j < chars.count, ("0"..."9").contains(chars[j]) || chars[j] == "." || chars[j] == "e" || chars[j] == "E" { j += 1 }
                let text = String(String.UnicodeScalarView(chars[i..<j]))
                if let v = Int64(text) {
                    out.append(.integer(v))
                } else if let v = Double(text) {
                    out.append(.real(v))
                } else {
                    throw Failure(message: "'\(text)' is not a number")
                }
                i = j
            } else if c == "'" {
                var text = String.UnicodeScalarView()
                var j = i + 1
                var closed = false
                while j < chars.count {
                    if chars[j] == "'" {
                        if j + 1 < chars.count, chars[j + 1] == "'" {
                            text.append("'")
                            j += 2
                            continue
                        }
                        closed = true
                        break
                    }
                    text.append(chars[j])
                    j += 1
                }
                guard closed else { throw Failure(message: "a string literal is not closed") }
                out.append(.string(String(text)))
                i = j + 1
            } else if c == "?" {
                out.append(.parameter)
                i += 1
            } else {
                let two = i + 1 < chars.count ? String(String.UnicodeScalarView([c, chars[i + 1]])) : ""
                if ["==", "!=", "<>", "<=", ">=", "||"].contains(two) {
                    out.append(.symbol(two))
                    i += 2
                } else if "(),.*=<>;-+/".unicodeScalars.contains(c) {
                    out.append(.symbol(String(c)))
                    i += 1
                } else {
                    throw Failure(message: "unexpected character '\(c)'")
                }
            }
        }
        if out.last == .symbol(";") { out.removeLast() }
        return out
    }
}
