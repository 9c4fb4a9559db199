/// Parses the SELECT statements Core Data logs into ``LoggedSelect``, and tells the other
/// statements apart by their first words.
package struct LoggedSQLParser {
    /// A statement the parser does not read, with the reason.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }

    private var tokens: [LoggedSQLToken]
    private var position = 0
    private var parameters = 0
    /// How deep the expression being read sits: nested expressions (parentheses, `NOT`,
    /// subqueries, function arguments) and chained operators (`a OR b OR …`, each a level of
    /// the tree). Capped at ``maxDepth``: the parser, and everything that walks the tree it
    /// makes, recurses once per level, and a log with a statement nested thousands deep
    /// would overflow the stack.
    private var depth = 0

    /// SQLite's own limit (`SQLITE_MAX_EXPR_DEPTH`, 1000 by default): a statement nested
    /// deeper does not prepare, so no app ran it.
    static let maxDepth = 1000

    private init(tokens: [LoggedSQLToken]) { self.tokens = tokens }

    /// Parses one SELECT statement (the whole text).
    package static func select(_ sql: String) throws(Failure) -> LoggedSelect {
        let tokens: [LoggedSQLToken]
        do { tokens = try LoggedSQLLexer.tokens(sql) } catch { throw Failure(message: error.message) }
        var parser = LoggedSQLParser(tokens: tokens)
        let select = try parser.parseSelect()
        guard parser.position == parser.tokens.count else { throw Failure(message: "unexpected text after the statement: \(parser.rest)") }
        return select
    }

    private var rest: String { tokens[position...].prefix(6).map { "\($0)" }.joined(separator: " ") }
    private var current: LoggedSQLToken? { position < tokens.count ? tokens[position] : nil }

    private mutating func accept(_ keyword: String) -> Bool {
        guard current?.isWord(keyword) == true else { return false }
        position += 1
        return true
    }

    private mutating func accept(symbol: String) -> Bool {
        guard current == .symbol(symbol) else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ keyword: String) throws(Failure) {
        guard accept(keyword) else { throw Failure(message: "expected \(keyword) at \(rest)") }
    }

    private mutating func expect(symbol: String) throws(Failure) {
        guard accept(symbol: symbol) else { throw Failure(message: "expected '\(symbol)' at \(rest)") }
    }

    private mutating func name() throws(Failure) -> String {
        guard case .word(let w) = current else { throw Failure(message: "expected a name at \(rest)") }
        position += 1
        return w
    }

    private static let clauseWords: Set<String> = [
        "FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "JOIN", "LEFT", "INNER", "CROSS", "ON", "AND", "OR", "NOT",
        "IN", "IS", "BETWEEN", "ASC", "DESC", "COLLATE", "LIKE", "GLOB", "ESCAPE", "AS", "UNION",
    ]

    private mutating func parseSelect() throws(Failure) -> LoggedSelect {
        var s = LoggedSelect()
        try expect("SELECT")
        s.distinct = accept("DISTINCT")
        repeat {
            s.columns.append(try expression())
            // `COUNT(…) AS __var0`: the name Core Data gives an expression a HAVING reads.
            s.columnNames.append(accept("AS") ? try name() : nil)
        } while accept(symbol: ",")
        try expect("FROM")
        s.table = try name()
        if case .word(let w) = current, !Self.clauseWords.contains(w.uppercased()) { s.alias = try name() }
        while true {
            var outer = false
            if accept("LEFT") {
                _ = accept("OUTER")
                outer = true
            } else if accept("INNER") || accept("CROSS") {
            } else if current?.isWord("JOIN") != true {
                break
            }
            try expect("JOIN")
            let table = try name()
            let alias = try name()
            try expect("ON")
            let on = try comparison()
            guard case .binary(let op, let l, let r) = on, op == "=" else { throw Failure(message: "a join's ON is not an equality") }
            s.joins.append(.init(outer: outer, table: table, alias: alias, left: l, right: r))
        }
        if accept("WHERE") { s.whereClause = try expression() }
        if accept("GROUP") {
            try expect("BY")
            repeat { s.groupBy.append(try expression()) } while accept(symbol: ",")
        }
        if accept("HAVING") { s.having = try expression() }
        if accept("ORDER") {
            try expect("BY")
            repeat {
                let e = try additive()
                var collation: String?
                if accept("COLLATE") { collation = try name() }
                let descending = accept("DESC")
                if !descending { _ = accept("ASC") }
                s.orderBy.append(.init(expression: e, descending: descending, collation: collation))
            } while accept(symbol: ",")
        }
        if accept("LIMIT") { s.limit = try integerLiteral() }
        if accept("OFFSET") { s.offset = try integerLiteral() }
        return s
    }

    private mutating func integerLiteral() throws(Failure) -> Int {
        guard case .integer(let v) = current, let value = Int(exactly: v) else { throw Failure(message: "expected an integer at \(rest)") }
        position += 1
        return value
    }

    /// One level deeper (a nested expression, or a chain's next link), or a failure past ``maxDepth``.
    private mutating func descend() throws(Failure) {
        depth += 1
        guard depth <= Self.maxDepth else {
            throw Failure(message: "the statement nests expressions deeper than \(Self.maxDepth) levels, SQLite's limit")
        }
    }

    private mutating func expression() throws(Failure) -> LoggedExpression {
        try descend()
        defer { depth -= 1 }
        var left = try conjunction()
        var links = 0
        defer { depth -= links }
        while accept("OR") {
            try descend()
            links += 1
            left = .binary("OR", left, try conjunction())
        }
        return left
    }

    private mutating func conjunction() throws(Failure) -> LoggedExpression {
        var left = try negation()
        var links = 0
        defer { depth -= links }
        while accept("AND") {
            try descend()
            links += 1
            left = .binary("AND", left, try negation())
        }
        return left
    }

    private mutating func negation() throws(Failure) -> LoggedExpression {
        if accept("NOT") {
            try descend()
            defer { depth -= 1 }
            return .not(try negation())
        }
        return try comparison()
    }

    private mutating func comparison() throws(Failure) -> LoggedExpression {
        let left = try additive()
        if case .symbol(let op) = current, ["=", "==", "!=", "<>", "<", "<=", ">", ">="].contains(op) {
            position += 1
            return .binary(op, left, try additive())
        }
        if accept("IS") {
            let negated = accept("NOT")
            try expect("NULL")
            return .isNull(left, negated: negated)
        }
        let negated = accept("NOT")
        if accept("IN") {
            try expect(symbol: "(")
            if current?.isWord("SELECT") == true {
                let inner = try parseSelect()
                try expect(symbol: ")")
                return .inSelect(left, inner, negated: negated)
            }
            var items: [LoggedExpression] = []
            if !accept(symbol: ")") {
                repeat { items.append(try additive()) } while accept(symbol: ",")
                try expect(symbol: ")")
            }
            return .inList(left, items, negated: negated)
        }
        if accept("BETWEEN") {
            let low = try additive()
            try expect("AND")
            let result = LoggedExpression.between(left, low, try additive())
            return negated ? .not(result) : result
        }
        for op in ["LIKE", "GLOB"] where accept(op) {
            let result = LoggedExpression.binary(op, left, try additive())
            return negated ? .not(result) : result
        }
        if negated { throw Failure(message: "NOT in an unexpected place at \(rest)") }
        return left
    }

    private mutating func additive() throws(Failure) -> LoggedExpression {
        var left = try primary()
        var links = 0
        defer { depth -= links }
        while case .symbol(let op) = current, ["+", "-", "*", "/", "||"].contains(op) {
            position += 1
            try descend()
            links += 1
            left = .binary(op, left, try primary())
        }
        return left
    }

    private mutating func primary() throws(Failure) -> LoggedExpression {
        guard let token = current else { throw Failure(message: "the statement ends early") }
        position += 1
        switch token {
        case .parameter:
            parameters += 1
            return .parameter(parameters - 1)
        case .integer(let v): return .integer(v)
        case .real(let v): return .real(v)
        case .string(let s): return .string(s)
        case .symbol("*"): return .star
        case .symbol("-"):
            if case .integer(let v) = current {
                position += 1
                return .integer(-v)
            }
            if case .real(let v) = current {
                position += 1
                return .real(-v)
            }
            throw Failure(message: "a minus sign before \(rest)")
        case .symbol("("):
            if current?.isWord("SELECT") == true {
                let inner = try parseSelect()
                try expect(symbol: ")")
                return .subquery(inner)
            }
            let inner = try expression()
            try expect(symbol: ")")
            return .parenthesized(inner)
        case .word(let w):
            if w.uppercased() == "NULL" { return .null }
            if accept(symbol: ".") { return .column(alias: w, name: try name()) }
            if accept(symbol: "(") {
                if accept(symbol: ")") { return .function(w, [], distinct: false) }
                let distinct = accept("DISTINCT")
                var args: [LoggedExpression] = []
                repeat { args.append(try expression()) } while accept(symbol: ",")
                try expect(symbol: ")")
                return .function(w, args, distinct: distinct)
            }
            return .column(alias: nil, name: w)
        default:
            throw Failure(message: "unexpected \(token)")
        }
    }
}
