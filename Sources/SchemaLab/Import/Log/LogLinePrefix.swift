/// What a console puts around Core Data's own text, and where that text starts.
///
/// Stripped: ANSI colour sequences (`ESC [ … m`, which SyntaxColoredLogging adds), a carriage
/// return. Found: `CoreData: ` anywhere in the line (after NSLog's date, process and thread,
/// or Xcode's console), or unified logging's category, `(CoreData) [com.apple.coredata:sql] `,
/// which `log show` and Console.app print instead, made into the same `sql: …` message. Pages
/// that quote a log sometimes drop the `CoreData: ` (objc.io's `sql: SELECT …`) or cut it
/// (`ata: sql: BEGIN EXCLUSIVE`): a line that starts with a category, or with the end of
/// `CoreData:` and a category, is read too.
package enum LogLinePrefix {
    /// The line without colour codes.
    package static func strip(_ line: Substring) -> Substring {
        guard line.contains("\u{1B}") else { return line }
        var out = ""
        var iterator = line.makeIterator()
        while let ch = iterator.next() {
            guard ch == "\u{1B}" else {
                out.append(ch)
                continue
            }
            // CSI: ESC [ parameters final-byte (a letter).
            guard let next = iterator.next() else { break }
            if next != "[" { continue }
            while let c = iterator.next() {
                if c.isLetter { break }
            }
        }
        return Substring(out)
    }

    /// Core Data's message: the text after `CoreData: ` (`sql: SELECT …`), or unified
    /// logging's category made into the same form; nil for another line.
    package static func coreDataMessage(_ line: Substring) -> Substring? {
        if let range = line.range(of: "CoreData: ") { return line[range.upperBound...] }
        if let range = line.range(of: "[com.apple.coredata:") {
            let rest = line[range.upperBound...]
            guard let close = rest.firstIndex(of: "]") else { return nil }
            let category = rest[..<close]
            var message = rest[rest.index(after: close)...]
            while message.first == " " { message = message.dropFirst() }
            return Substring(category + ": " + message)
        }
        var body = line
        while body.first == " " || body.first == "\t" { body = body.dropFirst() }
        for category in categories where body.hasPrefix(category) { return body }
        if let colon = body.firstIndex(of: ":"), colon > body.startIndex, "CoreData".hasSuffix(body[..<colon]) {
            var rest = body[body.index(after: colon)...]
            while rest.first == " " { rest = rest.dropFirst() }
            for category in categories where rest.hasPrefix(category) { return rest }
        }
        return nil
    }

    /// The categories Core Data's SQL debug lines start with.
    static let categories = ["sql: ", "details: ", "annotation: "]
}
