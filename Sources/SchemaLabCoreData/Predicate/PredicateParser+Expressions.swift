/// Expressions: arithmetic, key paths with their postfixes, literals and the built-in forms
/// (SUBQUERY, CAST, indexed:by:, aggregate literals).
extension PredicateParserState {
    /// Parses an expression, or returns nil (consuming nothing) when the current token cannot start one.
    mutating func expression() throws(PredicateError) -> PredicateExpression? {
        guard var left = try term() else { return nil }
        while true {
            splitNegativeNumber()
            guard case .symbol(let s) = current.kind, s == "+" || s == "-" else { return left }
            let op = advance()
            guard let right = try term() else { throw expected("a value", after: op) }
            left = try combine(ArithmeticOperator(rawValue: s)!, left, right, at: op)
        }
    }

    /// `a * b`, `a / b`.
    mutating func term() throws(PredicateError) -> PredicateExpression? {
        guard var left = try factor() else { return nil }
        while case .symbol(let s) = current.kind, s == "*" || s == "/" {
            let op = advance()
            guard let right = try factor() else { throw expected("a value", after: op) }
            left = try combine(ArithmeticOperator(rawValue: s)!, left, right, at: op)
        }
        return left
    }

    /// `a ** b` (right-associative).
    mutating func factor() throws(PredicateError) -> PredicateExpression? {
        guard let base = try unary() else { return nil }
        guard isSymbol("**") else { return base }
        let op = advance()
        guard let exponent = try factor() else { throw expected("a value", after: op) }
        return try combine(.power, base, exponent, at: op)
    }

    /// `-x`, read as `0 - x`.
    mutating func unary() throws(PredicateError) -> PredicateExpression? {
        guard isSymbol("-") else { return try postfixed() }
        let minus = advance()
        try enter(minus)
        defer { depth -= 1 }
        guard let operand = try unary() else { throw expected("a value", after: minus) }
        return try combine(.subtract, .constant(.integer(0), column: minus.column), operand, at: minus)
    }

    /// `likes -1` is lexed as `likes` and `-1`: after an operand, a signed number is a minus
    /// and a number. Replaces the token with the two.
    mutating func splitNegativeNumber() {
        let t = current
        guard t.text.hasPrefix("-") else { return }
        let positive: PredicateToken.Kind
        switch t.kind {
        case .integer(let v) where v != .min: positive = .integer(-v)
        case .real(let v): positive = .real(-v)
        default: return
        }
        tokens[position] = PredicateToken(kind: .symbol("-"), column: t.column, text: "-")
        tokens.insert(PredicateToken(kind: positive, column: t.column + 1, text: String(t.text.dropFirst())), at: position + 1)
    }

    /// An arithmetic node, folded when both sides are constants.
    func combine(
        _ op: ArithmeticOperator, _ left: PredicateExpression, _ right: PredicateExpression, at token: PredicateToken
    ) throws(PredicateError) -> PredicateExpression {
        if case .constant(let a, let column) = left, case .constant(let b, _) = right {
            guard let value = op.fold(a, b) else {
                throw PredicateError(
                    column: token.column, message: "'\(op.rawValue)' needs numbers or a date, not \(a.phrase) and \(b.phrase)")
            }
            return .constant(value, column: column)
        }
        for side in [left, right] {
            switch side {
            case .subquery: throw PredicateError(column: side.column, message: "a SUBQUERY is a collection: use SUBQUERY(...).@count")
            case .indexed: throw PredicateError(column: side.column, message: "indexed:by:(...) can only be the left side of BETWEEN")
            case .constant(let v, _):
                switch v {
                case .integer, .real, .date: break
                default:
                    throw PredicateError(column: side.column, message: "'\(op.rawValue)' needs numbers or a date, not \(v.phrase)")
                }
            default: break
            }
        }
        return .arithmetic(op, left, right, column: left.column)
    }

