import ArgumentParser
import Foundation
import SchemaLab
import SchemaLabSQLite
import SchemaLabCoreData
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

    @Option(name: .long, help: "Also write the data into a new Core Data-shaped store at this path (through the context's save path, as a run fills its stores).")
    var store: String?

    @Option(name: .long, help: "With --store: the variant whose schema the store has (default: the scenario's first).")
    var variant: String?

    func validate() throws {
        if let size, size < 1 { throw ValidationError("--size must be at least 1") }
        if chunk < 1 { throw ValidationError("--chunk must be at least 1") }
        if variant != nil && store == nil { throw ValidationError("--variant goes with --store") }
    }

    func run() throws {
        let plan: ScenarioPlan
        do { plan = try ScenarioPlan(ScenarioDecoder.load(path: scenario)) } catch let e as ScenarioError { throw fail(e.description, code: 2) }
        let dataset = plan.scenario.dataset
        let count = size ?? dataset.counts.max() ?? 0
        if let store { return try makeStore(store, plan: plan, count: count) }
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

    private func makeStore(_ path: String, plan: ScenarioPlan, count: Int) throws {
        guard !FileManager.default.fileExists(atPath: path) else { throw fail("\(path) exists: the store is written to a new file", code: 2) }
        let name = variant ?? plan.scenario.variants[0].name
        guard plan.scenario.variants.contains(where: { $0.name == name }) else {
            throw fail("no variant '\(name)' in \(scenario) (has: \(plan.scenario.variants.map(\.name).joined(separator: ", ")))", code: 2)
        }
        var options = RunOptions(workDirectory: "")
        options.fillChunkSize = chunk
        let fill: FillMeasurement
        do { fill = try LabRunner(plan: plan, options: options).fillStore(path: path, variant: name, size: count) } catch {
            Store.remove(path: path)
            throw fail("writing \(path): \(error)", code: 1)
        }
        print("wrote \(path): variant \(name), \(count) rows of \(plan.scenario.dataset.entity)")
        print(String(format: "seconds: %.3f", fill.milliseconds / 1000))
        print("store_bytes: \(fill.storeBytes)")
    }
}
