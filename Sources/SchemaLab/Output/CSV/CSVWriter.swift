/// Builds CSV text per RFC 4180: a field holding a comma, a double quote, CR or LF
/// is quoted and its quotes doubled. Records end with LF (RFC 4180 names CRLF;
/// LF is what gnuplot and every common reader take).
package struct CSVWriter {
    package let header: [String]
    package private(set) var text: String

    package init(header: [String]) {
        self.header = header
        text = ""
        append(header)
    }

    /// Appends one record; its field count must equal the header's.
    package mutating func append(_ fields: [String]) {
        precondition(
            fields.count == header.count, "CSV record has \(fields.count) fields, header has \(header.count): a bug in the writer's caller")
        text += fields.map(Self.escape).joined(separator: ",") + "\n"
    }

    /// One record's text, with its line end (for appending rows to text kept elsewhere).
    package static func record(_ fields: [String]) -> String {
        fields.map(escape).joined(separator: ",") + "\n"
    }

    /// One field, quoted when it must be.
    package static func escape(_ field: String) -> String {
        // By scalar: "\r\n" is one Character, equal to neither "\r" nor "\n".
        guard field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Parses CSV text (RFC 4180, LF or CRLF line ends) into records: for tests and tools.
    package static func parse(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var inQuotes = false
        var chars = Array(text)
        if chars.last != "\n" { chars.append("\n") }
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if inQuotes {
                if c == "\"" {
                    if i + 1 < chars.count && chars[i + 1] == "\"" { field.append("\""); i += 1 } else { inQuotes = false }
                } else {
                    field.append(c)
                }
            } else if c == "\"" {
                inQuotes = true
            } else if c == "," {
                record.append(field); field = ""
            } else if c == "\n" || c == "\r\n" {
                record.append(field); field = ""
                records.append(record); record = []
            } else if c != "\r" {
                field.append(c)
            }
            i += 1
        }
        return records
    }
}
