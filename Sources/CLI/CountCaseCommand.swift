import ArgumentParser
import Foundation
import SchemaLab
import SchemaLabEngine

/// `schemalab count-case`: one case's timed region run once, for `run --instructions` to
/// count under callgrind (``CallgrindCounter`` runs it with a ``CountRequest``'s arguments).
/// Not meant to be run by hand.
struct CountCaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count-case",
        abstract: "Runs one case's timed region once (run --instructions runs it under callgrind).",
        shouldDisplay: false
    )

    @Argument(
        parsing: .captureForPassthrough,
        help: "The case: SCENARIO --variant V --workload W --size N --work DIR [--warmup N] [--slowdown F] [--store FILE].")
    var request: [String] = []

    func run() throws {
        try perform { () throws(OperationError) in
            do { try CountedRepetition.main(arguments: request) } catch { throw OperationError.from(error) }
        }
    }
}
