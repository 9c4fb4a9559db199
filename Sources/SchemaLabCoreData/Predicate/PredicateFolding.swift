import Foundation

/// Constant folding: what NSExpression computes for constant operands, done once by the
/// parser so that the SQL binds the result (`likes > 2 * 3` binds 6).
extension ArithmeticOperator {
    /// The result of `left op right` for numbers (a date plus or minus seconds is a date);
    /// nil for other operands. Integers stay integers unless they overflow; `/` and `**`
    /// give doubles, as NSExpression's `divide:by:` and `raise:toPower:` do.
    func fold(_ left: PredicateValue, _ right: PredicateValue) -> PredicateValue? {
        if case .date(let d) = left, let seconds = right.number, self == .add || self == .subtract {
            return .date(self == .add ? d + seconds : d - seconds)
        }
        if case .integer(let a) = left, case .integer(let b) = right {
            switch self {
            case .add:
                let (v, overflow) = a.addingReportingOverflow(b)
                if !overflow { return .integer(v) }
            case .subtract:
                let (v, overflow) = a.subtractingReportingOverflow(b)
                if !overflow { return .integer(v) }
            case .multiply:
                let (v, overflow) = a.multipliedReportingOverflow(by: b)
                if !overflow { return .integer(v) }
            case .modulus:
                if b != 0 && !(a == .min && b == -1) { return .integer(a % b) }
            case .divide, .power: break
            }
        }
        guard let a = left.number, let b = right.number, !left.isDate, !right.isDate else { return nil }
        switch self {
        case .add: return .real(a + b)
        case .subtract: return .real(a - b)
        case .multiply: return .real(a * b)
        case .divide: return .real(a / b)
        case .power: return .real(Foundation.pow(a, b))
        case .modulus: return .real(fmod(a, b))
        }
    }
}

extension CollectionFunction {
    /// `{1, 2, 3}.@count` and the other collection operators over an array literal of numbers.
    func fold(_ elements: [PredicateValue]) -> PredicateValue? {
        if self == .count { return .integer(Int64(elements.count)) }
        let numbers = elements.compactMap(\.number)
        guard numbers.count == elements.count else { return nil }
        let allIntegers = elements.allSatisfy { if case .integer = $0 { true } else { false } }
        switch self {
        case .count: return nil
        case .sum:
            if allIntegers {
                var total: Int64 = 0
                for case .integer(let v) in elements {
                    let (s, overflow) = total.addingReportingOverflow(v)
                    if overflow { return .real(numbers.reduce(0, +)) }
                    total = s
                }
                return .integer(total)
            }
            return .real(numbers.reduce(0, +))
        case .avg: return numbers.isEmpty ? .null : .real(numbers.reduce(0, +) / Double(numbers.count))
        case .min: return numbers.isEmpty ? .null : elements[numbers.indices.min { numbers[$0] < numbers[$1] }!]
        case .max: return numbers.isEmpty ? .null : elements[numbers.indices.max { numbers[$0] < numbers[$1] }!]
        }
    }
}

extension PredicateValue {
    /// The value as a Double when it is a number, a boolean or a date.
    var number: Double? {
        switch self {
        case .integer(let v): return Double(v)
        case .real(let v): return v
        case .bool(let b): return b ? 1 : 0
        case .date(let d): return d
        default: return nil
        }
    }

    var isDate: Bool {
        if case .date = self { return true }
        return false
    }

    /// `CAST(value, 'type')` for a constant: 'NSDate' from seconds since 2001, 'NSNumber' from a
    /// number or a numeric string, 'NSString' from a string or a number. Nil when it does not convert.
    func cast(to type: String) -> PredicateValue? {
        switch (type, self) {
        case ("NSDate", .integer(let v)): return .date(Double(v))
        case ("NSDate", .real(let v)): return .date(v)
        case ("NSDate", .date): return self
        case ("NSNumber", .integer), ("NSNumber", .real), ("NSNumber", .bool): return self
        case ("NSNumber", .date(let d)): return .real(d)
        case ("NSNumber", .string(let s)):
            let trimmed = s.trimmingCharacters(in: .whitespaces)
            if let i = Int64(trimmed) { return .integer(i) }
            if let d = Double(trimmed), d.isFinite { return .real(d) }
            return nil
        case ("NSString", .string): return self
        case ("NSString", .integer(let v)): return .string(String(v))
        case ("NSString", .real(let v)): return .string(v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v))
        default: return nil
        }
    }
}
