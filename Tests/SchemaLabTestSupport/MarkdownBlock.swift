import Foundation

/// One fenced block of a Markdown file: where it is, its language, the line above it and its
/// text. The docs' checks read every block; the scenario tests find the example they run.
package struct MarkdownBlock {
    package var file: String
    /// 1-based line of the opening fence.
    package var line: Int
    /// The fence's info string (`json`, `sh`, empty).
    package var language: String
    /// The line right above the fence, trimmed.
    package var above: String
    package var text: String

    /// `file:line`, for messages.
    package var location: String { "\(file):\(line)" }

    /// A block whose fence is never closed.
    package struct Unclosed: Error, CustomStringConvertible {
        package var description: String
    }

    /// Every fenced block of `text`, in order.
    package static func blocks(of text: String, file: String) throws -> [MarkdownBlock] {
        let lines = text.components(separatedBy: "\n")
        var out: [MarkdownBlock] = []
        var i = 0
        while i < lines.count {
            let opening = lines[i].trimmingCharacters(in: .whitespaces)
            guard opening.hasPrefix("```") else { i += 1; continue }
            let ticks = opening.prefix { $0 == "`" }
            let language =
                opening.dropFirst(ticks.count).trimmingCharacters(in: .whitespaces)
                .split(separator: " ").first.map(String.init) ?? ""
            let fence = i + 1
            let above = i > 0 ? lines[i - 1].trimmingCharacters(in: .whitespaces) : ""
            var body: [String] = []
            i += 1
            while i < lines.count {
                let t = lines[i].trimmingCharacters(in: .whitespaces)
                if t.hasPrefix(ticks) && t.allSatisfy({ $0 == "`" }) { break }
                body.append(lines[i])
                i += 1
            }
            guard i < lines.count else { throw Unclosed(description: "\(file):\(fence): the ```\(language) block is not closed") }
            out.append(MarkdownBlock(file: file, line: fence, language: language, above: above, text: body.joined(separator: "\n")))
            i += 1
        }
        return out
    }
}
