import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
@testable import SchemaLab
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// Ordered to-many relationships in stores the built CLI generates and in its runs.
@Suite("Ordered relationships, end to end: generated stores and runs through the CLI")
struct OrderedRelationshipEndToEndTests {
    @Test("A prefetch reads each ordered list as its fault does: the same members in order, with the same order keys")
    func prefetchKeepsOrderKeys() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/ord.json"
        try OrderedPlaylistScenario.text.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try TestSupport.runCLI(["generate", file, "--store", dir + "/o.sqlite", "--variant", "ordered"]).status == 0)
        let model = try TestSupport.decode(OrderedPlaylistScenario.text).models[0]
        let store = try Store.open(path: dir + "/o.sqlite", model: model)
        let mom = ManagedObjectModel(model)
        let playlist = mom.entity("Playlist")!
        let name = try model.resolve(keyPath: "name", from: "Playlist")
        func lists(prefetch: Bool) throws -> [String] {
            let context = ManagedObjectContext(store: store, objectModel: mom)
            let paths = prefetch ? [[playlist.model.relationship("songs")!], [playlist.model.relationship("tags")!]] : []
            let request = try FetchRequest(entity: playlist, sortDescriptors: [(name, true)], batchSize: 0, prefetch: paths, predicate: nil)
            return try context.execute(request).allObjects().flatMap { owner in
                try (0..<playlist.toMany.count).map { index in
                    let members = try context.toMany(owner, index).map(\.objectID)
                    let keys = owner.orderKeys?[index] ?? []
                    #expect(keys.count == members.count, "a key per member of \(owner.objectID)'s list \(index)")
                    return "\(owner.objectID).\(index): \(members) \(keys)"
                }
            }
        }
        let faulted = try lists(prefetch: false)
        #expect(faulted.count == 24 && faulted.contains { !$0.hasSuffix(": [] []") })
        #expect(try lists(prefetch: true) == faulted)
    }

    @Test("End to end: a filled store numbers each list from 2,048; every edit agrees with the position variant; a move writes one key")
    func endToEnd() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/ord.json"
        try OrderedPlaylistScenario.text.write(toFile: file, atomically: true, encoding: .utf8)
        let store = dir + "/o.sqlite"
        #expect(try TestSupport.runCLI(["generate", file, "--store", store, "--variant", "ordered"]).status == 0)
        let db = try Database(path: store)
        let firsts = try db.rows(
            "SELECT MIN(Z_FOK_PLAYLIST), MAX(Z_FOK_PLAYLIST) - MIN(Z_FOK_PLAYLIST), COUNT(*) FROM ZSONG GROUP BY ZPLAYLIST", [])
        for row in firsts {
            #expect(row[0] == .integer(2048))
            #expect(row[1].integerValue == ((row[2].integerValue ?? 0) - 1) * 1024)
        }
        #expect(try db.scalar("SELECT COUNT(*) FROM Z_1TAGS WHERE Z_FOK_3TAGS IS NULL") == .integer(0))
        let run = try TestSupport.runCLI(["run", file, "--out", dir + "/run", "--reps", "1", "--warmup", "0", "--quiet"])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        let results = CSVWriter.parse(try String(contentsOfFile: dir + "/run/results.csv", encoding: .utf8))
        let col = { (n: String) in results[0].firstIndex(of: n)! }
        for row in results.dropFirst() where row[col("schema")] == "position" {
            #expect(row[col("reference_check")] == "same", "\(row[col("workload")])")
        }
        let move = results.first { $0[col("schema")] == "ordered" && $0[col("workload")] == "move" }!
        // One fetch, five list faults, then per list one UPDATE of the moved song's key.
        #expect(move[col("statements")] == "\(1 + 5 + 2 + 5)", "BEGIN, five UPDATEs, COMMIT: \(move[col("statements")])")
    }
}
