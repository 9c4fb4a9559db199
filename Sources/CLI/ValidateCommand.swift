import Foundation
import ArgumentParser
import SchemaLab
import SchemaLabCoreData
import SchemaLabEngine

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Checks scenario files without running them.",
        discussion: "Prints one line per file, starting with its path: `file: ok (...)`, or `file: $.json.path: what is wrong`; exits 2 if any file has a problem."
    )

    @Argument(help: "Scenario files.")
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one scenario file") }
    }

    func run() throws {
        var bad = 0
        for f in files {
            if Self.isFormatSchema(f) {
                print("\(f): the scenario format's JSON Schema, not a scenario (skipped)")
                continue
            }
            do {
                let plan = try ScenarioPlan(ScenarioDecoder.load(path: f))
                let s = plan.scenario
                print("\(f): ok (\(s.variants.count) variants x \(s.workloads.count) workloads x \(s.dataset.counts.count) sizes)")
            } catch let e as ScenarioError {
                note("\(e)")
                bad += 1
            }
        }
        if bad > 0 { throw ExitCode(2) }
    }

    /// `scenarios/schema.json` sits beside the scenarios, so `validate scenarios/*.json` names it:
    /// a file called schema.json that declares itself a JSON Schema is skipped.
    static func isFormatSchema(_ path: String) -> Bool {
        guard (path as NSString).lastPathComponent == "schema.json",
              let data = FileManager.default.contents(atPath: path) else { return false }
        return String(decoding: data.prefix(400), as: UTF8.self).contains("json-schema.org/draft/2020-12/schema")
    }
}
