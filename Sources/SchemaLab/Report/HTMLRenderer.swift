import Foundation

/// Renders a `ReportDocument` as one self-contained HTML page: styles inline, images
/// embedded as data URLs; nothing is fetched from the network.
package enum HTMLRenderer {
    /// `baseDirectory` is where image paths are relative to; an image that cannot be read
    /// is shown as a note saying so.
    package static func render(_ doc: ReportDocument, baseDirectory: String) -> String {
        var out = [
            "<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<title>\(escape(doc.title))</title>", "<style>\(style)</style>", "</head><body>",
            "<h1>\(escape(doc.title))</h1>",
        ]
        for b in doc.blocks { out.append(html(b, baseDirectory)) }
        out.append("<script>\(openTarget)</script>")
        out.append("</body></html>")
        return out.joined(separator: "\n") + "\n"
    }

    static let style = """
        body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
        table{border-collapse:collapse;margin:0.5em 0 1.2em;font-size:0.9em}
        th,td{border:1px solid #ccc;padding:0.25em 0.6em;vertical-align:top}
        th{background:#f2f2f2}td.n{text-align:right;font-variant-numeric:tabular-nums}
        pre{background:#f7f7f7;padding:0.6em;overflow-x:auto;font-size:0.85em}
        code{background:#f3f3f3;padding:0 0.2em}
        figure{margin:1em 0}figure svg,figure img{max-width:100%;height:auto}
        figcaption{font-size:0.9em;color:#555}details{margin:0.3em 0}summary{cursor:pointer}
        """

    /// A link to an anchor placed before a folded case opens the case.
    static let openTarget = """
        function openTarget(){var id=decodeURIComponent(location.hash.slice(1));if(!id)return;var a=document.getElementById(id);\
        if(a&&a.nextElementSibling&&a.nextElementSibling.tagName==='DETAILS'){a.nextElementSibling.open=true;}}\
        window.addEventListener('hashchange',openTarget);openTarget();
        """

    /// Escapes text for HTML, turns `code` spans into <code> and `[label](target)` into links.
    static func text(_ s: String) -> String {
        let parts = s.split(separator: "`", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts.count % 2 == 1 else { return links(s) }
        return parts.enumerated().map { i, p in i % 2 == 1 ? "<code>\(escape(String(p)))</code>" : links(String(p)) }.joined()
    }

    /// Escapes `s`, with each `[label](target)` whose target is a relative path or an anchor
    /// as a link; any other bracket is text.
    static func links(_ s: String) -> String {
        var out = "", rest = s[...]
        while let open = rest.firstIndex(of: "[") {
            out += escape(String(rest[..<open]))
            rest = rest[open...]
            if let close = rest.firstIndex(of: "]"), rest.index(after: close) < rest.endIndex, rest[rest.index(after: close)] == "(",
                let end = rest[close...].firstIndex(of: ")")
            {
                let label = rest[rest.index(after: rest.startIndex)..<close]
                let target = rest[rest.index(close, offsetBy: 2)..<end]
                let allowed = target.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._/#-+~%".contains($0)) }
                if allowed && !label.isEmpty && !target.isEmpty && !target.hasPrefix("/") {
                    out += "<a href=\"\(escape(String(target)))\">\(escape(String(label)))</a>"
                    rest = rest[rest.index(after: end)...]
                    continue
                }
            }
            // Not a link: the bracket is text, and the scan goes on after it.
            out += "["
            rest = rest.dropFirst()
        }
        return out + escape(String(rest))
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func html(_ b: ReportDocument.Block, _ base: String) -> String {
        switch b {
        case .heading(let level, let t):
            let h = min(max(level, 1), 4) + 1
            return "<h\(h)>\(text(t))</h\(h)>"
        case .paragraph(let t):
            return "<p>\(text(t))</p>"
        case .table(let header, let rows, let numeric):
            var out = "<table><thead><tr>" + header.map { "<th>\(text($0))</th>" }.joined() + "</tr></thead><tbody>"
            for r in rows {
                out +=
                    "<tr>"
                    + r.enumerated().map { i, v in numeric.contains(i) ? "<td class=\"n\">\(text(v))</td>" : "<td>\(text(v))</td>" }
                    .joined() + "</tr>"
            }
            return out + "</tbody></table>"
        case .image(let path, let caption):
            return "<figure>\(image(base + "/" + path, alt: caption))<figcaption>\(text(caption))</figcaption></figure>"
        case .code(let t):
            return "<pre>\(escape(t))</pre>"
        case .list(let items):
            return "<ul>" + items.map { "<li>\(text($0))</li>" }.joined() + "</ul>"
        case .anchor(let id):
            return "<a id=\"\(escape(id))\"></a>"
        case .svg(let markup, _, let caption):
            return "<figure>\(markup)<figcaption>\(text(caption))</figcaption></figure>"
        case .details(let summary, let blocks):
            return "<details><summary>\(text(summary))</summary>" + blocks.map { html($0, base) }.joined(separator: "\n") + "</details>"
        }
    }

    /// An image as a data URL (each SVG stays a document of its own: gnuplot's element ids
    /// would clash if several were inlined into one page).
    static func image(_ file: String, alt: String) -> String {
        guard let data = FileManager.default.contents(atPath: file) else {
            return "<p><em>(image \(escape(file)) could not be read)</em></p>"
        }
        let type = file.hasSuffix(".svg") ? "image/svg+xml" : "image/png"
        return "<img alt=\"\(escape(alt))\" src=\"data:\(type);base64,\(data.base64EncodedString())\">"
    }
}
