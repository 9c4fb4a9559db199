import Foundation
import SchemaLabEngine

/// `schemalab validate FILE...`: each scenario file decoded and resolved for every variant,
/// without running anything.
package enum ScenarioValidation {
    /// Prints `FILE: ok (...)` for each valid file and notes each error (one line, with its
    /// file and JSON path); returns how many files do not validate. `scenarios/schema.json`,
    /// the format's JSON Schema, is skipped.
    package static func validate(_ files: [String], console: any Console) throws(OperationError) -> Int {
        var bad = 0
        for file in files {
            if isFormatSchema(file) {
                console.print("\(file): the scenario format's JSON Schema, not a scenario (skipped)")
                continue
            }
            do {
                let plan = try ScenarioPlan(ScenarioDecoder.load(path: file))
                let scenario = plan.scenario
                for warning in plan.warnings { console.note(warning) }
                console.print(
                    "\(file): ok (\(scenario.variants.count) variants x \(scenario.workloads.count) workloads x \(scenario.dataset.counts.count) size\(scenario.dataset.counts.count == 1 ? "" : "s"))"
                )
            } catch let error as ScenarioError {
                console.note("\(error)")
                bad += 1
            } catch {
                throw OperationError.from(error)
            }
        }
        return bad
    }

    /// `scenarios/schema.json` sits beside the scenarios, so `validate scenarios/*.json` names it:
    /// a file called schema.json that declares itself a JSON Schema is skipped.
    package static func isFormatSchema(_ path: String) -> Bool {
        guard (path as NSString).lastPathComponent == "schema.json",
            let data = FileManager.default.contents(atPath: path)
        else { return false }
        return String(decoding: data.prefix(400), as: UTF8.self).contains("json-schema.org/draft/2020-12/schema")
    }
}
