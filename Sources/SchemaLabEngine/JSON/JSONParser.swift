/// A JSON syntax error with its position (1-based line and column).
package struct JSONSyntaxError: Error, Sendable {
    package let line: Int
    package let column: Int
    package let message: String
}

/// Parses JSON text into a `JSONValue`.
///
/// Our own small parser (RFC 8259) instead of `JSONSerialization`: it keeps object key
/// order, tells `true` from `1`, rejects duplicate keys, and reports syntax errors with a
/// line and column (the scenario decoder's cursor, `JSONNode`, adds the JSON path).
package struct JSONParser {
    private let bytes: [UInt8]
    private var pos = 0

    package static func parse(_ text: String) throws -> JSONValue {
        var p = JSONParser(bytes: Array(text.utf8))
        p.skipWhitespace()
        let v = try p.parseValue(depth: 0)
        p.skipWhitespace()
        if p.pos < p.bytes.count { throw p.error("unexpected text after the end of the document") }
        return v
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> JSONSyntaxError {
        var line = 1, col = 1
        for b in bytes[0..<min(pos, bytes.count)] {
            if b == 0x0A { line += 1; col = 1 } else if b & 0xC0 != 0x80 { col += 1 }
        }
        return JSONSyntaxError(line: line, column: col, message: message)
    }

    private mutating func skipWhitespace() {
        while pos < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[pos]) { pos += 1 }
    }

    private var current: UInt8? { pos < bytes.count ? bytes[pos] : nil }

    private mutating func expect(_ literal: String) throws {
        for b in literal.utf8 {
            guard current == b else { throw error("expected '\(literal)'") }
            pos += 1
        }
    }

    private mutating func parseValue(depth: Int) throws -> JSONValue {
        guard depth < 64 else { throw error("nesting deeper than 64 levels") }
        guard let c = current else { throw error("unexpected end of the document") }
        switch c {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character '\(Character(Unicode.Scalar(c)))'")
        }
    }

    private mutating func parseObject(depth: Int) throws -> JSONValue {
        pos += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") { pos += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let key = try parseString()
            if members.contains(where: { $0.key == key }) { throw error("duplicate key \"\(key)\"") }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            pos += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            if current == UInt8(ascii: ",") { pos += 1; continue }
            if current == UInt8(ascii: "}") { pos += 1; return .object(members) }
            throw error("expected ',' or '}' in an object")
        }
    }

    private mutating func parseArray(depth: Int) throws -> JSONValue {
        pos += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { pos += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            if current == UInt8(ascii: ",") { pos += 1; continue }
            if current == UInt8(ascii: "]") { pos += 1; return .array(items) }
            throw error("expected ',' or ']' in an array")
        }
    }

    private mutating func parseString() throws -> String {
        pos += 1
        var out: [UInt8] = []
        while true {
            guard let c = current else { throw error("unterminated string") }
            pos += 1
            switch c {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let e = current else { throw error("unterminated string") }
                pos += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        try expect("\\u")
                        let low = try parseHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("invalid surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
                }
            case 0..<0x20:
                throw error("control character in a string")
            default:
                out.append(c)
            }
        }
    }

    private mutating func parseHex4() throws -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let c = current, let d = hexDigit(c) else { throw error("invalid \\u escape") }
            v = v * 16 + d
            pos += 1
        }
        return v
    }

    private func hexDigit(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private mutating func parseNumber() throws -> JSONValue {
        let start = pos
        if current == UInt8(ascii: "-") { pos += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            var n = 0
            while let c = p.current, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") { p.pos += 1; n += 1 }
            return n
        }
        guard digits(&self) > 0 else { throw error("invalid number") }
        if current == UInt8(ascii: ".") {
            pos += 1
            guard digits(&self) > 0 else { throw error("invalid number") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            pos += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { pos += 1 }
            guard digits(&self) > 0 else { throw error("invalid number") }
        }
        let literal = String(decoding: bytes[start..<pos], as: UTF8.self)
        guard let v = Double(literal) else { throw error("invalid number") }
        return .number(v, literal: literal)
    }
}
