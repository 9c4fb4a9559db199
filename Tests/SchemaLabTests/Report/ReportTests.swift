import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLab
import SchemaLabTestSupport

/// The report's renderers (`schemalab plot` and `schemalab report` end to end are
/// `ReportEndToEndTests`, in SchemaLabCLITests).
@Suite("Report: the renderers")
struct ReportTests {
    @Test("The renderers escape text, keep code spans, and fold details")
    func renderers() {
        var doc = ReportDocument(title: "a <b> & c")
        doc.add(.paragraph("uses `x < y` here"))
        doc.add(.table(header: ["k", "v"], rows: [["a|b", "1"]], numeric: [1]))
        doc.add(.details(summary: "more", blocks: [.code("SELECT 1 < 2")]))
        let html = HTMLRenderer.render(doc, baseDirectory: "/nonexistent")
        #expect(html.contains("<h1>a &lt;b&gt; &amp; c</h1>"))
        #expect(html.contains("<p>uses <code>x &lt; y</code> here</p>"))
        #expect(html.contains("<td>a|b</td><td class=\"n\">1</td>"))
        #expect(html.contains("<details><summary>more</summary><pre>SELECT 1 &lt; 2</pre></details>"))
        let md = MarkdownRenderer.render(doc)
        #expect(md.contains("| a\\|b | 1 |") && md.contains("|---|---:|"))
        #expect(md.contains("<details><summary>more</summary>\n\n```\nSELECT 1 < 2\n```"))
    }
}
