import Foundation

/// A report as a list of blocks, rendered to Markdown and to one self-contained HTML page
/// from the same content (so the two never disagree). Text may hold links written as in
/// Markdown, `[label](target)`, where the target is a relative path or `#anchor` (letters,
/// digits and `. _ / # - + ~ %`, not starting with `/`: no scheme, no absolute path); HTML
/// renders them as links.
package struct ReportDocument: Sendable {
    /// One piece of the report.
    package enum Block: Sendable {
        /// A heading of level 1 to 4.
        case heading(Int, String)
        /// A paragraph of plain text (`code` spans in backticks are kept).
        case paragraph(String)
        /// A table: its header and rows; `numeric` columns are right-aligned.
        case table(header: [String], rows: [[String]], numeric: Set<Int>)
        /// An image: its path relative to the report, and a caption.
        case image(path: String, caption: String)
        /// Preformatted text (query plans, SQL).
        case code(String)
        /// A list of items.
        case list([String])
        /// A place a link can point to (`#id`): an HTML id, an `<a id>` in Markdown.
        case anchor(String)
        /// Blocks shown folded in HTML (`<details>`), under a summary line.
        case details(summary: String, blocks: [Block])
        /// A picture the report code draws as SVG: inline in HTML (so that its links work);
        /// in Markdown, the image `file` (the same SVG, written beside it).
        case svg(markup: String, file: String, caption: String)
    }

    package var title: String
    package var blocks: [Block] = []

    package init(title: String) { self.title = title }

    package mutating func add(_ block: Block) { blocks.append(block) }

    /// An anchor id from names as they are (labels: letters, digits and `+ - _ .`, all valid in
    /// an id and a URL fragment) joined by `~`, which no label holds: two different lists
    /// never give the same id (`case~V1+index~fetch~60`).
    package static func anchorID(_ parts: [String]) -> String {
        parts.joined(separator: "~")
    }
}
