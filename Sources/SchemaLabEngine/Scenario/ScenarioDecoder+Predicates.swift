import Foundation
import SchemaLabCoreData

extension ScenarioDecoder {
    /// A `propertiesToFetch` / `reduce` entry: a key path string, or `{"name", "function", "key"}`.
    static func property(_ n: JSONNode) throws -> PropertySpec {
        if case .string = n.value { return .keyPath(try keyPath(n)) }
        let o = try n.object(allowed: ScenarioKeys.expression)
        let f = AggregateFunction(rawValue: try o.required("function").choice(AggregateFunction.allCases.map(\.rawValue)))!
        return .expression(name: try o.required("name").identifier(), function: f, keyPath: try keyPath(o.required("key")))
    }

    /// A predicate string and its arguments; the syntax is checked when the plan compiles it.
    static func predicate(_ o: JSONObject, textKey: String, argumentsKey: String) throws -> PredicateSpec? {
        guard let t = o.optional(textKey) else { return nil }
        let text = try t.string()
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw t.error("the predicate is empty (leave the key out, or write TRUEPREDICATE)")
        }
        if let e = PredicateBounds.check(text) { throw t.error("column \(e.column): \(e.message)") }
        let args = try o.optional(argumentsKey)?.array().map(predicateArgument) ?? []
        return PredicateSpec(text: text, arguments: args, path: t.path)
    }

    /// One `%@` argument: a number, string, boolean, null, `{"date": "2014-10-01T00:00:00Z"}`, or an array of these.
    static func predicateArgument(_ n: JSONNode) throws -> PredicateValue {
        switch n.value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .number(let d, let literal):
            if !literal.contains("."), !literal.lowercased().contains("e"), let i = Int64(literal) { return .integer(i) }
            return .real(d)
        case .array: return .array(try n.array().map(predicateArgument))
        case .object:
            let o = try n.object(allowed: ScenarioKeys.objectArgument)
            let given = ScenarioKeys.objectArgument.filter(o.has)
            guard given.count == 1 else {
                throw n.error(
                    "an argument object has one key: date, uuid or base64 (found \(given.isEmpty ? "none" : given.joined(separator: ", ")))"
                )
            }
            switch given[0] {
            case "uuid":
                let node = try o.required("uuid")
                let text = try node.string()
                guard let bytes = BinaryText.uuidBytes(text) else {
                    throw node.error(
                        "expected a UUID as 8-4-4-4-12 hexadecimal digits (E621E1F8-C36C-495A-93FC-0C247A3E6E5F), found \"\(text)\"")
                }
                return .bytes(bytes)
            case "base64":
                let node = try o.required("base64")
                guard let data = Data(base64Encoded: try node.string()) else {
                    throw node.error(
                        "expected bytes in standard base64: A-Z, a-z, 0-9, + and /, padded with = to a multiple of 4, no spaces")
                }
                return .bytes([UInt8](data))
            default:
                return .date(try parseInstant(o.required("date")))
            }
        }
    }

    /// An ISO 8601 instant (`2014-10-01T00:00:00Z`, offsets and fractions of any length
    /// allowed, or a bare `YYYY-MM-DD` meaning midnight UTC) as seconds since 2001-01-01 UTC,
    /// every digit of the fraction kept (``CivilDate/instant(_:)``).
    static func parseInstant(_ n: JSONNode) throws -> Double {
        let s = try n.string()
        if s.count == 10 { return try parseDay(n) }
        guard let seconds = CivilDate.instant(s) else {
            throw n.error("expected a date as \"YYYY-MM-DD\" or ISO 8601 \"2014-10-01T00:00:00Z\", found \"\(s)\"")
        }
        return seconds
    }

    /// A key path: plain names joined by dots (`likes`, `meta.likes`).
    static func keyPath(_ n: JSONNode) throws -> String {
        let s = try n.string()
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 8, parts.allSatisfy({ Identifier.isPlainName(String($0)) }) else {
            throw n.error("'\(s)' is not a key path: plain names joined by dots, such as 'likes' or 'meta.likes'")
        }
        return s
    }
}
