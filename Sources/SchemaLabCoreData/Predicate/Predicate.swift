/// A parsed NSPredicate: the tree `PredicateParser` builds from a format string and
/// `PredicateCompiler` turns into SQL. Every node keeps the 1-based column (in
/// Characters) where it starts in the predicate string, so a later error can point at it.
///
/// Outside this module, a file that also imports Foundation (which has a `Predicate` of its
/// own) writes `SchemaLab.Predicate`.
package indirect enum Predicate: Sendable, Equatable {
    /// `TRUEPREDICATE`
    case truePredicate(column: Int)
    /// `FALSEPREDICATE`
    case falsePredicate(column: Int)
    /// `left op right`, possibly with ANY/ALL/NONE and [c]/[d]/[n] options.
    case comparison(PredicateComparison)
    /// `a AND b` / `a && b`; `column` is the operator's (negated when the compound was written
    /// in parentheses: see ``isParenthesized``).
    case and(Predicate, Predicate, column: Int)
    /// `a OR b` / `a || b`; `column` as for `and`.
    case or(Predicate, Predicate, column: Int)
    /// `NOT a` / `!a`; `column` is the operator's.
    case not(Predicate, column: Int)

    /// Where the node starts (for compounds: the operator).
    package var column: Int {
        switch self {
        case .truePredicate(let c), .falsePredicate(let c): return c
        case .comparison(let c): return c.column
        case .and(_, _, let c), .or(_, _, let c), .not(_, let c): return abs(c)
        }
    }

    /// True for an AND or OR the text wrote in parentheses. A chain `a AND b AND c` is one
    /// compound of three, which Core Data writes as one group, `(a AND b AND c)`, while
    /// `(a AND b) AND c` is a compound inside a compound, written `((a AND b) AND c)` (as
    /// SwiftData's `a && b && c` is logged). The parser marks the inner compound by negating
    /// its operator's column.
    package var isParenthesized: Bool {
        switch self {
        case .and(_, _, let c), .or(_, _, let c): return c < 0
        default: return false
        }
    }

    /// This compound marked as written in parentheses (other predicates unchanged).
    package var parenthesized: Predicate {
        switch self {
        case .and(let a, let b, let c): return .and(a, b, column: -abs(c))
        case .or(let a, let b, let c): return .or(a, b, column: -abs(c))
        default: return self
        }
    }
}

/// The operators of a comparison predicate.
package enum ComparisonOperator: String, Sendable, Equatable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case between = "BETWEEN"
    case `in` = "IN"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
    case matches = "MATCHES"

    /// The operator with its operands swapped (`5 < x` is `x > 5`); nil when it has no mirror.
    package var mirrored: ComparisonOperator? {
        switch self {
        case .equal, .notEqual: return self
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        default: return nil
        }
    }

    /// BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES.
    package var isStringOperator: Bool {
        [.beginsWith, .endsWith, .contains, .like, .matches].contains(self)
    }
}

/// ANY/SOME, ALL, NONE in front of a comparison (`direct` when absent).
package enum ComparisonQuantifier: String, Sendable, Equatable {
    case direct = ""
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
}

/// The `[c]`, `[d]`, `[n]` modifiers of a string comparison.
package struct ComparisonOptions: OptionSet, Sendable, Equatable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    /// `[c]`
    package static let caseInsensitive = ComparisonOptions(rawValue: 1)
    /// `[d]`
    package static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
    /// `[n]`
    package static let normalized = ComparisonOptions(rawValue: 4)
    /// `[l]`, locale-sensitive (NSLocaleSensitivePredicateOption, 8): what SwiftData's
    /// `localizedStandardContains` sets, with `[c]` and `[d]` (`CONTAINS[cdl]`).
    package static let localeSensitive = ComparisonOptions(rawValue: 8)
}

