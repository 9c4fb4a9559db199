import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLab
import SchemaLabTestSupport

/// `schemalab plot` and `schemalab report` end to end on a small sweep of the tiny scenario.
@Suite("Report, end to end: charts, tables, growth, plans, index advice, one self-contained page")
struct ReportEndToEndTests {
    /// Opens `page` in headless Chromium inside a harness page that waits for every image and
    /// writes the outcome into its title; fails on an image that did not load or on any message
    /// the page logs to the console (a script error, a blocked resource).
    static func checkInChromium(page: String, images: Int, work: String) throws {
        let harness = work + "/check.html"
        let pageURL = URL(fileURLWithPath: page).absoluteString
        try Data(
            """
            <!DOCTYPE html><html><head><meta charset="utf-8"><title>pending</title></head><body>
            <iframe id="f" src="\(pageURL)" style="width:1200px;height:800px"></iframe>
            <script>
            document.getElementById('f').addEventListener('load', () => {
              const d = document.getElementById('f').contentDocument;
              if (!d) { document.title = 'FAIL cannot read the report'; return; }
              const imgs = Array.from(d.images);
              Promise.all(imgs.map(i => i.complete ? Promise.resolve() : new Promise(r => { i.onload = r; i.onerror = r; }))).then(() => {
                const bad = imgs.filter(i => !(i.naturalWidth > 0));
                document.title = (bad.length === 0 ? 'OK ' : 'FAIL ') + imgs.length + ' images loaded, ' + bad.length + ' not: ' + bad.map(i => i.alt).join('; ');
              });
            });
            </script></body></html>
            """.utf8
        ).write(to: URL(fileURLWithPath: harness))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [
            "chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
            "--enable-logging=stderr", "--v=0", "--virtual-time-budget=10000", "--user-data-dir=\(work)/chromium",
            "--dump-dom", URL(fileURLWithPath: harness).absoluteString,
        ]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let dom = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(
            p.terminationStatus == 0,
            "chromium failed (make setup-browser installs it): \(String(decoding: errData, as: UTF8.self).suffix(600))")
        #expect(dom.contains("<title>OK \(images) images loaded, 0 not: </title>"), "\(dom.prefix(400))")
        let console = String(decoding: errData, as: UTF8.self).split(separator: "\n").filter { $0.contains(":CONSOLE") }
        #expect(console.isEmpty, "console messages: \(console.joined(separator: " | "))")
    }

    @Test("A two-size run gives the growth and memory charts and a report with tables, fits, plans and .expert advice")
    func reportEndToEnd() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/run"
        let run = try TestSupport.runCLI(
            ["run", TestSupport.tinyScenario, "--out", out, "--size", "60", "240", "--reps", "3", "--quiet"],
            environment: ["TMPDIR": dir])
        #expect(run.status == 0, "\(run.err)")
        let plot = try TestSupport.runCLI(["plot", out])
        #expect(plot.status == 0, "\(plot.err)")
        for name in ["tiny-60", "tiny-240", "tiny-growth", "tiny-memory-rss", "tiny-memory-heap"] {
            #expect(FileManager.default.fileExists(atPath: "\(out)/plots/\(name).svg"), "\(name).svg")
            #expect(FileManager.default.fileExists(atPath: "\(out)/plots/\(name).png"), "\(name).png")
        }
        // A few short workload names stand level under their bars.
        #expect(!(try String(contentsOfFile: out + "/plots/tiny-60.svg", encoding: .utf8)).contains("rotate(-35)"))
        let growthData = try String(contentsOfFile: out + "/plots/data/tiny-growth.tsv", encoding: .utf8)
        #expect(growthData.hasPrefix("panel\tseries\tx\ty\ninsert\tflat\t60.0\t"), "\(growthData.prefix(80))")

        let report = try TestSupport.runCLI(["report", out], environment: ["TMPDIR": dir])
        #expect(report.status == 0, "\(report.err)")
        let md = try String(contentsOfFile: out + "/report.md", encoding: .utf8)
        #expect(md.hasPrefix("# SchemaLab report: tiny\n"))
        #expect(md.contains("## Environment") && md.contains("| SQLite | \(SQLiteLibrary.version)"))
        #expect(md.contains("### n = 60") && md.contains("### n = 240"))
        #expect(md.contains("| workload | flat | flat+index | split |"))
        #expect(md.contains("the reference variant `flat`"))
        #expect(md.contains("## How cost grows with size") && md.contains("| insert | flat | "))
        #expect(md.contains("![Median time against size (log-log)"))
        #expect(md.contains("<details><summary>flat · sections · n = 60:"))
        #expect(md.contains("USE TEMP B-TREE FOR ORDER BY"))
        // The flat variant's sections sort in a temporary B-tree: .expert proposes the compound index the flat+index variant has.
        #expect(md.contains("SQLite's `.expert` suggests:"), "\(md)")
        #expect(md.contains("CREATE INDEX ZNOTE_idx_") && md.contains("ON ZNOTE(ZSTARS DESC, ZCREATED)"), "\(md)")

        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))
        #expect(html.contains("<img alt=\"Median time against size (log-log)"))
        #expect(html.contains("src=\"data:image/svg+xml;base64,"))
        #expect(!html.contains("src=\"http") && !html.contains("href=\"http"), "nothing is fetched from the network")
        #expect(!html.contains("src=\"plots/"), "images are embedded")
        #expect(html.contains("<td class=\"n\">"))

        try Self.checkInChromium(page: out + "/report.html", images: 5, work: dir)

        // --no-advice leaves it out; a missing directory is an error that says so.
        #expect(try TestSupport.runCLI(["report", out, "--no-advice"]).status == 0)
        #expect(try !String(contentsOfFile: out + "/report.md", encoding: .utf8).contains("`.expert` suggests"))
        let missing = try TestSupport.runCLI(["report", dir + "/nope"])
        #expect(missing.status == 2 && missing.err.contains("cannot read \(dir)/nope/results.csv"), "\(missing.err)")
    }
}
