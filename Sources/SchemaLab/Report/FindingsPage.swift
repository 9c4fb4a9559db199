import Foundation
import SchemaLabEngine

/// The landing page of a bench: every claim of every run directory given, on one page
/// (`index.html`, self-contained, and `findings.md`). The environment once; the claims whose
/// verdict changed since the run each directory replaced (`<directory>.previous`); the reversed
/// and within-noise claims; then per scenario a table of its claims (source, claim,
/// measured ratio and interval, expected effect, verdict), each linking to the claim's
/// section of its scenario's report, where its cases are linked in turn.
package struct FindingsPage: Sendable {
    /// One run directory's claims.
    package struct ScenarioClaims: Sendable {
        /// The scenario's name.
        package let name: String
        /// The directory as given, and its path relative to the page.
        package let directory: String
        package let link: String
        /// Its claims.csv, and the environment it ran in.
        package let claims: [ClaimRecord]
        package let environment: EnvironmentFingerprint
        /// The claims of the run it replaced (`<directory>.previous/claims.csv`), when there is one.
        package var previous: [ClaimRecord]? = nil

        /// The previous run's verdict of `claim` (its headline row), when it had the claim.
        package func previousVerdict(of claim: ClaimRecord) -> ClaimVerdict? {
            previous?.first { $0.headline && $0.id == claim.id }?.verdict
        }
    }

    /// The run directories with claims, in the order given.
    package let scenarios: [ScenarioClaims]
    /// Where the page is written.
    package let outputDirectory: String

    /// The headline row of every claim, in page order.
    package var headlines: [ClaimRecord] { scenarios.flatMap { $0.claims.filter(\.headline) } }

    /// Where `run --replace` keeps the run a directory replaced.
    static func previousDirectory(of directory: String) -> String {
        URL(fileURLWithPath: directory).standardizedFileURL.path + ".previous"
    }

    /// The claims whose verdict differs from the previous run's, with that verdict, in page order.
    package var changes: [(scenario: ScenarioClaims, claim: ClaimRecord, before: ClaimVerdict)] {
        scenarios.flatMap { s in
            s.claims.filter(\.headline).compactMap { r in s.previousVerdict(of: r).flatMap { $0 != r.verdict ? (s, r, $0) : nil } }
        }
    }

    /// How many claims have a previous verdict to compare with.
    package var comparedWithPrevious: Int {
        scenarios.reduce(0) { n, s in n + s.claims.filter { $0.headline && s.previousVerdict(of: $0) != nil }.count }
    }

    /// Reads each directory's claims.csv and env.json; a directory without claims is left out.
    package init(directories: [String], outputDirectory: String) throws(FileError) {
        self.outputDirectory = outputDirectory
        var out: [ScenarioClaims] = []
        for directory in directories {
            let claims = try ClaimsFile.read(directory: directory)
            guard let first = claims.first else { continue }
            let manifest = try RunManifest.read(directory: directory, purpose: "show the findings of")
            var scenario = ScenarioClaims(
                name: first.scenario, directory: directory, link: Self.relative(directory, from: outputDirectory), claims: claims,
                environment: manifest.environment)
            // `run --replace` keeps the run it replaced beside it: its verdicts, for what changed.
            let before = (try? ClaimsFile.read(directory: Self.previousDirectory(of: directory))) ?? []
            if !before.isEmpty { scenario.previous = before }
            out.append(scenario)
        }
        scenarios = out
    }

    /// The relative URL path from `base` to `directory` (`tiny-claims`, `../runs/photos`), each
    /// byte a link may not hold percent-encoded.
    static func relative(_ directory: String, from base: String) -> String {
        let d = URL(fileURLWithPath: directory).standardizedFileURL.pathComponents
        let b = URL(fileURLWithPath: base).standardizedFileURL.pathComponents
        var shared = 0
        while shared < min(d.count, b.count) && d[shared] == b[shared] { shared += 1 }
        let parts = Array(repeating: "..", count: b.count - shared) + d[shared...]
        let path = parts.isEmpty ? "." : parts.joined(separator: "/")
        var out = ""
        for byte in path.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if byte < 0x80 && (c.isLetter || c.isNumber || "._/-+~".contains(c)) {
                out.append(c)
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// The page; `reportFile` is `report.html` for the HTML page and `report.md` for Markdown.
    package func document(reportFile: String) -> ReportDocument {
        var doc = ReportDocument(title: "SchemaLab findings: what the sources claimed, and what this machine shows")
        let all = headlines
        doc.add(
            .paragraph(
                "\(all.count) claims of the source documents in \(scenarios.count) scenarios, each judged on this machine's run: "
                    + "\(ClaimVerdict.summary(all.map(\.verdict))). A claim compares two cases on one metric (ratio = case / against); "
                    + "times carry a 95% bootstrap interval of the ratio of medians, counts are exact. The verdict: \"within noise\" when the "
                    + "interval includes 1, \"reversed\" when the effect goes the other way, \"holds\" when it goes the claimed way and, where "
                    + "the source gives a figure, its size (the logarithm of the ratio) is within the claim's factor (default 2) of the "
                    + "source's; \"holds, weaker\" or \"holds, stronger\" beyond it. Each claim links to its section in its scenario's report, "
                    + "and from there to its cases' counters and query plans."))
        addEnvironment(&doc)
        if !all.isEmpty {
            doc.add(.heading(1, "Every claim at a glance"))
            doc.add(
                .svg(
                    markup: ClaimChart(scenarios, reportFile: reportFile).svg, file: Self.chartFile,
                    caption:
                        "Each claim's measured ratio (dot) and 95% interval (bar) on a log scale, the source's figure as an open diamond (its range shaded), the line at 1: no effect. Colour: the verdict. Each row links to the claim's section of its scenario's report."
                ))
        }
        let changes = self.changes
        if comparedWithPrevious > 0 {
            doc.add(.heading(1, "Changed since the previous run"))
            if changes.isEmpty {
                doc.add(
                    .paragraph(
                        "No verdict changed: \(comparedWithPrevious) claims compared with the runs these replaced (`<directory>.previous`)."
                    ))
            } else {
                doc.add(
                    .paragraph(
                        "\(changes.count) of the \(comparedWithPrevious) claims compared with the runs these replaced (`<directory>.previous`) changed verdict."
                    ))
                doc.add(
                    .table(
                        header: ["scenario", "claim", "previous run", "this run", "measured (95% interval)"],
                        rows: changes.map { s, r, before in
                            [s.name, link(r, s, reportFile), before.rawValue, r.verdict.rawValue, measured(r)]
                        },
                        numeric: []))
            }
        }
        let surprising = scenarios.flatMap { s in
            s.claims.filter { $0.headline && [.reversed, .undecided, .withinNoise].contains($0.verdict) }.map { (s, $0) }
        }
        if !surprising.isEmpty {
            doc.add(.heading(1, "Reversed, undecided and within noise"))
            doc.add(
                .table(
                    header: ["scenario", "claim", "source", "measured (95% interval)", "expected", "verdict"],
                    rows: surprising.sorted { $0.1.verdict < $1.1.verdict }.map { s, r in
                        [s.name, link(r, s, reportFile), "\(r.document) (\(r.year))", measured(r), r.expectedText, r.verdict.rawValue]
                    }, numeric: []))
        }
        doc.add(.heading(1, "Every claim, by scenario"))
        for s in scenarios {
            let rows = s.claims.filter(\.headline).sorted { $0.verdict < $1.verdict }
            doc.add(.anchor(ReportDocument.anchorID(["scenario", s.name])))
            doc.add(.heading(2, "\(s.name): \(ClaimVerdict.summary(rows.map(\.verdict)))"))
            doc.add(.paragraph("[The report](\(s.link)/\(reportFile)) of `\(s.directory)`."))
            let previous = s.previous != nil
            doc.add(
                .table(
                    header: ["claim", "source", "what it claims", "measured (95% interval)", "expected", "verdict"]
                        + (previous ? ["previous run"] : []),
                    rows: rows.map { r in
                        [
                            link(r, s, reportFile), "\(r.document) (\(r.year)), \(r.location)", r.statement, measured(r), r.expectedText,
                            r.verdict.rawValue + (r.change.isEmpty ? "" : "; \(r.change)"),
                        ] + (previous ? [s.previousVerdict(of: r)?.rawValue ?? "(not in it)"] : [])
                    }, numeric: []))
        }
        return doc
    }

    private func link(_ r: ClaimRecord, _ s: ScenarioClaims, _ reportFile: String) -> String {
        "[\(r.id)](\(s.link)/\(reportFile)#\(r.anchor))"
    }

    private func measured(_ r: ClaimRecord) -> String {
        guard let n = r.size else { return "not measured" }
        let at = r.claimSize.map { $0 != n ? "; the source: n=\(Format.number(Double($0)))" : "" } ?? ""
        return "\(r.measuredText), \(r.basisText) at n=\(Format.number(Double(n)))\(at)"
    }

    private func addEnvironment(_ doc: inout ReportDocument) {
        guard let env = scenarios.first?.environment else { return }
        doc.add(.heading(1, "Environment"))
        doc.add(
            .table(
                header: ["", "the runs"], rows: RunReport.environmentRows(env), numeric: []))
        let others = scenarios.filter {
            $0.environment.sqliteVersion != env.sqliteVersion || $0.environment.cores != env.cores
                || $0.environment.gitCommit != env.gitCommit
        }
        if !others.isEmpty {
            doc.add(
                .paragraph(
                    "Runs from another environment (SQLite, cores or commit differ): \(others.map(\.name).joined(separator: ", ")); their reports say which."
                ))
        }
    }

    /// The claim chart's file beside `findings.md` (its rows link to the reports' HTML).
    static let chartFile = "claims.svg"

    /// Writes `index.html`, `findings.md` and the claim chart (`claims.svg`) into
    /// ``outputDirectory``; returns their paths.
    package func write() throws(FileError) -> [String] {
        var paths: [String] = []
        for (name, text) in [
            ("index.html", HTMLRenderer.render(document(reportFile: "report.html"), baseDirectory: outputDirectory)),
            ("findings.md", MarkdownRenderer.render(document(reportFile: "report.md"))),
            (Self.chartFile, ClaimChart(scenarios, reportFile: "report.html").svg),
        ] {
            let path = outputDirectory + "/" + name
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                throw FileError(path: path, message: "cannot write \(path): \(error.localizedDescription)", isBadInput: false)
            }
            paths.append(path)
        }
        return paths
    }
}

extension FindingsPage {
    /// `schemalab findings`: writes the page for `directories` into `outputDirectory` and prints
    /// the verdict counts, each reversed claim and the page's path. A directory that is not a
    /// finished run is bad input; one without claims is skipped with a note.
    package static func publish(directories: [String], outputDirectory: String, console: any Console) throws(OperationError) {
        let page: FindingsPage
        do {
            for directory in directories { try RunDirectory.requireComplete(at: directory, purpose: "show the findings of") }
            page = try FindingsPage(directories: directories, outputDirectory: outputDirectory)
        } catch {
            throw OperationError(.badInput, error.message)
        }
        let with = Set(page.scenarios.map(\.directory))
        for directory in directories where !with.contains(directory) {
            console.warn("\(directory) has no claims.csv (its scenario states no claims): not on the page")
        }
        let all = page.headlines
        let paths: [String]
        do { paths = try page.write() } catch { throw OperationError(.failed, error.message) }
        console.print("claims: \(all.count) in \(page.scenarios.count) scenarios: \(ClaimVerdict.summary(all.map(\.verdict)))")
        if page.comparedWithPrevious > 0 {
            let changes = page.changes
            console.print("  changed since the previous run: \(changes.count) of \(page.comparedWithPrevious)")
            for (s, r, before) in changes { console.print("  changed: \(s.name) \(r.id): \(before.rawValue) -> \(r.verdict.rawValue)") }
        }
        for s in page.scenarios {
            for r in s.claims where r.headline && r.verdict == .reversed {
                console.print("  reversed: \(s.name) \(r.id): \(r.statement) (measured \(r.measuredText), expected \(r.expectedText))")
            }
        }
        for path in paths { console.print(path) }
    }
}
