@testable import SchemaLabEngine

/// A JSON tree the fuzzer can edit and print back: numbers keep their literal text
/// (so `-0`, `1e999` and `9223372036854775808` reach the parser as written), objects
/// keep their order and may hold a key twice, and `raw` is text printed as is
/// (deep nesting, bad escapes) that no well-formed tree could produce.
enum FuzzJSON: Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([FuzzJSON])
    case object([(key: String, value: FuzzJSON)])
    case raw(String)

    /// One step down the tree: the n-th member of an object or element of an array.
    enum Step: Equatable, Sendable { case member(Int), element(Int) }

    /// The tree of a parsed document.
    init(_ v: JSONValue) {
        switch v {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(_, let literal): self = .number(literal)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(FuzzJSON.init))
        case .object(let members): self = .object(members.map { ($0.key, FuzzJSON($0.value)) })
        }
    }

    /// Every node with its path, the root (`[]`) first, in document order.
    var nodes: [(path: [Step], node: FuzzJSON)] {
        var out: [(path: [Step], node: FuzzJSON)] = []
        func walk(_ v: FuzzJSON, _ path: [Step]) {
            out.append((path, v))
            switch v {
            case .array(let items): for (i, x) in items.enumerated() { walk(x, path + [.element(i)]) }
            case .object(let members): for (i, m) in members.enumerated() { walk(m.value, path + [.member(i)]) }
            default: break
            }
        }
        walk(self, [])
        return out
    }

    /// The node at `path` (nil when the path no longer exists).
    func node(at path: ArraySlice<Step>) -> FuzzJSON? {
        guard let first = path.first else { return self }
        switch (self, first) {
        case (.array(let items), .element(let i)) where i < items.count: return items[i].node(at: path.dropFirst())
        case (.object(let members), .member(let i)) where i < members.count: return members[i].value.node(at: path.dropFirst())
        default: return nil
        }
    }

    /// Replaces the node at `path` (nothing happens when the path no longer exists).
    mutating func replace(at path: ArraySlice<Step>, with new: FuzzJSON) {
        guard let first = path.first else { self = new; return }
        switch (self, first) {
        case (.array(var items), .element(let i)) where i < items.count:
            items[i].replace(at: path.dropFirst(), with: new)
            self = .array(items)
        case (.object(var members), .member(let i)) where i < members.count:
            members[i].value.replace(at: path.dropFirst(), with: new)
            self = .object(members)
        default: break
        }
    }

    /// The key of the member at the end of `path`, when its last step is a member.
    func key(at path: [Step]) -> String? {
        guard case .member(let i) = path.last, case .object(let members) = node(at: path.dropLast()[...]),
            i < members.count
        else { return nil }
        return members[i].key
    }

    /// The member `key` of an object.
    subscript(key: String) -> FuzzJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// Compact JSON text.
    var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let literal): out += literal
        case .string(let s): Self.quote(s, into: &out)
        case .raw(let r): out += r
        case .array(let items):
            out += "["
            for (i, x) in items.enumerated() {
                if i > 0 { out += "," }
                x.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, m) in members.enumerated() {
                if i > 0 { out += "," }
                Self.quote(m.key, into: &out)
                out += ":"
                m.value.write(to: &out)
            }
            out += "}"
        }
    }

    static func quote(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}
