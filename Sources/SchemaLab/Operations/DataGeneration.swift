import Foundation
import SchemaLabCoreData
import SchemaLabEngine
import SchemaLabSQLite

/// `schemalab generate SCENARIO`: a scenario's data set generated the way a run fills its
/// stores (a chunk at a time), with its digest, the time it took and the memory it needed;
/// or, with ``store``, written into a new Core Data-shaped store of one variant.
package struct DataGeneration {
    package var scenario: String
    /// Rows to generate (nil: the scenario's largest size).
    package var size: Int?
    /// Rows per chunk.
    package var chunk = DataStream.defaultChunkSize
    /// Also write the data into a new store at this path, through the context's save path.
    package var store: String?
    /// The store's variant (nil: the first).
    package var variant: String?

    package init(scenario: String) {
        self.scenario = scenario
    }

    /// Generates (and stores) the data set; prints `name: value` lines to `console`.
    package func generate(console: any Console) throws(OperationError) {
        let plan = try RecordedRun.loadPlan(scenario)
        let dataset = plan.scenario.dataset
        let count = size ?? dataset.counts.max() ?? 0
        if let store { return try makeStore(store, plan: plan, count: count, console: console) }
        HeapProbe.trim()
        let startRSS = MemoryProbe.residentKB()
        let resetOK = MemoryProbe.resetPeak()
        let start = Clock.wallNanoseconds()
        var stream = DataStream(spec: dataset, count: count, chunkSize: chunk)
        var digest = StreamDigest()
        var chunks = 0
        stream.forEachChunk { rows in
            digest.add(rows)
            chunks += 1
        }
        let seconds = Double(Clock.wallNanoseconds() - start) / 1e9
        let peak = resetOK ? MemoryProbe.peakResidentKB() : -1
        console.print("rows: \(count)")
        console.print(
            "chunks: \(chunks) (\(stream.streams ? "streamed, \(chunk) rows each" : "not streamed: the data set has related entries"))")
        console.print("digest: \(digest.hex)")
        console.print(String(format: "seconds: %.3f", seconds))
        if peak >= 0 && startRSS >= 0 {
            console.print("peak_rss_kb: \(peak)")
            console.print("rss_growth_kb: \(peak - startRSS)")
        }
    }

    private func makeStore(_ path: String, plan: ScenarioPlan, count: Int, console: any Console) throws(OperationError) {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw OperationError(.badInput, "\(path) exists: the store is written to a new file")
        }
        let name = variant ?? plan.scenario.variants[0].name
        guard plan.scenario.variants.contains(where: { $0.name == name }) else {
            throw OperationError(
                .badInput, "no variant '\(name)' in \(scenario) (has: \(plan.scenario.variants.map(\.name).joined(separator: ", ")))")
        }
        var options = RunOptions()
        options.fillChunkSize = chunk
        let fill: FillMeasurement
        do {
            fill = try CaseScheduler(plan: plan, options: options, workDirectory: "").fillStore(path: path, variant: name, size: count)
        } catch {
            Store.remove(path: path)
            throw OperationError(.failed, "writing \(path): \(error)")
        }
        console.print("wrote \(path): variant \(name), \(count) rows of \(plan.scenario.dataset.entity)")
        console.print(String(format: "seconds: %.3f", fill.milliseconds / 1000))
        console.print("store_bytes: \(fill.storeBytes)")
    }
}
