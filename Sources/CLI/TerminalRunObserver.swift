import Foundation
import SchemaLab
import SchemaLabEngine

/// A run as the terminal shows it: the progress line, a line per store filled and per case
/// measured (`  V1 fetch-sorted n=1000: median 1.234 ms, 5 reps, 3 statements`), each failed
/// case, and what the run leaves out or measures again. `quiet` keeps only the failures.
final class TerminalRunObserver: RunObserver {
    let console: TerminalConsole
    let quiet: Bool
    /// True when the run copies an existing store instead of filling one.
    private var copiesStore = false
    /// The line that opens the run, once its cases are known.
    var startLine: (RunPlan) -> String? = { _ in nil }

    init(console: TerminalConsole, quiet: Bool) {
        self.console = console
        self.quiet = quiet
    }

    func runWillStart(_ plan: RunPlan) throws {
        copiesStore = plan.options.existingStore != nil
        if let line = startLine(plan) { console.note(line) }
        for warning in plan.warnings { console.note("schemalab: " + warning) }
        if !plan.skippedWorkloads.isEmpty && !quiet {
            console.note("schemalab: --store: skipping the workloads that write: \(plan.skippedWorkloads.joined(separator: ", "))")
        }
    }

    func runDidProgress(_ progress: RunProgress) {
        if !quiet { console.progress(progress) }
    }

    func runDidFill(_ fill: FillMeasurement) throws {
        guard !quiet else { return }
        let mb = fill.peakRSSKB >= 0 ? String(format: ", peak resident %.1f MB", Double(fill.peakRSSKB) / 1024) : ""
        let verb = copiesStore ? "copied the store for" : "filled"
        console.note(String(format: "  %@ %@ n=%d in %.2f s%@", verb, fill.variant, fill.size, fill.milliseconds / 1000, mb))
    }

    func runDidFinish(_ result: CaseResult) throws {
        guard !quiet else { return }
        let times = result.multiplier > 1 ? " (\(result.multiplier) runs per sample)" : ""
        console.note(
            "  \(result.variant) \(result.workload) n=\(result.size): median \(Format.ms(result.wall.median)) ms, \(result.samples.count) reps\(times), \(result.statements) statements"
        )
    }

    func runDidFail(_ key: CaseKey, _ failure: CaseFailure) throws {
        console.note("schemalab: case \(key) failed: \(failure.message)" + (failure.sql.map { " - while executing `\($0)`" } ?? ""))
    }

    func runWillMeasureAgain(_ cases: [CaseKey], round: Int, reason: String) {
        console.note("schemalab: " + reason)
    }
}
