/// A JSON value as `JSONParser` reads it and `JSONWriter` writes it: an object keeps
/// its keys in order, a number keeps its literal (so `1` and `1.0` stay apart), and `true`
/// is not `1`.
package indirect enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double, literal: String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// A short name of the value's type, for error messages.
    package var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension JSONValue {
    /// An object's value for `key` (the first, keys being unique); nil for a missing key or a non-object.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// This object with `key` set to `value`: in place when the key exists, else appended
    /// (so the written text keeps the keys' order). A non-object is returned unchanged.
    package func setting(_ key: String, to value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append((key, value))
        }
        return .object(members)
    }

    /// The elements of an array; nil for another value.
    package var arrayElements: [JSONValue]? {
        guard case .array(let items) = self else { return nil }
        return items
    }

    /// The text of a string; nil for another value.
    package var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }
}
