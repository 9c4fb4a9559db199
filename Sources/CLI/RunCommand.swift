import ArgumentParser
import Foundation
import SchemaLab

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Runs a scenario and writes results.csv, samples.csv, plans.csv and env.json.",
        discussion: "Nothing is written until every case has run; the files then appear in --out in one step."
    )

    @Argument(help: "The scenario file (JSON).")
    var scenario: String

    @Option(name: .long, help: "The output directory. It must not exist, unless --replace is given.")
    var out: String

    @Flag(name: .long, help: "Replace an existing output directory (the old one is kept as <out>.previous).")
    var replace = false

    @Option(name: .long, parsing: .upToNextOption, help: "Data set sizes to run instead of the scenario's counts.")
    var size: [Int] = []

    @Option(name: .long, help: "Measured repetitions per case (overrides the scenario).")
    var reps: Int?

    @Option(name: .long, help: "Warm-up runs per case (overrides the scenario).")
    var warmup: Int?

    @Option(name: .long, help: "Only these variants (comma-separated names).")
    var variants: String?

    @Option(name: .long, help: "Only these workloads (comma-separated names).")
    var workloads: String?

    @Flag(name: .long, help: "Do not print the summary table.")
    var quiet = false

    /// Bad options are bad input: exit 2 like a bad scenario (ArgumentParser's own errors exit 64).
    func validate() throws {
        if size.contains(where: { $0 <= 0 }) { throw fail("--size takes positive counts", code: 2) }
        if let reps, reps < 1 { throw fail("--reps must be at least 1", code: 2) }
        if let warmup, warmup < 0 { throw fail("--warmup must be 0 or more", code: 2) }
    }

    func run() throws {
        let plan: ScenarioPlan
        do {
            plan = try ScenarioPlan(ScenarioDecoder.load(path: scenario))
        } catch let e as ScenarioError {
            throw fail(e.description, code: 2)
        }
        let names = { (list: String?, all: [String], what: String) throws -> [String]? in
            guard let list else { return nil }
            let picked = list.split(separator: ",").map { String($0) }
            for p in picked where !all.contains(p) {
                throw fail("no \(what) '\(p)' in \(scenario) (has: \(all.joined(separator: ", ")))", code: 2)
            }
            return picked
        }
        let dir = OutputDirectory(path: out, replace: replace)
        do { try dir.checkWritable() } catch let e as OutputError { throw fail(e.message, code: 2) }
        let work = FileManager.default.temporaryDirectory.path + "/schemalab-\(ProcessInfo.processInfo.processIdentifier)"
        defer { try? FileManager.default.removeItem(atPath: work) }
        let options = RunOptions(
            sizes: size.isEmpty ? nil : size, repetitions: reps, warmup: warmup,
            variants: try names(variants, plan.scenario.variants.map(\.name), "variant"),
            workloads: try names(workloads, plan.scenario.workloads.map(\.name), "workload"),
            workDirectory: work)
        var runner = LabRunner(plan: plan, options: options)
        runner.progress = { note("  " + $0) }
        note("schemalab: \(plan.scenario.name) on SQLite \(SQLiteLibrary.version)")
        let results: [CaseResult]
        do {
            results = try runner.run()
        } catch let e as ScenarioError {
            throw fail(e.description, code: 2)
        } catch {
            throw fail("run failed: \(error)", code: 1)
        }
        let manifest = RunManifest(plan: plan, options: options)
        do {
            try dir.write(try ResultsFiles(results: results, manifest: manifest).files)
        } catch {
            throw fail("cannot write \(out): \(error)", code: 1)
        }
        if !quiet {
            print(SummaryTable.render(results, variants: manifest.variants, workloads: manifest.workloads))
        }
        let differing = results.filter { $0.referenceCheck == .differs || $0.agreementCheck == .differs }
        if !differing.isEmpty {
            note("schemalab: \(differing.count) case(s) returned a different result than they must (reference_check / agreement_check in results.csv)")
        }
        note("schemalab: wrote \(out)/results.csv, samples.csv, plans.csv, env.json")
    }
}
