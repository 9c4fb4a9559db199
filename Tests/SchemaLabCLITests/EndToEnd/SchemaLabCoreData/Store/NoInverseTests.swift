import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// A to-many relationship without an inverse, stored as Core Data stores it: a hidden to-one
/// key `Z<source number><NAME>` in the destination's table (not a join table).
@Suite("A to-many without an inverse: a hidden key in the destination's table")
struct NoInverseTests {
    static let scenario = """
        {"format": 1, "name": "noinv",
         "variants": [{"name": "A", "entities": [
           {"name": "Folder", "attributes": [{"name": "name", "type": "string"}],
            "relationships": [{"name": "notes", "destination": "Note", "toMany": true, "deleteRule": "cascade"}]},
           {"name": "Note", "attributes": [{"name": "title", "type": "string"}]}]}],
         "dataset": {"seed": 1, "entity": "Folder", "counts": [20], "fields": [
           {"field": "name", "generator": {"kind": "text", "minLength": 3, "maxLength": 8}}],
           "related": [{"relationship": "notes", "fanOut": {"kind": "uniformInt", "min": 0, "max": 4},
             "fields": [{"field": "title", "generator": {"kind": "text", "minLength": 3, "maxLength": 8}}]}]},
         "workloads": [{"name": "i", "kind": "insert"},
           {"name": "folders", "kind": "fetch", "sort": ["name"], "prefetch": ["notes"], "touchKeys": ["name", "notes.title"]},
           {"name": "del", "kind": "delete", "predicate": "name BEGINSWITH 'a'"}]}
        """

    @Test("The key, its index, the fault and the prefetch; the data set fills it; a cascade follows it")
    func hiddenKey() throws {
        let plan = try TestSupport.decode(Self.scenario)
        let model = plan.models[0]
        let ddl = SchemaDDL(model: model).statements
        #expect(
            ddl.contains("CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, Z1NOTES INTEGER, ZTITLE VARCHAR )"))
        #expect(ddl.contains("CREATE INDEX IF NOT EXISTS ZNOTE_Z1NOTES_INDEX ON ZNOTE (Z1NOTES)"))
        #expect(!ddl.contains { $0.contains("Z_1NOTES") }, "no join table")
        let notes = model.entity("Folder")!.relationship("notes")!
        #expect(
            FetchSQL(model: model, entity: model.entity("Folder")!).toManyFault(notes)
                == "SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE t0.Z1NOTES = ?")

        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/noinv.json"
        try Self.scenario.write(toFile: file, atomically: true, encoding: .utf8)
        let store = dir + "/n.sqlite"
        let generated = try TestSupport.runCLI(["generate", file, "--size", "20", "--store", store, "--variant", "A"])
        #expect(generated.status == 0, "\(generated.err)")
        let db = try Database(path: store)
        let linked = try db.scalar("SELECT COUNT(*) FROM ZNOTE WHERE Z1NOTES IN (SELECT Z_PK FROM ZFOLDER)").integerValue ?? 0
        let all = try db.scalar("SELECT COUNT(*) FROM ZNOTE").integerValue ?? -1
        #expect(linked > 0 && linked == all)
        let run = try TestSupport.runCLI(["run", file, "--out", dir + "/run", "--reps", "1", "--warmup", "0", "--quiet"])
        #expect(run.status == 0, "\(run.err)")
    }
}
