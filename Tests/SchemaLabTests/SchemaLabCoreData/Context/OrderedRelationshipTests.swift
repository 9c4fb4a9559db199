import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
@testable import SchemaLab
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// Ordered relationships stored as Core Data stores them: `Z_FOK_` columns, keys 1,024 apart
/// from 2,048, kept where they can stay, renumbered only when a gap is full.
@Suite("Ordered relationships: Z_FOK_ columns and their keys")
struct OrderedRelationshipTests {
    @Test("Order keys: fresh, between neighbours, before the first, after the last, a move, a full gap")
    func keys() {
        #expect(OrderKeys.fresh(3) == [2048, 3072, 4096])
        #expect(OrderKeys.assign([0, 0]) == [2048, 3072])
        // One new member between two: the others keep their keys.
        #expect(OrderKeys.assign([2048, 0, 3072]) == [2048, 2560, 3072])
        #expect(OrderKeys.assign([0, 2048, 3072]) == [1024, 2048, 3072])
        #expect(OrderKeys.assign([2048, 3072, 0]) == [2048, 3072, 4096])
        // The last moved to the front: one key rewritten.
        #expect(OrderKeys.assign([4096, 2048, 3072]) == [1024, 2048, 3072])
        // No room between 2048 and 2049: everything afresh.
        #expect(OrderKeys.assign([2048, 0, 2049]) == [2048, 3072, 4096])
        #expect(OrderKeys.increasingRun([5, 1, 2, 9, 3, 4]) == [1, 2, 4, 5])
    }

    static let scenario = """
        {"format": 1, "name": "ord",
         "variants": [{"name": "ordered", "entities": [
           {"name": "Playlist", "attributes": [{"name": "name", "type": "string"}],
            "relationships": [{"name": "songs", "destination": "Song", "toMany": true, "ordered": true, "inverse": "playlist", "deleteRule": "cascade"},
                              {"name": "tags", "destination": "Tag", "toMany": true, "ordered": true, "inverse": "playlists"}]},
           {"name": "Song", "attributes": [{"name": "title", "type": "string"}],
            "relationships": [{"name": "playlist", "destination": "Playlist", "inverse": "songs"}]},
           {"name": "Tag", "attributes": [{"name": "label", "type": "string"}],
            "relationships": [{"name": "playlists", "destination": "Playlist", "toMany": true, "inverse": "tags"}]}]},
           {"name": "position", "entities": [
           {"name": "Playlist", "attributes": [{"name": "name", "type": "string"}],
            "relationships": [{"name": "songs", "destination": "Song", "toMany": true, "inverse": "playlist", "deleteRule": "cascade"},
                              {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "playlists"}]},
           {"name": "Song", "attributes": [{"name": "title", "type": "string"}, {"name": "position", "type": "integer32"}],
            "relationships": [{"name": "playlist", "destination": "Playlist", "inverse": "songs"}]},
           {"name": "Tag", "attributes": [{"name": "label", "type": "string"}],
            "relationships": [{"name": "playlists", "destination": "Playlist", "toMany": true, "inverse": "tags"}]}]}],
         "dataset": {"seed": 1, "entity": "Playlist", "counts": [12], "fields": [
           {"field": "name", "generator": {"kind": "text", "minLength": 3, "maxLength": 8}}],
           "related": [{"relationship": "songs", "fanOut": {"kind": "uniformInt", "min": 2, "max": 6},
             "fields": [{"field": "title", "generator": {"kind": "text", "minLength": 3, "maxLength": 8}},
                        {"field": "position", "generator": {"kind": "position"}, "optional": true}]},
             {"relationship": "tags", "fanOut": {"kind": "uniformInt", "min": 0, "max": 3},
              "pool": {"count": 10, "fields": [{"field": "label", "generator": {"kind": "text", "minLength": 3, "maxLength": 8}}]}}]},
         "workloads": [
           {"name": "read", "kind": "reorder", "relationship": "songs", "operation": "read", "count": 5, "positionKey": "position"},
           {"name": "insert-middle", "kind": "reorder", "relationship": "songs", "operation": "insertMiddle", "count": 5, "positionKey": "position"},
           {"name": "move", "kind": "reorder", "relationship": "songs", "operation": "move", "count": 5, "positionKey": "position"},
           {"name": "remove", "kind": "reorder", "relationship": "songs", "operation": "remove", "count": 5, "positionKey": "position"},
           {"name": "append", "kind": "reorder", "relationship": "songs", "operation": "append", "count": 5, "positionKey": "position"}]}
        """

    @Test("The columns: Z_FOK_<inverse> in the destination's table, Z_FOK_<member column> in a join table; the fault reads in order")
    func storage() throws {
        let model = try TestSupport.decode(Self.scenario).models[0]
        let ddl = SchemaDDL(model: model).statements
        #expect(
            ddl.contains(
                "CREATE TABLE ZSONG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPLAYLIST INTEGER, Z_FOK_PLAYLIST INTEGER, ZTITLE VARCHAR )"
            ))
        #expect(
            ddl.contains(
                "CREATE TABLE Z_1TAGS ( Z_1PLAYLISTS INTEGER, Z_3TAGS INTEGER, Z_FOK_3TAGS INTEGER, PRIMARY KEY (Z_1PLAYLISTS, Z_3TAGS) )"))
        let playlist = model.entity("Playlist")!
        let fetch = FetchSQL(model: model, entity: playlist)
        #expect(
            fetch.toManyFault(playlist.relationship("songs")!)
                == "SELECT 0, t0.Z_PK, t0.Z_FOK_PLAYLIST FROM ZSONG t0 WHERE t0.ZPLAYLIST = ? ORDER BY t0.Z_FOK_PLAYLIST")
        #expect(
            fetch.toManyFault(playlist.relationship("tags")!)
                == "SELECT 0, t0.Z_PK, t1.Z_FOK_3TAGS FROM Z_1TAGS t1 JOIN ZTAG t0 ON t0.Z_PK = t1.Z_3TAGS WHERE t1.Z_1PLAYLISTS = ? ORDER BY t1.Z_FOK_3TAGS"
        )
    }

    @Test("A prefetch reads each ordered list as its fault does: the same members in order, with the same order keys")
    func prefetchKeepsOrderKeys() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/ord.json"
        try Self.scenario.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try TestSupport.runCLI(["generate", file, "--store", dir + "/o.sqlite", "--variant", "ordered"]).status == 0)
        let model = try TestSupport.decode(Self.scenario).models[0]
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
        try Self.scenario.write(toFile: file, atomically: true, encoding: .utf8)
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
