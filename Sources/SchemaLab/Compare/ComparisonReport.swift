import SchemaLabEngine

/// A `RunComparison` for people: a table for a CI log, or Markdown for a pull request.
package struct ComparisonReport: Sendable {
    package let comparison: RunComparison
    package let baseline: String
    package let run: String
    /// The claims whose verdict changed.
    package let claims: ClaimChanges?

    package init(comparison: RunComparison, baseline: String, run: String, claims: ClaimChanges? = nil) {
        self.comparison = comparison
        self.baseline = baseline
        self.run = run
        self.claims = claims
    }

    /// The claim findings as lines ("REGRESSED: claim x n=500: holds -> reversed ...").
    private var claimLines: [String] {
        guard let claims else { return [] }
        var out = claims.changes.map { "\($0.verdict == .same ? "" : $0.verdict.rawValue + ": ")\($0.message)" }
        if claims.unmatched > 0 {
            out.append("\(claims.unmatched) claim measurement(s) have no verdict in the baseline (made before claims.csv, or new)")
        }
        return out
    }

    private var header: String {
        let o = comparison.options
        return
            "\(baseline) -> \(run): time changes count when p < \(o.alpha) (Mann-Whitney U) and larger than \(Format.percent(o.minimumEffect).dropFirst()), "
            + "after dividing the run's times by the machine factor x\(Format.ratio(comparison.machineFactor)) (the median ratio over all cases); "
            + "instructions beyond \(Format.percent(o.instructionTolerance).dropFirst())"
    }

    private var summary: String {
        let c = comparison.cases
        func n(_ v: RunComparison.Verdict) -> Int { c.filter { $0.verdict == v }.count }
        var s = "\(c.count) cases: \(n(.regressed)) regressed, \(n(.improved)) improved, \(n(.changed)) changed, \(n(.same)) ~"
        if !comparison.missing.isEmpty {
            let label =
                comparison.missingFails
                ? "MISSING from the run (a regression, unless missing cases are allowed)" : "not in the run (allowed)"
            s += "; \(comparison.missing.count) \(label): \(comparison.missing.map(\.description).joined(separator: ", "))"
        }
        if !comparison.added.isEmpty { s += "; not in the baseline: \(comparison.added.map(\.description).joined(separator: ", "))" }
        if let claims, !claims.changes.isEmpty {
            let worse = claims.changes.filter { $0.verdict == .regressed }.count
            s += "; \(claims.changes.count) claim verdict(s) changed, \(worse) gated"
        }
        return s
    }

    /// The plain-text table, with each case's findings under it.
    package var text: String {
        let rows = comparison.cases.map { c -> [String] in
            [
                "\(c.key.variant) \(c.key.workload) n=\(c.key.size)", Format.short(c.baseMs), Format.short(c.newMs),
                c.time == .same ? "~" : Format.percent(c.change), Format.pValue(c.p), c.verdict.rawValue,
            ]
        }
        let head = ["case", "base ms", "new ms", "time*", "p", "verdict"]
        var widths = head.map(\.count)
        for r in rows { for (i, v) in r.enumerated() { widths[i] = max(widths[i], v.count) } }
        func line(_ r: [String]) -> String {
            r.enumerated().map { i, v in
                i == 0
                    ? v.padding(toLength: widths[i], withPad: " ", startingAt: 0) : String(repeating: " ", count: widths[i] - v.count) + v
            }
            .joined(separator: "  ")
        }
        var out = [header, "", line(head)]
        for (c, r) in zip(comparison.cases, rows) {
            out.append(line(r))
            for f in c.findings { out.append("    \(f.verdict == .same ? "" : f.verdict.rawValue + ": ")\(f.message)") }
        }
        if !claimLines.isEmpty { out += ["", "Claims:"] + claimLines.map { "    " + $0 } }
        out += ["", summary]
        return out.joined(separator: "\n") + "\n"
    }

    /// The same as Markdown: a summary, a table, and the findings.
    package var markdown: String {
        var out = [
            "### SchemaLab: \(baseline) -> \(run)", "", summary, "", header, "",
            "| case | base ms | new ms | time | p | verdict |", "|---|---:|---:|---:|---:|---|",
        ]
        for c in comparison.cases {
            out.append(
                "| \(c.key.variant) \(c.key.workload) n=\(c.key.size) | \(Format.short(c.baseMs)) | \(Format.short(c.newMs)) | "
                    + "\(c.time == .same ? "~" : Format.percent(c.change)) | \(Format.pValue(c.p)) | \(c.verdict == .regressed ? "**REGRESSED**" : c.verdict.rawValue) |"
            )
        }
        let noted = comparison.cases.filter { !$0.findings.isEmpty }
        if !noted.isEmpty {
            out += ["", "Findings:", ""]
            for c in noted {
                for f in c.findings {
                    out.append(
                        "- `\(c.key.variant) \(c.key.workload) n=\(c.key.size)` \(f.verdict.rawValue): \(f.message.replacingOccurrences(of: "|", with: "\\|"))"
                    )
                }
            }
        }
        if !claimLines.isEmpty { out += ["", "Claims:", ""] + claimLines.map { "- " + $0.replacingOccurrences(of: "|", with: "\\|") } }
        return out.joined(separator: "\n") + "\n"
    }
}