    /// A primary expression and its postfixes.
    mutating func postfixed() throws(PredicateError) -> PredicateExpression? {
        let t = current
        var expr: PredicateExpression
        switch t.kind {
        case .word(let w) where w.hasSuffix(":") && w.uppercased() != "INDEXED:BY:":
            return try postfix(try functionCall())
        case .word(let w):
            let upper = w.uppercased()
            if tokens[position + 1].kind == .punctuation("("), !["SUBQUERY", "CAST", "INDEXED:BY:"].contains(upper) {
                throw PredicateError(column: t.column, message: Self.unsupportedFunction(w))
            }
            switch upper {
            case "NIL", "NULL": expr = .constant(.null, column: t.column)
            case "TRUE", "YES": expr = .constant(.bool(true), column: t.column)
            case "FALSE", "NO": expr = .constant(.bool(false), column: t.column)
            case "SELF": expr = .keyPath(root: .object, components: [], column: t.column)
            case "SUBQUERY": return try postfix(try subquery())
            case "CAST": return try postfix(try cast())
            case "INDEXED:BY:": return try indexedBy()
            case "FIRST", "LAST", "SIZE", "ANYKEY", "CASEINSENSITIVE", "CI", "FETCH":
                throw PredicateError(column: t.column, message: "'\(w)' is a reserved word: write #\(w) for a key of that name")
            case let reserved where PredicateParser.reservedWords.contains(reserved): return nil
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
                expr = .keyPath(root: .object, components: try keyPathComponents(value, at: t), column: t.column)
            } else {
                expr = .constant(value, column: t.column)
            }
        case .punctuation("{"): return try postfix(try arrayLiteral())
        case .punctuation("("):
            let open = advance()
            try enter(open)
            defer { depth -= 1 }
            guard let inner = try expression() else { throw expected("an expression", after: open) }
            guard isPunctuation(")") else { throw expected("')' to close the '(' at column \(open.column)", after: nil) }
            _ = advance()
            return try postfix(inner)
        default: return nil
        }
        _ = advance()
        return try postfix(expr)
    }

    /// `sum:({1, 2})`, `modulus:by:(age, 2)`, `count:(pets)`: a function in Apple's spelling.
    /// Those Core Data's SQL store translates are folded on constants (`sum:`, `count:`, `min:`,
    /// `max:`, `average:`, `abs:` and the arithmetic ones) or compiled (`add:to:`,
    /// `from:subtract:`, `multiply:by:`, `divide:by:`, `modulus:by:` as `(a op b)`; `count:` of a
    /// to-many as its @count); the others are refused with Core Data's reason.
    mutating func functionCall() throws(PredicateError) -> PredicateExpression {
        let nameToken = advance()
        guard case .word(let name) = nameToken.kind else { preconditionFailure() }
        guard isPunctuation("(") else { throw expected("'(' after the function name", after: nameToken) }
        let open = advance()
        try enter(open)
        defer { depth -= 1 }
        var arguments: [PredicateExpression] = []
        if !isPunctuation(")") {
            while true {
                guard let e = try expression() else { throw expected("an argument", after: tokens[position - 1]) }
                arguments.append(e)
                if isPunctuation(",") { _ = advance(); continue }
                break
            }
        }
        guard isPunctuation(")") else { throw expected("')' to close \(name)( at column \(nameToken.column)", after: nil) }
        _ = advance()
        let column = nameToken.column
        let binary: [String: ArithmeticOperator] = [
            "add:to:": .add, "from:subtract:": .subtract, "multiply:by:": .multiply, "divide:by:": .divide, "modulus:by:": .modulus,
        ]
        let unsupported = PredicateError(
            column: column,
            message: "\(name)(...) is not supported: Core Data's SQL store refuses it (\"Unsupported function type passed to SQL store\")")
        if let op = binary[name] {
            guard arguments.count == 2 else {
                throw PredicateError(column: column, message: "\(name) takes 2 arguments, not \(arguments.count)")
            }
            return try combine(op, arguments[0], arguments[1], at: nameToken)
        }
        let aggregates: [String: CollectionFunction] = ["sum:": .sum, "count:": .count, "min:": .min, "max:": .max, "average:": .avg]
        if let f = aggregates[name] {
            let constants = arguments.compactMap { if case .constant(let v, _) = $0 { v } else { nil } }
            if constants.count == arguments.count {
                let elements: [PredicateValue]
                if constants.count == 1, case .array(let a) = constants[0] { elements = a } else { elements = constants }
                guard let folded = f.fold(elements) else {
                    throw PredicateError(column: column, message: "\(name) needs numbers")
                }
                return .constant(folded, column: column)
            }
            if f == .count, arguments.count == 1 {
                return .aggregate(.count, collection: arguments[0], keyPath: [], column: column)
            }
            throw unsupported
        }
        if name == "abs:", arguments.count == 1, case .constant(let v, _) = arguments[0], let n = v.number, !v.isDate {
            if case .integer(let i) = v, i != .min { return .constant(.integer(Swift.abs(i)), column: column) }
            return .constant(.real(Swift.abs(n)), column: column)
        }
        if ["abs:", "uppercase:", "lowercase:", "length:"].contains(name) {
            throw PredicateError(
                column: column, message: "\(name)(...) of a key path is not supported by the lab (Core Data's SQL store translates it)")
        }
        throw unsupported
    }

