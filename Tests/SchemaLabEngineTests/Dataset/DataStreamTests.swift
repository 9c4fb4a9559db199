import Foundation
import Testing
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

@Suite("Streaming data generation")
struct DataStreamTests {
    func plan(_ name: String) throws -> ScenarioPlan {
        try ScenarioPlan(ScenarioDecoder.load(path: TestSupport.packageRoot + "/scenarios/\(name).json"))
    }

    func streamedDigest(_ spec: DatasetSpec, count: Int, chunk: Int) -> (digest: String, chunks: Int, rows: Int, streams: Bool) {
        var stream = DataStream(spec: spec, count: count, chunkSize: chunk)
        var digest = StreamDigest()
        var chunks = 0, rows = 0
        stream.forEachChunk { c in
            digest.add(c)
            chunks += 1
            rows += c.count
        }
        return (digest.hex, chunks, rows, stream.streams)
    }

    @Test(
        "Chunks of any size concatenate to the data set generated at once (sequences, choices, locations, bytes, derived fields)",
        arguments: [("photos-matrix", 257), ("quakes-ingest", 257), ("posts-per-day", 257), ("photo-storage", 9), ("search", 257)])
    func chunksMatchWhole(_ name: String, _ count: Int) throws {
        let spec = try plan(name).scenario.dataset
        let whole = GeneratedData(spec: spec, count: count)
        for chunk in [1, 7, 100, count, 5_000] {
            let s = streamedDigest(spec, count: count, chunk: chunk)
            #expect(s.digest == whole.digest, "\(name), chunks of \(chunk)")
            #expect(s.rows == count)
            if s.streams { #expect(s.chunks == (count + chunk - 1) / chunk) }
        }
    }

    @Test("A data set with related entries is one chunk: the whole set, relationships included")
    func relatedIsWhole() throws {
        let spec = try plan("photo-tags").scenario.dataset
        #expect(!spec.related.isEmpty)
        let s = streamedDigest(spec, count: 300, chunk: 7)
        #expect(!s.streams)
        #expect(s.chunks == 1)
        #expect(s.digest == GeneratedData(spec: spec, count: 300).digest)
    }

    @Test("Bounding boxes sampled from a stream equal those from the whole data set")
    func boxesFromStream() throws {
        let p = try plan("posts-geo")
        let spec = try #require(p.scenario.workloads.compactMap(\.boxes).first)
        for count in [50_000, 1_000] {
            let whole = BoxSet(spec: spec, data: GeneratedData(spec: p.scenario.dataset, count: count))
            let streamed = BoxSet(spec: spec, stream: DataStream(spec: p.scenario.dataset, count: count, chunkSize: 999))
            #expect(whole.boxes == streamed.boxes, "\(count) rows")
        }
    }

    @Test("A store filled chunk by chunk reads the same as one filled in one save, in every photo variant")
    func chunkedFillSameResults() throws {
        let p = try TestSupport.photosPlan()
        func results(chunk: Int) throws -> [String: String] {
            let dir = try TestSupport.temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            var options = RunOptions(sizes: [300], repetitions: 1, warmup: 0, workloads: ["fetch-sorted", "frc-sections"])
            options.fillChunkSize = chunk
            let observer = FillCollector()
            let runner = CaseScheduler(plan: p, options: options, workDirectory: dir)
            try runner.run(skipping: [], observer: observer)
            let fills = observer.fills, r = observer.results
            #expect(fills.count == p.scenario.variants.count)
            #expect(fills.allSatisfy { $0.streamed && $0.chunkRows == chunk && $0.size == 300 && $0.storeBytes > 0 })
            return Dictionary(uniqueKeysWithValues: r.map { ("\($0.variant) \($0.workload)", $0.signature.digest) })
        }
        let chunked = try results(chunk: 7)
        let once = try results(chunk: 10_000)
        #expect(chunked.count == 12)
        #expect(chunked == once)
    }

    @Test("A context breaks its objects' reference cycles when it goes: a V3 photo and its meta are freed")
    func contextReleasesObjects() throws {
        let p = try TestSupport.photosPlan()
        let model = p.models.first { $0.variant == "V3" }!
        let mom = ManagedObjectModel(model)
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try Store.create(path: dir + "/store.sqlite", model: model)
        weak var photo: ManagedObject?
        weak var meta: ManagedObject?
        do {
            let context = ManagedObjectContext(store: store, objectModel: mom)
            try InsertWorkload.insertAll(GeneratedData(spec: p.scenario.dataset, count: 3), placement: p.placement(for: mom), into: context)
            try context.save()
            let fetched = try context.execute(FetchRequest(entity: mom.entity("Photo")!))
            let first = try fetched.object(at: 0)
            try context.fireFault(context.related(first, 0)!)
            photo = first
            meta = context.related(first, 0)
            #expect(meta.flatMap { context.related($0, 0) } === first)
        }
        #expect(photo == nil)
        #expect(meta == nil)
    }
}

/// Keeps the fills and results a run reports.
final class FillCollector: RunObserver {
    var fills: [FillMeasurement] = []
    var results: [CaseResult] = []
    func runDidFill(_ fill: FillMeasurement) throws { fills.append(fill) }
    func runDidFinish(_ result: CaseResult) throws { results.append(result) }
}
