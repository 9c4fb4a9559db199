/// A `sql` workload's statement as SQLite's tokenizer reads it (<https://www.sqlite.org/lang_expr.html>,
/// <https://www.sqlite.org/lang_keywords.html>): words, punctuation, string literals and quoted
/// names, with comments and white space skipped; what the decoder and the workload need to
/// know before any schema exists.
///
/// - ``verb``: the statement's first word, or after a `WITH` clause the first word outside its
///   parentheses (`WITH recent AS (SELECT …) SELECT …` is a SELECT);
/// - ``secondStatement``: the text from the first token after a `;`, when there is one
///   (SQLite would prepare the first statement and leave the rest: the format refuses it);
/// - ``isOrdered``: an `ORDER BY` outside every parenthesis, which orders the result rows.
///
/// A literal or comment left open runs to the end of the text (SQLite refuses it when the
/// statement is prepared).
package struct SQLStatementText: Sendable {
    /// The whole text.
    package let text: String
    /// The first word of the statement, upper-cased (`SELECT`, `PRAGMA`, `WITH`); nil when the
    /// text has no word before its first `;`.
    package let firstWord: String?
    /// The word that says what the statement does, upper-cased: the first word, or after
    /// `WITH` the first of SELECT, VALUES, INSERT, REPLACE, UPDATE, DELETE outside parentheses.
    package let verb: String?
    /// The text of a second statement (from its first token), or nil.
    package let secondStatement: String?
    /// True when an `ORDER BY` stands outside every parenthesis.
    package let isOrdered: Bool

    /// True when the statement is a query: its verb is SELECT.
    package var isQuery: Bool { verb == "SELECT" }

    /// The words that may follow a `WITH` clause.
    private static let mainVerbs: Set<String> = ["SELECT", "VALUES", "INSERT", "REPLACE", "UPDATE", "DELETE"]

    /// Reads `text`.
    package init(_ text: String) {
        self.text = text
        let tokens = Self.tokens(of: Array(text.utf8))
        let end = tokens.firstIndex { $0.kind == .semicolon } ?? tokens.endIndex
        let statement = tokens[..<end]
        let words = statement.filter { $0.kind == .word }
        firstWord = words.first?.word
        if firstWord == "WITH" {
            verb = words.dropFirst().first { $0.depth == 0 && Self.mainVerbs.contains($0.word) }?.word
        } else {
            verb = firstWord
        }
        let bytes = Array(text.utf8)
        secondStatement = tokens[end...].first { $0.kind != .semicolon }.map { String(decoding: bytes[$0.start...], as: UTF8.self) }
        isOrdered = zip(statement, statement.dropFirst()).contains { a, b in
            a.kind == .word && a.depth == 0 && a.word == "ORDER" && b.kind == .word && b.word == "BY"
        }
    }

    // MARK: Tokens

    /// One token: where it starts (a byte offset), its kind, its parenthesis depth, and for a word its upper-cased text.
    struct Token {
        enum Kind { case word, literal, semicolon, other }
        let start: Int
        let kind: Kind
        let depth: Int
        let word: String
    }

    /// The tokens of `bytes`, comments and white space left out.
    static func tokens(of bytes: [UInt8]) -> [Token] {
        var out: [Token] = []
        var i = 0, depth = 0
        let n = bytes.count
        /// The index after the closing `quote` (a doubled quote is part of the literal).
        func skipQuoted(from start: Int, closing quote: UInt8, doubles: Bool) -> Int {
            var j = start + 1
            while j < n {
                if bytes[j] == quote {
                    if doubles && j + 1 < n && bytes[j + 1] == quote {
                        j += 2
                        continue
                    }
                    return j + 1
                }
                j += 1
            }
            return n
        }
        while i < n {
            let c = bytes[i]
            switch c {
            case 0x20, 0x09, 0x0A, 0x0C, 0x0D:
                i += 1
            case UInt8(ascii: "-") where i + 1 < n && bytes[i + 1] == UInt8(ascii: "-"):
                while i < n && bytes[i] != 0x0A { i += 1 }
            case UInt8(ascii: "/") where i + 1 < n && bytes[i + 1] == UInt8(ascii: "*"):
                i += 2
                while i < n && !(bytes[i] == UInt8(ascii: "*") && i + 1 < n && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
                i = min(n, i + 2)
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
                out.append(Token(start: i, kind: .literal, depth: depth, word: ""))
                i = skipQuoted(from: i, closing: c, doubles: true)
            case UInt8(ascii: "["):
                out.append(Token(start: i, kind: .literal, depth: depth, word: ""))
                i = skipQuoted(from: i, closing: UInt8(ascii: "]"), doubles: false)
            case UInt8(ascii: ";"):
                out.append(Token(start: i, kind: .semicolon, depth: depth, word: ""))
                i += 1
            case UInt8(ascii: "("):
                out.append(Token(start: i, kind: .other, depth: depth, word: ""))
                depth += 1
                i += 1
            case UInt8(ascii: ")"):
                depth = max(0, depth - 1)
                out.append(Token(start: i, kind: .other, depth: depth, word: ""))
                i += 1
            default:
                guard Self.isWordByte(c) else {
                    out.append(Token(start: i, kind: .other, depth: depth, word: ""))
                    i += 1
                    continue
                }
                let start = i
                while i < n && Self.isWordByte(bytes[i]) { i += 1 }
                let word = String(decoding: bytes[start..<i], as: UTF8.self).uppercased()
                out.append(Token(start: start, kind: .word, depth: depth, word: word))
            }
        }
        return out
    }

    /// A byte of a word (a keyword, a name, a number): ASCII letters, digits, `_`, `$`, and
    /// every byte of a non-ASCII character, as SQLite's tokenizer counts them.
    private static func isWordByte(_ c: UInt8) -> Bool {
        (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || (0x30...0x39).contains(c) || c == UInt8(ascii: "_")
            || c == UInt8(ascii: "$") || c >= 0x80
    }
}
