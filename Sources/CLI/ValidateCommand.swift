import ArgumentParser
import SchemaLab

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Checks scenario files without running them.",
        discussion: "Prints one line per file; exits 2 if any file has a problem."
    )

    @Argument(help: "Scenario files.")
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one scenario file") }
    }

    func run() throws {
        var bad = 0
        for f in files {
            do {
                let plan = try ScenarioPlan(ScenarioDecoder.load(path: f))
                let s = plan.scenario
                print("\(f): ok (\(s.variants.count) variants x \(s.workloads.count) workloads x \(s.dataset.counts.count) sizes)")
            } catch let e as ScenarioError {
                note("schemalab: \(e)")
                bad += 1
            }
        }
        if bad > 0 { throw ExitCode(2) }
    }
}
