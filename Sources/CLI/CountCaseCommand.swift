import ArgumentParser
import Foundation
import SchemaLab
import SchemaLabEngine

/// `schemalab count-case`: one run of one case's timed region, for `run --instructions` to
/// count under callgrind (see ``InstructionCounter``). Not meant to be run by hand.
struct CountCaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count-case",
        abstract: "Runs one case's timed region once (run --instructions runs it under callgrind).",
        shouldDisplay: false
    )

    @Argument(help: "The scenario file.")
    var scenario: String

    @Option(name: .long, help: "The variant.")
    var variant: String

    @Option(name: .long, help: "The workload.")
    var workload: String

    @Option(name: .long, help: "The data set size.")
    var size: Int

    @Option(name: .long, help: "The filled store of the variant and size (for workloads that read or change it).")
    var store: String?

    @Option(name: .long, help: "A directory for the case's own stores.")
    var work: String

    @Option(name: .long, help: "Warm-up runs before the counted one.")
    var warmup = 1

    @Option(name: .long, help: "The injected slowdown (run --inject-slowdown).")
    var slowdown = 1.0

    func run() throws {
        let plan: ScenarioPlan
        do { plan = try ScenarioPlan(ScenarioDecoder.load(path: scenario)) } catch let e as ScenarioError { throw fail(e.description, code: 2) }
        do {
            var counted = CountedCase(plan: plan, variant: variant, workload: workload, size: size, filledStore: store,
                                      workDirectory: work, warmup: warmup)
            counted.slowdown = slowdown
            try counted.run()
        } catch let e as ScenarioError {
            throw fail(e.description, code: 2)
        } catch {
            throw fail("\(error)", code: 1)
        }
    }
}
