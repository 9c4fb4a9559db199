/// A problem with a scenario file: where it is (file and JSON path) and what is wrong.
///
/// Printed as `scenarios/x.json: $.variants[1].addIndexes[0].elements[0]: Photo has no attribute 'dat'`.
public struct ScenarioError: Error, CustomStringConvertible, Sendable {
    /// The scenario file, as the user named it.
    public let file: String
    /// The JSON path of the offending value (`$` for the document).
    public let path: String
    /// What is wrong, in a sentence.
    public let message: String

    /// An error at `path` in `file` that says `message`.
    public init(file: String, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    /// One line: control characters and line separators from the file (a name holding a
    /// newline) are shown escaped (`\n`, `\u{0}`), so every error prints as exactly one line.
    public var description: String { Self.oneLine("\(file): \(path): \(message)") }

    static func oneLine(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: isBreaking) else { return s }
        var out = ""
        for u in s.unicodeScalars {
            if u == "\n" {
                out += "\\n"
            } else if u == "\r" {
                out += "\\r"
            } else if u == "\t" {
                out += "\\t"
            } else if isBreaking(u) {
                out += "\\u{\(String(u.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// Control characters (C0, DEL, C1) and the Unicode line and paragraph separators.
    private static func isBreaking(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x20 || (0x7F...0x9F).contains(u.value) || u.value == 0x2028 || u.value == 0x2029
    }
}