/// `left op[options] right`, with an optional quantifier.
package struct PredicateComparison: Sendable, Equatable {
    /// ANY/SOME, ALL, NONE, or `.direct`.
    package var quantifier: ComparisonQuantifier
    /// The side before the operator.
    package var left: PredicateExpression
    /// The operator (`=`, `<>`, `=<`, `=>` are stored as `==`, `!=`, `<=`, `>=`).
    package var op: ComparisonOperator
    /// `[c]`, `[d]`, `[cd]`, `[n]`.
    package var options: ComparisonOptions
    /// The side after the operator.
    package var right: PredicateExpression
    /// Where the comparison starts (the quantifier if any, else the left side).
    package var column: Int
    /// Where the operator is.
    package var operatorColumn: Int
    /// True when the compiler swapped the sides to put the key path on the left (`100 < likes`
    /// read as `likes > 100`): the SQL is written back in the order of the text, `? < t0.ZLIKES`.
    package var swapped = false

    /// A comparison; `column` is where it starts, `operatorColumn` where its operator is.
    package init(
        quantifier: ComparisonQuantifier = .direct, left: PredicateExpression, op: ComparisonOperator,
        options: ComparisonOptions = [], right: PredicateExpression, column: Int, operatorColumn: Int
    ) {
        self.quantifier = quantifier
        self.left = left
        self.op = op
        self.options = options
        self.right = right
        self.column = column
        self.operatorColumn = operatorColumn
    }
}

/// The collection functions after a to-many key path (`books.@count`, `books.@avg.price`).
package enum CollectionFunction: String, Sendable, Equatable, CaseIterable {
    case count = "@count"
    case avg = "@avg"
    case sum = "@sum"
    case min = "@min"
    case max = "@max"
}

/// The binary operators of Apple's expression grammar: `+`, `-`, `*`, `/`, `**`.
package enum ArithmeticOperator: String, Sendable, Equatable, CaseIterable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case power = "**"
    /// `modulus:by:(a, b)` (the format syntax has no `%` operator; `%` starts an argument).
    case modulus = "%"
}

/// Where a key path starts: the evaluated object (implicit, or `SELF`) or a `$variable`.
package enum KeyPathRoot: Sendable, Equatable {
    case object
    case variable(String)
}

/// One side of a comparison.
package indirect enum PredicateExpression: Sendable, Equatable {
    /// A literal or a substituted `%@`. Array literals `{1, 2}` are `.array` constants.
    case constant(PredicateValue, column: Int)
    /// `likes`, `author.name`, `SELF` (no components), `$b.year`, `$b`.
    case keyPath(root: KeyPathRoot, components: [String], column: Int)
    /// `books.@count`, `books.@avg.price`, `SUBQUERY(...).@count`: `function` over the
    /// elements of `collection`, reading `keyPath` on each (empty for @count).
    case aggregate(CollectionFunction, collection: PredicateExpression, keyPath: [String], column: Int)
    /// `SUBQUERY(collection, $variable, predicate)`: the elements of `collection` that match.
    case subquery(collection: PredicateExpression, variable: String, predicate: Predicate, column: Int)
    /// `indexed:by:(latitude, "byLocation")`: the key path, answered through the named R-tree
    /// fetch index (the left side of a BETWEEN).
    case indexed(PredicateExpression, index: String, column: Int)
    /// `likes + 1`, `price * quantity`, `-likes` (as `0 - likes`): arithmetic on two
    /// expressions; `column` is the left operand's.
    case arithmetic(ArithmeticOperator, PredicateExpression, PredicateExpression, column: Int)

    /// Where the expression starts.
    package var column: Int {
        switch self {
        case .constant(_, let c), .keyPath(_, _, let c), .aggregate(_, _, _, let c), .subquery(_, _, _, let c),
            .indexed(_, _, let c), .arithmetic(_, _, _, let c):
            return c
        }
    }

    /// The key path as written (`author.name`, `SELF`, `$b.year`), nil for other expressions.
    package var keyPathText: String? {
        guard case .keyPath(let root, let components, _) = self else { return nil }
        var parts = components
        switch root {
        case .object: if parts.isEmpty { parts = ["SELF"] }
        case .variable(let v): parts.insert("$" + v, at: 0)
        }
        return parts.joined(separator: ".")
    }
}
