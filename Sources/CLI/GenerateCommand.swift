import ArgumentParser
import Foundation
import SchemaLab

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

    func validate() throws {
        if let size, size < 1 { throw ValidationError("--size must be at least 1") }
        if chunk < 1 { throw ValidationError("--chunk must be at least 1") }
    }

    func run() throws {
        let plan: ScenarioPlan
        do { plan = try ScenarioPlan(ScenarioDecoder.load(path: scenario)) } catch let e as ScenarioError { throw fail(e.description, code: 2) }
        let dataset = plan.scenario.dataset
        let count = size ?? dataset.counts.max() ?? 0
        HeapProbe.trim()
        let startRSS = MemoryProbe.residentKB()
        let resetOK = MemoryProbe.resetPeak()
        let t0 = Clock.wallNanoseconds()
        var stream = DataStream(spec: dataset, count: count, chunkSize: chunk)
        var digest = StreamDigest()
        var chunks = 0
        stream.forEachChunk { c in
            digest.add(c)
            chunks += 1
        }
        let seconds = Double(Clock.wallNanoseconds() - t0) / 1e9
        let peak = resetOK ? MemoryProbe.peakResidentKB() : -1
        print("rows: \(count)")
        print("chunks: \(chunks) (\(stream.streams ? "streamed, \(chunk) rows each" : "not streamed: the data set has related entries"))")
        print("digest: \(digest.hex)")
        print(String(format: "seconds: %.3f", seconds))
        if peak >= 0 && startRSS >= 0 {
            print("peak_rss_kb: \(peak)")
            print("rss_growth_kb: \(peak - startRSS)")
        }
    }
}
