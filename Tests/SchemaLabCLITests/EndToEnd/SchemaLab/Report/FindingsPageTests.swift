import Foundation
import Testing
@testable import SchemaLab
import SchemaLabTestSupport

/// Claims end to end through the CLI: `run` writes claims.csv, `report` a Claims section,
/// `findings` the landing page (checked in headless Chromium: its tables render and every link
/// resolves to an element of its target page), and `compare` catches a verdict that changed.
@Suite("Findings: claims from run to landing page to the gate")
struct FindingsPageTests {
    static let scenario = TestSupport.packageRoot + "/Tests/Fixtures/tiny-claims.json"

    @Test("run, report and findings: claims.csv, the report's Claims section, index.html and findings.md, the summary printed")
    func landingPage() throws {
        let dir = try TestSupport.temporaryDirectory()
        let out = dir + "/results/tiny-claims"
        let run = try TestSupport.runCLI(
            ["run", Self.scenario, "--out", out, "--size", "60", "--reps", "3", "--quiet"], environment: ["TMPDIR": dir])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("schemalab: claims: 1 reversed, "), "\(run.err)")
        let rows = try ClaimsFile.read(directory: out)
        #expect(rows.first { $0.id == "index-no-sort" }?.verdict == .holds)
        #expect(rows.first { $0.id == "split-scans-less" }?.verdict == .reversed)
        #expect(rows.first { $0.id == "index-fewer-statements" }?.verdict == .withinNoise)

        #expect(try TestSupport.runCLI(["report", out, "--no-advice"]).status == 0)
        let md = try String(contentsOfFile: out + "/report.md", encoding: .utf8)
        #expect(md.contains("## Claims") && md.contains("<a id=\"claim~index-no-sort\"></a>"), "\(md.prefix(2000))")
        #expect(md.contains("(#case~flat+index~sections~60)"), "the claim links its cases")
        #expect(md.contains("<a id=\"case~flat+index~sections~60\"></a>"))

        let findings = try TestSupport.runCLI(["findings", out, "--out", dir + "/results"])
        #expect(findings.status == 0, "\(findings.err)")
        #expect(findings.out.contains("claims: 4 in 1 scenarios: 1 reversed, "), "\(findings.out)")
        #expect(findings.out.contains("reversed: tiny-claims split-scans-less"), "\(findings.out)")
        #expect(findings.out.contains(dir + "/results/index.html"))
        let page = try String(contentsOfFile: dir + "/results/findings.md", encoding: .utf8)
        #expect(page.contains("## Reversed, undecided and within noise"))
        #expect(page.contains("[split-scans-less](tiny-claims/report.md#claim~split-scans-less)"))
        let html = try String(contentsOfFile: dir + "/results/index.html", encoding: .utf8)
        #expect(html.contains("<a href=\"tiny-claims/report.html#claim~split-scans-less\">split-scans-less</a>"))
        #expect(!html.contains("href=\"http") && !html.contains("src=\"http"), "self-contained")
        // The claim chart: inline on the page (a row per claim, each a link), and as claims.svg beside findings.md.
        #expect(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"claim-chart\""))
        #expect(page.contains("![") && page.contains("](claims.svg)"))
        let chart = try String(contentsOfFile: dir + "/results/claims.svg", encoding: .utf8)
        #expect(chart.components(separatedBy: "<g class=\"claim\">").count - 1 == 4)
        #expect(chart.contains("<a href=\"tiny-claims/report.html#claim~split-scans-less\">"))
        try Self.checkLinksInChromium(page: dir + "/results/index.html", work: dir, chartRows: 4)

        #expect(!page.contains("Changed since the previous run"), "no previous run yet")

