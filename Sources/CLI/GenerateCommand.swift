import ArgumentParser
import Foundation
import SchemaLab
import SchemaLabEngine

/// `schemalab generate SCENARIO --size N`: generates a scenario's data set the way a run
/// fills its stores (a chunk at a time) without writing it anywhere, and prints its digest,
/// how long it took and the memory it needed.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generates a scenario's data set chunk by chunk and prints its digest, time and peak memory.",
        discussion: """
            The data set is the one `run` fills the stores with: the same rows for every variant, \
            from the scenario's seed. It streams a chunk at a time (--chunk rows), so the memory it \
            needs does not grow with --size; a data set with `related` entries is generated whole. \
            Equal digests mean equal data (whatever the chunk size).
            """
    )

    @Argument(help: "The scenario file.")
    var scenario: String

    @Option(name: .long, help: "Rows to generate (default: the scenario's largest size).")
    var size: Int?

    @Option(name: .long, help: "Rows per chunk.")
    var chunk = DataStream.defaultChunkSize

    @Option(
        name: .long,
        help:
            "Also write the data into a new Core Data-shaped store at this path (through the context's save path, as a run fills its stores)."
    )
    var store: String?

    @Option(name: .long, help: "With --store: the variant whose schema the store has (default: the scenario's first).")
    var variant: String?

    /// Bad option values are bad input: exit 2 like a bad scenario (ArgumentParser's own errors exit 64).
    func validate() throws {
        guard !helpRequested else { return }
        if let size, size < 1 { throw fail("--size must be at least 1", code: 2) }
        if chunk < 1 { throw fail("--chunk must be at least 1", code: 2) }
        if variant != nil && store == nil { throw fail("--variant goes with --store (the variant of the store to write)", code: 2) }
    }

    func run() throws {
        var generation = DataGeneration(scenario: scenario)
        generation.size = size
        generation.chunk = chunk
        generation.store = store
        generation.variant = variant
        try perform { () throws(OperationError) in try generation.generate(console: TerminalConsole()) }
    }
}
