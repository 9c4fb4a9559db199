/// Renders a `ReportDocument` as GitHub-flavoured Markdown.
package enum MarkdownRenderer {
    package static func render(_ doc: ReportDocument) -> String {
        var out = ["# \(doc.title)", ""]
        for b in doc.blocks { out += lines(b) }
        return out.joined(separator: "\n") + "\n"
    }

    static func cell(_ s: String) -> String {
        s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    static func lines(_ b: ReportDocument.Block) -> [String] {
        switch b {
        case .heading(let level, let text):
            return [String(repeating: "#", count: min(max(level, 1), 4) + 1) + " " + text, ""]
        case .paragraph(let text):
            return [text, ""]
        case .table(let header, let rows, let numeric):
            var out = [
                "| " + header.map(cell).joined(separator: " | ") + " |",
                "|" + header.indices.map { numeric.contains($0) ? "---:" : "---" }.joined(separator: "|") + "|",
            ]
            for r in rows { out.append("| " + r.map(cell).joined(separator: " | ") + " |") }
            return out + [""]
        case .image(let path, let caption):
            return ["![\(caption)](\(path))", "", "*\(caption)*", ""]
        case .code(let text):
            return ["```", text, "```", ""]
        case .list(let items):
            return items.map { "- " + $0 } + [""]
        case .anchor(let id):
            return ["<a id=\"\(id)\"></a>", ""]
        case .svg(_, let file, let caption):
            return ["![\(caption)](\(file))", "", "*\(caption)*", ""]
        case .details(let summary, let blocks):
            return ["<details><summary>\(summary)</summary>", ""] + blocks.flatMap(lines) + ["</details>", ""]
        }
    }
}
