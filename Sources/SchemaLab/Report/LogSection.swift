import Foundation
import SchemaLabEngine

/// The report's opening for a scenario made from an app's SQLDebug log (`import --log`):
/// "Your log", each workload the log gave in order of device time, with what the log says it
/// cost on the device beside what it costs here in each variant, and its plan here.
///
/// It reads the workloads' `device` and `reason` from the scenario file the run names (env.json),
/// only when that file still has the SHA-256 the run measured.
package struct LogSection {
    /// The scenario's workloads that carry a device cost, in the scenario's order (device time).
    let workloads: [WorkloadSpec]

    /// The section of the run `manifest` describes, or nil when its scenario has no device costs
    /// (or is gone or changed since the run).
    package init?(manifest: RunManifest) {
        guard let scenario = try? ScenarioDecoder.load(path: manifest.scenarioFile), scenario.sha256 == manifest.scenarioSHA256
        else { return nil }
        let logged = scenario.workloads.filter { $0.device != nil }
        guard !logged.isEmpty else { return nil }
        workloads = logged
    }

    /// Adds the section to `doc`: a table by workload (device runs and seconds, the median here
    /// in all, and the median here per variant at the largest size), then per workload its plan in the first variant.
    package func add(to doc: inout ReportDocument, run: RunSnapshot, order: RunOrder) {
        guard let size = order.sizes.max() else { return }
        doc.add(.heading(1, "Your log"))
        doc.add(
            .paragraph(
                "The fetches of the app's log, in order of the time they took on the device (as the log reports it), "
                    + "each beside its median here at \(size) rows. A workload marked *logged SQL* runs the statement "
                    + "as the log shows it: the import could not rebuild its request (the reason is below)."))
        let header = ["workload", "how", "device runs", "device ms", "device rows"] + order.variants.map { "\($0) ms" }
        var rows: [[String]] = []
        for w in workloads {
            let d = w.device!
            var row = [
                w.name, w.kind == .sql ? "logged SQL" : "request", String(d.runs), d.seconds.map { Format.short($0 * 1000) } ?? "",
                d.rows.map(String.init) ?? "",
            ]
            for v in order.variants {
                row.append(run.cases[CaseKey(variant: v, workload: w.name, size: size)].map { Format.short($0.summary.medianMs) } ?? "")
            }
            rows.append(row)
        }
        doc.add(.table(header: header, rows: rows, numeric: Set(2..<header.count)))
        guard let first = order.variants.first else { return }
        var lines: [String] = []
        for w in workloads {
            guard let c = run.cases[CaseKey(variant: first, workload: w.name, size: size)], let statement = c.plans.first else { continue }
            let plan = statement.planLines.joined(separator: "; ")
            lines.append(
                "`\(w.name)` in \(first): \(plan.isEmpty ? "no plan recorded" : plan)" + (w.reason.map { " (logged SQL: \($0))" } ?? ""))
        }
        if !lines.isEmpty { doc.add(.list(lines)) }
    }
}
