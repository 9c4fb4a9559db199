/// A statement's shape: its SQL as tokens, whitespace not counted, with any `IN (?, ?, …)`
/// list of markers written `(?,…)` (its length follows the data). Two runs of one request
/// with other values have one shape; the log import groups by it, and the fidelity suite and
/// the import's round trip compare statements by it.
package enum StatementShape {
    /// The shape of `sql`: `COUNT( t1.Z_PK)` and `COUNT(t1.Z_PK)` are one, `WHERE  t0.` and
    /// `WHERE t0.` are one, a trailing `;` is dropped.
    package static func of(_ sql: String) -> String {
        var text = Substring(sql)
        while let last = text.last, last.isWhitespace || last == ";" { text = text.dropLast() }
        var tokens: [String] = []
        var current = ""
        func flush() {
            if !current.isEmpty { tokens.append(current) }
            current = ""
        }
        for ch in text {
            if ch.isWhitespace {
                flush()
            } else if ch == "(" || ch == ")" || ch == "," {
                flush()
                tokens.append(String(ch))
            } else {
                current.append(ch)
            }
        }
        flush()
        // IN lists of markers: "( ? , ? , ? )" -> "(?,…)".
        var out: [String] = []
        var index = 0
        while index < tokens.count {
            if tokens[index] == "(", index + 2 < tokens.count, tokens[index + 1] == "?" {
                var end = index + 2
                while end + 1 < tokens.count, tokens[end] == ",", tokens[end + 1] == "?" { end += 2 }
                if end < tokens.count, tokens[end] == ")" {
                    out.append("(?,…)")
                    index = end + 1
                    continue
                }
            }
            out.append(tokens[index])
            index += 1
        }
        return out.joined(separator: " ")
    }
}
