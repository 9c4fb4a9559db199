import Foundation

/// Writes a `JSONValue` as indented JSON text, keys in their given order (so a written
/// scenario reads like a hand-written one: name, variants, data set, workloads). Arrays of
/// scalars stay on one line. Written by hand: Foundation's JSONSerialization takes a
/// dictionary and so cannot keep the order of keys.
package enum JSONWriter {
    package static func text(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: 0, into: &out)
        out += "\n"
        return out
    }

    private static func write(_ value: JSONValue, indent: Int, into out: inout String) {
        let pad = String(repeating: "  ", count: indent + 1), end = String(repeating: "  ", count: indent)
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(_, let literal): out += literal
        case .string(let s): out += quoted(s)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            if items.allSatisfy({ $0.isScalar || $0.isFlat }) {
                var line = "["
                for (i, v) in items.enumerated() {
                    if i > 0 { line += ", " }
                    write(v, indent: indent, into: &line)
                }
                line += "]"
                if items.allSatisfy(\.isScalar) || (!line.contains("\n") && line.count + indent * 2 <= 110) { out += line; return }
            }
            out += "[\n"
            for (i, v) in items.enumerated() {
                out += pad
                write(v, indent: indent + 1, into: &out)
                out += i < items.count - 1 ? ",\n" : "\n"
            }
            out += end + "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            // A small object of scalars (an attribute, a generator) reads best on one line.
            if members.allSatisfy({ $0.value.isScalar || $0.value.isFlat }) {
                var line = "{"
                for (i, m) in members.enumerated() {
                    if i > 0 { line += ", " }
                    line += quoted(m.key) + ": "
                    write(m.value, indent: indent, into: &line)
                }
                line += "}"
                if !line.contains("\n") && line.count + indent * 2 <= 110 { out += line; return }
            }
            out += "{\n"
            for (i, m) in members.enumerated() {
                out += pad + quoted(m.key) + ": "
                write(m.value, indent: indent + 1, into: &out)
                out += i < members.count - 1 ? ",\n" : "\n"
            }
            out += end + "}"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if u.value < 0x20 { out += String(format: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}

extension JSONValue {
    var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    /// An array or object of scalars (written on one line when it fits).
    var isFlat: Bool {
        switch self {
        case .array(let items): return items.allSatisfy(\.isScalar)
        case .object(let members): return members.allSatisfy { $0.value.isScalar || $0.value.isFlat }
        default: return false
        }
    }

    /// A number from an integer.
    package static func int(_ value: Int) -> JSONValue { .number(Double(value), literal: String(value)) }

    /// A number from a double, written the shortest way that reads back the same.
    package static func double(_ value: Double) -> JSONValue {
        if value == value.rounded(), abs(value) < 1e15 { return .number(value, literal: String(Int64(value))) }
        return .number(value, literal: "\(value)")
    }
}
