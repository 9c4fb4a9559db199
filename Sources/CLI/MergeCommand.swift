import ArgumentParser
import Foundation
import SchemaLab

/// `schemalab merge SHARD... --out DIR`: joins the directories of `run --shard i/n` into one run.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Joins the shard directories of one scenario (run --shard I/N) into one run directory.",
        discussion: """
            Every shard must be complete, of the same scenario file (SHA-256) and settings, and \
            from the same environment (SQLite version and compile options, CPU count, build \
            configuration); shards 1 to N must all be there. The result checks (reference_check, \
            agreement_check) are computed again over every case.
            """
    )

    @Argument(help: "The shard directories.")
    var shards: [String]

    @Option(name: .long, help: "The merged run directory to write (it must not exist, unless --replace).")
    var out: String

    @Flag(name: .long, help: "Replace an existing output directory.")
    var replace = false

    func run() throws {
        try perform { () throws(OperationError) in
            let merged = try ShardMerge.merge(shards: shards, into: out, replace: replace)
            print("\(out): \(merged.records.count) cases from \(shards.count) shard(s)")
        }
    }
}