    /// The message for `name(...)`. Core Data's SQL store refuses `FUNCTION(...)` (a method call)
    /// outright; of the built-in functions it translates a few (abs:, uppercase:, lowercase:,
    /// now()), which the lab does not parse.
    static func unsupportedFunction(_ name: String) -> String {
        if name.uppercased() == "FUNCTION" {
            return "FUNCTION(...) is not supported: Core Data's SQL store refuses it (\"Unsupported function expression FUNCTION(...)\")"
        }
        return "the function \(name)() is not supported by the lab: write the comparison with key paths, constants and + - * /"
    }

    /// The key path segments a `%K` argument names: a string of dotted names.
    func keyPathComponents(_ value: PredicateValue, at t: PredicateToken) throws(PredicateError) -> [String] {
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
        return parts
    }

    /// `.name`, `.%K`, `.@count`, `.@avg.key`, `[SIZE]` after an expression.
    mutating func postfix(_ start: PredicateExpression) throws(PredicateError) -> PredicateExpression {
        var expr = start
        while isPunctuation(".") || isPunctuation("[") {
            if isPunctuation("[") {
                expr = try index(expr)
                continue
            }
            let dot = advance()
            let t = current
            switch (t.kind, expr) {
            case (.word(let w), .keyPath(let root, let comps, let c)), (.escapedWord(let w), .keyPath(let root, let comps, let c)):
                _ = advance()
                expr = .keyPath(root: root, components: comps + [w], column: c)
            case (.format("K", let pos), .keyPath(let root, let comps, let c)):
                _ = advance()
                expr = .keyPath(root: root, components: comps + (try keyPathComponents(try argument(t, position: pos), at: t)), column: c)
            case (.aggregate(let name), .keyPath), (.aggregate(let name), .subquery), (.aggregate(let name), .constant(.array, _)):
                _ = advance()
                guard let f = CollectionFunction(rawValue: "@" + name.lowercased()) else {
                    throw PredicateError(
                        column: t.column,
                        message:
                            "'@\(name)' is not supported: Core Data's SQL store refuses it (\"Unsupported KVC aggregate in keypath\"); use @count, @avg, @sum, @min or @max"
                    )
                }
                if case .constant(.array(let elements), let c) = expr {
                    guard let folded = f.fold(elements) else {
                        throw PredicateError(column: t.column, message: "@\(name) of an array literal needs numbers")
                    }
                    expr = .constant(folded, column: c)
                    continue
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
                        case .format("K", let pos):
                            let k = advance()
                            keyPath += try keyPathComponents(try argument(k, position: pos), at: k)
                        default: throw expected("a key", after: d)
                        }
                    }
                }
                return .aggregate(f, collection: expr, keyPath: keyPath, column: expr.column)
            case (.word, _), (.escapedWord, _), (.aggregate, _), (.format("K", _), _):
                throw PredicateError(column: dot.column, message: "'.' can only follow a key path")
            default:
                throw expected("a key or a collection operator", after: dot)
            }
        }
        return expr
    }

    /// `[FIRST]`, `[LAST]`, `[SIZE]`, `[n]`: folded on an array literal; `[SIZE]` of a to-many
    /// key path is its `@count`; other indexes into a relationship have no SQL.
    mutating func index(_ expr: PredicateExpression) throws(PredicateError) -> PredicateExpression {
        let open = advance()
        let t = current
        enum Selector { case first, last, size, position(Int64) }
        let selector: Selector
        switch t.kind {
        case .word(let w) where w.uppercased() == "FIRST": selector = .first
        case .word(let w) where w.uppercased() == "LAST": selector = .last
        case .word(let w) where w.uppercased() == "SIZE": selector = .size
        case .integer(let n): selector = .position(n)
        default: throw expected("FIRST, LAST, SIZE or an integer index", after: open)
        }
        _ = advance()
        guard isPunctuation("]") else { throw expected("']'", after: t) }
        _ = advance()
        switch (expr, selector) {
        case (.constant(.array(let elements), let c), _):
            switch selector {
            case .size: return .constant(.integer(Int64(elements.count)), column: c)
            case .first: return .constant(elements.first ?? .null, column: c)
            case .last: return .constant(elements.last ?? .null, column: c)
            case .position(let n):
                guard n >= 0, n < elements.count else {
                    throw PredicateError(column: t.column, message: "index \(n) is outside the array of \(elements.count)")
                }
                return .constant(elements[Int(n)], column: c)
            }
        case (.keyPath, .size), (.subquery, .size):
            return .aggregate(.count, collection: expr, keyPath: [], column: expr.column)
        case (.keyPath, _), (.subquery, _):
            throw PredicateError(
                column: open.column,
                message:
                    "[\(t.text.uppercased())] of a relationship is not supported: Core Data's SQL store refuses it (\"Unsupported function type passed to SQL store\"); [SIZE] is its @count"
            )
        default:
            throw PredicateError(column: open.column, message: "[\(t.text)] needs an array or a to-many key path before it")
        }
    }

    mutating func subquery() throws(PredicateError) -> PredicateExpression {
        let keywordToken = advance()
        try enter(keywordToken)
        defer { depth -= 1 }
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
        return .subquery(collection: collection, variable: v, predicate: p, column: keywordToken.column)
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

    /// `CAST(436492800, 'NSDate')` (a date literal as NSPredicate prints one, seconds since
    /// 2001), `CAST('5', 'NSNumber')`, `CAST(5, 'NSString')`: casts of constants, folded.
    mutating func cast() throws(PredicateError) -> PredicateExpression {
        let keywordToken = advance()
        guard isPunctuation("(") else { throw expected("'('", after: keywordToken) }
        let open = advance()
        let valueToken = current
        guard let value = try expression() else { throw expected("a value", after: open) }
        guard isPunctuation(",") else { throw expected("','", after: tokens[position - 1]) }
        let comma = advance()
        guard case .string(let type) = current.kind else { throw expected("a type name string like 'NSDate'", after: comma) }
        let typeToken = advance()
        guard isPunctuation(")") else { throw expected("')' to close CAST at column \(keywordToken.column)", after: nil) }
        _ = advance()
        guard case .constant(let constant, _) = value else {
            throw PredicateError(
                column: valueToken.column, message: "CAST of a key path is not supported: Core Data's SQL store casts constants only")
        }
        guard let cast = constant.cast(to: type) else {
            if !["NSDate", "NSNumber", "NSString"].contains(type) {
                throw PredicateError(
                    column: typeToken.column, message: "CAST to '\(type)' is not supported (use 'NSDate', 'NSNumber' or 'NSString')")
            }
            throw PredicateError(column: valueToken.column, message: "CAST cannot make \(constant.phrase) into '\(type)'")
        }
        return .constant(cast, column: keywordToken.column)
    }

    /// `{1, 'a', nil, {2, 3}}`: the elements must be constants (nested arrays and nil included).
    mutating func arrayLiteral() throws(PredicateError) -> PredicateExpression {
        let open = advance()
        try enter(open)
        defer { depth -= 1 }
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
}