        // A run that replaced another: the page says what changed since it, first, and each
        // claim's previous verdict. The previous run's claims here are this run's with one changed.
        let again = try TestSupport.runCLI(
            ["run", Self.scenario, "--out", out, "--size", "60", "--reps", "3", "--quiet", "--replace"], environment: ["TMPDIR": dir])
        #expect(again.status == 0, "\(again.err)")
        #expect(try TestSupport.runCLI(["report", out, "--no-advice"]).status == 0)
        var before = try ClaimsFile.read(directory: out)
        let changed = try #require(before.firstIndex { $0.id == "index-no-sort" && $0.headline })
        let now = before[changed].verdict
        before[changed].verdict = now == .reversed ? .holds : .reversed
        try Data(ClaimRecord.table.text(before).utf8).write(to: URL(fileURLWithPath: out + ".previous/claims.csv"))
        let second = try TestSupport.runCLI(["findings", out, "--out", dir + "/results"])
        #expect(second.status == 0, "\(second.err)")
        #expect(second.out.contains("changed since the previous run: 1 of 4"), "\(second.out)")
        #expect(
            second.out.contains("changed: tiny-claims index-no-sort: \(before[changed].verdict.rawValue) -> \(now.rawValue)"),
            "\(second.out)")
        let secondPage = try String(contentsOfFile: dir + "/results/findings.md", encoding: .utf8)
        let changes = try #require(secondPage.range(of: "## Changed since the previous run"))
        #expect(changes.lowerBound < (secondPage.range(of: "## Every claim, by scenario")?.lowerBound ?? changes.lowerBound))
        #expect(secondPage.contains("| previous run |"), "\(secondPage.prefix(3000))")
        try Self.checkLinksInChromium(page: dir + "/results/index.html", work: dir)

        // A directory without claims is noted and left out; one that is not a run is bad input.
        let missing = try TestSupport.runCLI(["findings", dir + "/nope", "--out", dir])
        #expect(missing.status == 2, "\(missing.err)")
    }

    @Test("compare: a verdict that got worse on a count is a regression; on time it is reported, not gated")
    func compareCatchesAClaimChange() throws {
        let dir = try TestSupport.temporaryDirectory()
        let base = dir + "/base", new = dir + "/new"
        let run = try TestSupport.runCLI(
            ["run", Self.scenario, "--out", base, "--size", "60", "--reps", "3", "--quiet"], environment: ["TMPDIR": dir])
        #expect(run.status == 0, "\(run.err)")
        try FileManager.default.copyItem(atPath: base, toPath: new)
        #expect(try TestSupport.runCLI(["compare", base, new]).status == 0)

        func rewrite(_ id: String, to verdict: ClaimVerdict) throws {
            var rows = try ClaimsFile.read(directory: new)
            for i in rows.indices where rows[i].id == id { rows[i].verdict = verdict }
            try Data(ClaimRecord.table.text(rows).utf8).write(to: URL(fileURLWithPath: new + "/claims.csv"))
        }
        try rewrite("index-sections", to: .reversed)  // a time claim in an uncounted run
        let timeChange = try TestSupport.runCLI(["compare", base, new])
        #expect(timeChange.status == 0, "\(timeChange.out)")
        #expect(
            timeChange.out.contains("claim index-sections n=60:") && timeChange.out.contains("reported, not gated"), "\(timeChange.out)")

        try rewrite("index-no-sort", to: .reversed)  // sorts: deterministic
        let countChange = try TestSupport.runCLI(["compare", base, new])
        #expect(countChange.status == 2, "\(countChange.out) \(countChange.err)")
        #expect(countChange.out.contains("REGRESSED: claim index-no-sort n=60: holds -> reversed"), "\(countChange.out)")
        #expect(countChange.err.contains("1 claim verdict(s) got worse"), "\(countChange.err)")
    }

    /// Opens `page` in headless Chromium in a harness that checks its tables have rows and
    /// loads every link's target in a second frame, checking the anchor exists there.
    static func checkLinksInChromium(page: String, work: String, chartRows: Int? = nil) throws {
        let harness = work + "/links.html"
        try Data(
            """
            <!DOCTYPE html><html><head><meta charset="utf-8"><title>pending</title></head><body>
            <iframe id="f" src="\(URL(fileURLWithPath: page).absoluteString)"></iframe><iframe id="g"></iframe>
            <script>
            const f = document.getElementById('f'), g = document.getElementById('g');
            f.addEventListener('load', async () => {
              const d = f.contentDocument;
              if (!d) { document.title = 'FAIL cannot read the page'; return; }
              const tables = Array.from(d.querySelectorAll('table'));
              const emptyTables = tables.filter(t => t.querySelectorAll('tbody tr').length === 0).length;
              // HTML links and the claim chart's SVG links (whose href is not a string).
              const links = Array.from(d.querySelectorAll('a[href]')).map(a => new URL(a.getAttribute('href'), d.baseURI).href);
              const chartRows = d.querySelectorAll('svg.claim-chart g.claim').length;
              const bad = [];
              for (const href of links) {
                const [url, hash] = href.split('#');
                const ok = await new Promise(resolve => {
                  g.onload = () => { const t = g.contentDocument; resolve(!!t && (!hash || !!t.getElementById(decodeURIComponent(hash)))); };
                  g.onerror = () => resolve(false);
                  g.src = url + '?' + Math.random() + (hash ? '#' + hash : '');
                });
                if (!ok) bad.push(href);
              }
              document.title = (bad.length === 0 && emptyTables === 0 && tables.length > 0 ? 'OK ' : 'FAIL ') + tables.length + ' tables, '
                + emptyTables + ' empty, ' + chartRows + ' chart rows, ' + links.length + ' links, bad: ' + bad.join(' ');
            });
            </script></body></html>
            """.utf8
        ).write(to: URL(fileURLWithPath: harness))
        let result = try TestSupport.runProcess(
            "/usr/bin/env",
            [
                "chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                "--virtual-time-budget=20000", "--user-data-dir=\(work)/chromium", "--dump-dom",
                URL(fileURLWithPath: harness).absoluteString,
            ])
        #expect(result.status == 0, "chromium failed (make setup-browser installs it): \(result.err.suffix(600))")
        let title = result.out.range(of: "<title>").flatMap { start in
            result.out.range(of: "</title>").map { String(result.out[start.upperBound..<$0.lowerBound]) }
        }
        #expect(title?.hasPrefix("OK ") == true && title?.contains(" 0 links") == false, "\(title ?? result.out.prefix(300).description)")
        if let chartRows { #expect(title?.contains(" \(chartRows) chart rows, ") == true, "\(title ?? "")") }
    }
}
