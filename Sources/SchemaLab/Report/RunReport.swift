import Foundation
import SchemaLabSQLite
import SchemaLabEngine

/// The report of one run directory, read top to bottom: what ran and where; per size the
/// article-style table (workloads by variants, each against the reference variant); the
/// plots; how cost grows with size and where the winner changes; and per case its
/// counters and every statement with its query plan.
package struct RunReport: Sendable {
    package let directory: String
    package let run: RunSnapshot
    package let manifest: RunManifest
    package let state: RunState?
    package let order: RunOrder
    package let growth: GrowthAnalysis
    /// The run's claims.csv (empty without one).
    package let claims: [ClaimRecord]
    /// Index advice per variant and statement (``adviceKey(_:_:)``), from SQLite's `.expert`.
    package var advice: [String: IndexAdvice] = [:]

    /// The key of ``advice`` for a variant's statement.
    package static func adviceKey(_ variant: String, _ sql: String) -> String { variant + "\n" + sql }

    /// Every statement of a case that scans a whole table or sorts, per variant: what to ask advice for.
    package var costlyStatements: [String: Set<String>] {
        var out: [String: Set<String>] = [:]
        for c in run.cases.values {
            for st in c.plans where st.planLines.contains(where: PlanLine.isCostly) && st.sql.uppercased().hasPrefix("SELECT") {
                out[c.key.variant, default: []].insert(st.sql)
            }
        }
        return out
    }

    /// Reads `directory` (results.csv, samples.csv, plans.csv, env.json, run.json).
    package init(directory: String) throws(FileError) {
        self.directory = directory
        run = try RunSnapshot(path: directory)
        manifest = try RunManifest.read(directory: directory, purpose: "report on")
        state = try? RunDirectory.readState(at: directory, purpose: "report on")
        order = RunOrder(run: run)
        growth = GrowthAnalysis(run: run)
        claims = try ClaimsFile.read(directory: directory)
    }

    /// True when two cases' 95% intervals of the median do not overlap.
    static func beyondNoise(_ a: RecordedCase, _ b: RecordedCase) -> Bool {
        let al = a.summary.ciLowMs, ah = a.summary.ciHighMs, bl = b.summary.ciLowMs, bh = b.summary.ciHighMs
        return ah < bl || bh < al
    }

    /// The report; `plots` are image paths relative to the run directory.
    package func document(plots: [String]) -> ReportDocument {
        var doc = ReportDocument(title: "SchemaLab report: \(run.scenario)")
        let env = manifest.environment
        let stateText =
            state.map { s in
                s.state == .complete
                    ? "complete" + (s.failed.isEmpty ? "" : ", \(s.failed.count) case(s) failed")
                    : "\(s.state.rawValue): \(s.done.count) of \(s.cases.count) cases"
            } ?? "unknown (no run.json)"
        // With --store the data is the store's, not the seed's.
        let data =
            state?.settings.store.map { "data from the existing store `\($0)` (copies of it; its fetch workloads only)" }
            ?? "seed \(manifest.seed)"
        doc.add(
            .paragraph(
                "Scenario `\(manifest.scenarioFile)` (SHA-256 \(manifest.scenarioSHA256.prefix(12))), \(data): "
                    + "\(order.variants.count) variants, \(order.workloads.count) workloads, sizes \(order.sizes.map(String.init).joined(separator: ", ")); "
                    + "\(manifest.warmup) warm-up and up to \(manifest.repetitions) repetitions per case. Run state: \(stateText)."))
        LogSection(manifest: manifest)?.add(to: &doc, run: run, order: order)
        doc.add(.heading(1, "Environment"))
        doc.add(
            .table(
                header: ["", "this run"], rows: Self.environmentRows(env), numeric: []))
        addClaims(&doc)
        addResultTables(&doc)
        if !plots.isEmpty {
            doc.add(.heading(1, "Plots"))
            for p in plots { doc.add(.image(path: p, caption: Self.caption(p, scenario: run.scenario))) }
        }
        addGrowth(&doc)
        addFills(&doc)
        addCases(&doc)
        return doc
    }

    /// What filling each variant's store cost (fills.csv): the data set streamed a chunk at a
    /// time, so the lab's memory should not grow with the size.
    private func addFills(_ doc: inout ReportDocument) {
        guard let text = try? String(contentsOfFile: directory + "/fills.csv", encoding: .utf8) else { return }
        let rows = CSVWriter.parse(text)
        guard let header = rows.first, rows.count > 1 else { return }
        func col(_ name: String) -> Int? { header.firstIndex(of: name) }
        guard let v = col("schema"), let n = col("size"), let ms = col("fill_ms"), let peak = col("peak_rss_kb"),
            let growth = col("rss_growth_kb"), let bytes = col("store_bytes"), let chunk = col("chunk_rows"), let streamed = col("streamed")
        else { return }
        // The last fill of each variant and size (a resumed run fills again).
        var last: [String: [String]] = [:]
        var keys: [String] = []
        for r in rows.dropFirst() where r.count == header.count {
            let k = r[v] + "\n" + r[n]
            if last.updateValue(r, forKey: k) == nil { keys.append(k) }
        }
        func mb(_ kb: String) -> String { Int64(kb).map { $0 < 0 ? "" : Format.short(Double($0) / 1024) } ?? "" }
        let table = keys.map { last[$0]! }.map { r -> [String] in
            [
                r[v], r[n], Format.short((Double(r[ms]) ?? 0) / 1000), mb(r[peak]), mb(r[growth]),
                Int64(r[bytes]).map { Format.short(Double($0) / 1_048_576) } ?? "", r[streamed] == "1" ? r[chunk] : "whole set",
            ]
        }
        doc.add(.heading(1, "Filling the stores"))
        doc.add(
            .paragraph(
                "Each variant's store is filled once per size for the workloads that read it: the data set is generated "
                    + "a chunk of rows at a time and each chunk saved from a new context, so neither the values nor the saved objects pile up. "
                    + "Peak and growth are the process's resident set during the fill (growth: over the resident set at its start), in MB.")
        )
        doc.add(
            .table(
                header: ["variant", "n", "seconds", "peak MB", "growth MB", "store MB", "rows per chunk"], rows: table,
                numeric: [1, 2, 3, 4, 5]))
    }

    private func addResultTables(_ doc: inout ReportDocument) {
        doc.add(.heading(1, "Results"))
        let ref = order.reference
        doc.add(
            .paragraph(
                "Median wall time per case in ms. "
                    + (ref.map {
                        "In brackets, the difference to the reference variant `\($0)`; `~` marks a difference within noise (the two medians' 95% intervals overlap). "
                    } ?? "")
                    + "`differs` marks a result that is not the reference's (it should never appear)."))
        for n in order.sizes {
            doc.add(.heading(2, "n = \(n)"))
            var rows: [[String]] = []
            for w in order.workloads {
                var row = [w]
                var any = false
                for v in order.variants {
                    guard let c = run.cases[CaseKey(variant: v, workload: w, size: n)] else {
                        row.append(""); continue
                    }
                    any = true
                    let m = c.summary.medianMs
                    var cell = Format.short(m)
                    if let ref, v != ref, let r = run.cases[CaseKey(variant: ref, workload: w, size: n)], r.summary.medianMs > 0 {
                        let rm = r.summary.medianMs
                        cell += Self.beyondNoise(c, r) ? " (\(Format.percent(m / rm - 1)))" : " (~)"
                    }
                    if c.summary.referenceCheck == .differs { cell += " differs" }
                    row.append(cell)
                }
                if any { rows.append(row) }
            }
            doc.add(.table(header: ["workload"] + order.variants, rows: rows, numeric: Set(1...order.variants.count)))
            addOverhead(&doc, size: n)
        }
    }

    /// The model's overhead at one size: each case's median over its raw baseline.
    private func addOverhead(_ doc: inout ReportDocument, size n: Int) {
        var rows: [[String]] = []
        for w in order.workloads {
            let cells = order.variants.map { v -> String in
                guard let c = run.cases[CaseKey(variant: v, workload: w, size: n)]?.summary, let r = c.rawMs, r > 0
                else { return "" }
                return "\(Format.ratio(c.medianMs / r))x (\(Format.short(r)))"
            }
            if cells.contains(where: { !$0.isEmpty }) { rows.append([w] + cells) }
        }
        guard !rows.isEmpty else { return }
        doc.add(
            .paragraph(
                "Model overhead at n = \(n): the case's median over its raw baseline, the same statements with the same "
                    + "bindings stepped with the bare C API (in brackets, the raw median in ms). What is above 1x is the object model's work: "
                    + "objects, the registry, values, faults, and the files of external storage, which the raw baseline does not read or write."
            ))
        doc.add(.table(header: ["workload"] + order.variants, rows: rows, numeric: Set(1...order.variants.count)))
    }

    private func addGrowth(_ doc: inout ReportDocument) {
        guard order.sizes.count >= 2 else { return }
        doc.add(.heading(1, "How cost grows with size"))
        doc.add(
            .paragraph(
                "The slope of log(time) against log(size) (1: linear, 2: quadratic; ± its standard error), and which of "
                    + "O(1), O(log n), O(n), O(n log n), O(n^2) fits the medians best by least squares on log axes, with the root-mean-square residual "
                    + "(0.10 is about 10% off at a typical point)."))
        let rows = growth.curves.compactMap { c -> [String]? in
            guard let f = c.fit else { return nil }
            return [
                c.workload, c.variant, String(format: "%.2f", f.slope) + (f.slopeError.map { String(format: " ± %.2f", $0) } ?? ""),
                f.model.rawValue, String(format: "%.3f", f.residual),
                "\(Format.short(c.points.first!.median)) -> \(Format.short(c.points.last!.median))",
            ]
        }
        doc.add(
            .table(
                header: ["workload", "variant", "slope", "best fit", "residual", "ms, smallest -> largest size"], rows: rows,
                numeric: [2, 4, 5]))
        doc.add(.heading(2, "Crossovers"))
        let real = growth.crossovers.filter(\.crossover.significant)
        let noise = growth.crossovers.count - real.count
        let noiseText =
            noise == 0
            ? ""
            : " \(noise) other crossing(s) are left out: at one of the sizes around them the two medians' 95% intervals overlap, so the order there is within noise."
        if real.isEmpty {
            doc.add(.paragraph("No two variants of a workload change order, beyond noise, between two measured sizes." + noiseText))
        } else {
            doc.add(
                .paragraph(
                    "Where the faster of two variants changes: the size interpolated on log axes between the two measured sizes "
                        + "around it, and the range the medians' 95% intervals allow (the charts mark them with a cross)." + noiseText))
            doc.add(
                .table(
                    header: ["workload", "faster below", "faster above", "at about n =", "range", "between sizes"],
                    rows: real.map { w, c in
                        [
                            w, c.fasterBelow, c.fasterAbove, Format.number(c.size.rounded()),
                            "\(Format.number(c.low.rounded()))-\(Format.number(c.high.rounded()))", "\(c.below) and \(c.above)",
                        ]
                    }, numeric: [3]))
        }
    }

    private func addCases(_ doc: inout ReportDocument) {
        doc.add(.heading(1, "Cases: counters and query plans"))
        doc.add(
            .paragraph(
                "Per case, SQLite's counters for one repetition and every distinct statement with its plan (EXPLAIN QUERY PLAN). "
                    + "A plan that scans a whole table or sorts in a temporary B-tree is marked."
                    + (advice.isEmpty ? "" : " Under it, the index SQLite's `.expert` suggests and the plan with that index.")))
        for n in order.sizes {
            for w in order.workloads {
                for v in order.variants {
                    guard let c = run.cases[CaseKey(variant: v, workload: w, size: n)] else { continue }
                    var blocks: [ReportDocument.Block] = []
                    let counters: [(String, String)] = [
                        ("median ms", "median_ms"), ("p90 ms", "p90_ms"), ("cpu ms", "cpu_ms"),
                        ("raw ms", "raw_ms"), ("overhead", "raw_ratio"),
                        ("statements", "statements"), ("rows", "rows"), ("VM steps", "vm_steps"), ("full-scan steps", "fullscan_steps"),
                        ("sorts", "sorts"), ("auto-index rows", "autoindex"), ("peak RSS KB", "peak_rss_kb"),
                        ("SQLite heap peak bytes", "sqlite_heap_peak_bytes"), ("instructions", "instructions"),
                    ]
                    blocks.append(
                        .table(
                            header: counters.map(\.0), rows: [counters.map { RunFiles.results.field($0.1, of: c.summary) ?? "" }],
                            numeric: Set(counters.indices)))
                    var flagged = 0
                    for (i, st) in c.plans.enumerated() {
                        let bad = st.planLines.contains { PlanLine.isCostly($0) }
                        if bad { flagged += 1 }
                        blocks.append(.paragraph("Statement \(i + 1)\(bad ? " (scans or sorts)" : ""):"))
                        blocks.append(
                            .code(st.sql + (st.plan.isEmpty ? "" : "\n" + st.planLines.map { "  " + $0 }.joined(separator: "\n"))))
                        if bad, let a = advice[Self.adviceKey(v, st.sql)] {
                            blocks.append(.paragraph(a.summary))
                            if !a.indexes.isEmpty || !a.plan.isEmpty {
                                blocks.append(.code((a.indexes + a.plan.map { "  " + $0 }).joined(separator: "\n")))
                            }
                        }
                    }
                    let summary =
                        "\(v) · \(w) · n = \(n): \(Format.short(c.summary.medianMs)) ms, \(c.plans.count) statement(s)"
                        + (flagged > 0 ? ", \(flagged) scanning or sorting" : "")
                    doc.add(.anchor(Self.caseAnchor(CaseKey(variant: v, workload: w, size: n))))
                    doc.add(.details(summary: summary, blocks: blocks))
                }
            }
        }
    }

    /// The environment table's rows: SQLite, the machine, the build, the commit, the start.
    static func environmentRows(_ env: EnvironmentFingerprint) -> [[String]] {
        [
            ["SQLite", "\(env.sqliteVersion) (\(env.sqliteCompileOptions.count) compile options)"],
            ["machine", "\(env.cores) cores, \(env.memoryBytes / 1_048_576) MiB, \(env.os)"],
            ["build", "\(env.buildConfiguration), \(env.swiftVersion)"],
            ["commit", env.gitCommit.isEmpty ? "(unknown)" : String(env.gitCommit.prefix(12))],
            ["started", env.startedAt],
        ]
    }

    /// The anchor of a case's section: `case~V1+index~fetch-sorted~10000`.
    package static func caseAnchor(_ key: CaseKey) -> String {
        ReportDocument.anchorID(["case", key.variant, key.workload, String(key.size)])
    }

    /// What the sources claimed and what this run shows (claims.csv): a table of every claim,
    /// then each claim with its source and its measurement at each size, linked to its cases.
    private func addClaims(_ doc: inout ReportDocument) {
        guard !claims.isEmpty else { return }
        let headlines = claims.filter(\.headline)
        doc.add(.heading(1, "Claims"))
        doc.add(
            .paragraph(
                "What the source documents claim, checked on this run: the ratio case / against of the claim's metric, with a 95% bootstrap interval "
                    + "(exact for counts), and a verdict (rules in docs/claims.md). \(ClaimVerdict.summary(headlines.map(\.verdict)))."))
        doc.add(
            .table(
                header: ["claim", "source", "measured (95% interval)", "expected", "verdict"],
                rows: headlines.sorted { $0.verdict < $1.verdict }.map { r in
                    [
                        "[\(r.id)](#\(r.anchor))", "\(r.document.prefix(40))\(r.document.count > 40 ? "…" : "") (\(r.year))",
                        r.measuredText, r.expectedText, r.verdict.rawValue,
                    ]
                }, numeric: []))
        for r in headlines {
            doc.add(.anchor(r.anchor))
            doc.add(.heading(2, "\(r.id): \(r.verdict.rawValue)"))
            doc.add(.paragraph(r.statement))
            doc.add(
                .paragraph(
                    "Source: \(r.document) (\(r.year)), \(r.location). Expected: \(r.expectedText), within a factor \(Format.short(r.tolerance)) of its magnitude."
                ))
            let rows = claims.filter { $0.id == r.id && $0.size != nil }
            guard !rows.isEmpty else {
                doc.add(.paragraph("Not measured: this run lacks \(r.subject) or \(r.against) at every size."))
                continue
            }
            let basis = r.basis != r.metric ? " (judged on \(r.basis): the run counted instructions)" : ""
            let decided =
                r.verdict == .undecided
                ? " Undecided: the interval reaches across a verdict boundary"
                    + (r.repetitions.map { " after \($0) repetitions a case" } ?? "") + "."
                : (r.repetitions.map { " The interval is from \($0) repetitions a case." }
                    ?? " Decided on \(r.basisText).")
            doc.add(
                .paragraph(
                    "Case: \(r.subject); against: \(r.against); metric: \(r.metric)\(basis).\(decided)"
                        + (r.change.isEmpty ? "" : " Over the sizes: \(r.change).")))
            doc.add(
                .table(
                    header: ["n", "case", "against", "ratio (95% interval)", "verdict"],
                    rows: rows.map { m in
                        let n = m.size!
                        func link(_ value: Double?, _ side: String) -> String {
                            let parts = side.split(separator: " ", maxSplits: 1).map(String.init)
                            let text = value.map(ClaimRecord.valueText) ?? "-"
                            guard parts.count == 2 else { return text }
                            return "[\(text)](#\(Self.caseAnchor(CaseKey(variant: parts[0], workload: parts[1], size: n))))"
                        }
                        return [
                            Format.number(Double(n)) + (m.headline ? " (headline)" : ""), link(m.subjectValue, r.subject),
                            link(m.againstValue, r.against), m.measuredText, m.verdict.rawValue,
                        ]
                    }, numeric: [0, 1, 2]))
        }
    }

    /// A caption for a plot from its file name.
    static func caption(_ path: String, scenario: String) -> String {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let rest = name.hasPrefix(scenario + "-") ? String(name.dropFirst(scenario.count + 1)) : name
        if rest == "growth" {
            return "Median time against size (log-log), one panel per workload; crosses mark where two variants change order"
        }
        if rest == "memory-rss" {
            return
                "The resident memory a repetition adds against size, per workload (rss_growth_kb: the case's own, where the process's peak would include the other interleaved cases' state)"
        }
        if rest == "memory-heap" {
            return
                "SQLite's heap high-water mark during a case against size, per workload: process-wide, so it includes the page caches of the other interleaved cases' connections (it levels off where their caches fill)"
        }
        if rest.hasSuffix("-percentiles") {
            return
                "Latency distribution at n = \(rest.dropLast("-percentiles".count).split(separator: "-").first ?? ""): every query's latency by percentile"
        }
        if rest.hasSuffix("-reads") { return "Read latencies (p50, p90, p99, max): \(rest.dropLast(6))" }
        if Int(rest) != nil { return "Median time per workload and variant at n = \(rest)" }
        return rest
    }
}
