/// A JSON value together with its file and JSON path: the cursor the scenario
/// decoder walks with, so that every error it throws says where.
package struct JSONNode: Sendable {
    package let value: JSONValue
    package let file: String
    package let path: String

    package init(value: JSONValue, file: String, path: String = "$") {
        self.value = value
        self.file = file
        self.path = path
    }

    /// An error at this node.
    package func error(_ message: String) -> ScenarioError {
        ScenarioError(file: file, path: path, message: message)
    }

    func child(_ key: String, _ value: JSONValue) -> JSONNode {
        JSONNode(value: value, file: file, path: path + "." + key)
    }

    func element(_ index: Int, _ value: JSONValue) -> JSONNode {
        JSONNode(value: value, file: file, path: path + "[\(index)]")
    }

    // MARK: Scalars

    package func string() throws -> String {
        guard case .string(let s) = value else { throw error("expected a string, found \(value.typeName)") }
        return s
    }

    package func bool() throws -> Bool {
        guard case .bool(let b) = value else { throw error("expected true or false, found \(value.typeName)") }
        return b
    }

    /// A finite number: a literal too large for a Double (`1e999`) is refused, not read as infinity.
    package func double() throws -> Double {
        guard case .number(let d, let literal) = value else { throw error("expected a number, found \(value.typeName)") }
        guard d.isFinite else { throw error("expected a finite number, found \(literal)") }
        return d
    }

    package func int() throws -> Int {
        guard case .number(let d, let literal) = value else { throw error("expected an integer, found \(value.typeName)") }
        guard d.rounded() == d, abs(d) < 9.0e15, !literal.contains(".") else {
            throw error("expected an integer, found \(literal)")
        }
        return Int(d)
    }

    /// An integer that must lie in `range`.
    package func int(in range: ClosedRange<Int>) throws -> Int {
        let v = try int()
        guard range.contains(v) else { throw error("\(v) is out of range: expected \(range.lowerBound)...\(range.upperBound)") }
        return v
    }

    /// A string that must be one of `choices`.
    package func choice(_ choices: [String]) throws -> String {
        let s = try string()
        guard choices.contains(s) else {
            throw error("unknown value '\(s)': expected one of \(choices.joined(separator: ", "))")
        }
        return s
    }

    /// A string that is a plain name (see `Identifier`): safe to become part of SQL.
    package func identifier() throws -> String {
        let s = try string()
        guard Identifier.isPlainName(s) else {
            throw error("'\(s)' is not a plain name: use a letter then letters, digits or '_' (at most \(Identifier.maxLength) characters)")
        }
        return s
    }

    /// A label (variant, workload, scenario name): letters, digits and `+ - _ .`.
    package func label() throws -> String {
        let s = try string()
        guard Identifier.isLabel(s) else {
            throw error("'\(s)' is not a valid name: use letters, digits and + - _ . (at most \(Identifier.maxLength) characters)")
        }
        return s
    }

    // MARK: Containers

    package func array() throws -> [JSONNode] {
        guard case .array(let items) = value else { throw error("expected an array, found \(value.typeName)") }
        return items.enumerated().map { element($0.offset, $0.element) }
    }

    /// A non-empty array.
    package func nonEmptyArray() throws -> [JSONNode] {
        let a = try array()
        guard !a.isEmpty else { throw error("expected at least one element") }
        return a
    }

    /// An object whose keys must all be in `allowed`.
    package func object(allowed: [String]) throws -> JSONObject {
        guard case .object(let members) = value else { throw error("expected an object, found \(value.typeName)") }
        for m in members where !allowed.contains(m.key) {
            throw child(m.key, m.value).error("unknown key '\(m.key)': expected one of \(allowed.joined(separator: ", "))")
        }
        return JSONObject(node: self, members: members)
    }
}

/// An object being decoded: look up required and optional members by key.
package struct JSONObject: Sendable {
    package let node: JSONNode
    let members: [(key: String, value: JSONValue)]

    package func has(_ key: String) -> Bool { members.contains { $0.key == key } }

    /// The member `key`, or nil when absent (an explicit `null` counts as absent).
    package func optional(_ key: String) -> JSONNode? {
        guard let m = members.first(where: { $0.key == key }) else { return nil }
        if case .null = m.value { return nil }
        return node.child(key, m.value)
    }

    /// The member `key`; an error naming the object when it is missing.
    package func required(_ key: String) throws -> JSONNode {
        guard let n = optional(key) else { throw node.error("missing required key '\(key)'") }
        return n
    }
}
