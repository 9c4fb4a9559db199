import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
@testable import SchemaLab
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// Entity inheritance in a store the built CLI generates and a run of it.
@Suite("Entity inheritance, end to end: generate and run a hierarchy through the CLI")
struct InheritanceEndToEndTests {
    @Test("End to end: a data set of sub-entities, a batch delete and an object delete of one sub-entity agree and leave the others")
    func batchRequestsOnASubentity() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = """
            {"format": 1, "name": "items",
             "variants": [{"name": "wide", "entities": [
               {"name": "Item", "abstract": true, "attributes": [{"name": "title", "type": "string"}, {"name": "size", "type": "integer32"}]},
               {"name": "Note", "parent": "Item", "attributes": [{"name": "body", "type": "string"}]},
               {"name": "Photo", "parent": "Item", "attributes": [{"name": "width", "type": "integer32"}]}]}],
             "dataset": {"seed": 3, "entity": "Note", "counts": [60], "fields": [
               {"field": "entity", "generator": {"kind": "choice", "values": ["Note", "Photo"]}},
               {"field": "title", "generator": {"kind": "text", "minLength": 3, "maxLength": 9}},
               {"field": "size", "generator": {"kind": "uniformInt", "min": 0, "max": 9}},
               {"field": "body", "generator": {"kind": "text", "minLength": 3, "maxLength": 9}},
               {"field": "width", "generator": {"kind": "uniformInt", "min": 1, "max": 9}}]},
             "workloads": [
               {"name": "batch", "kind": "batchDelete", "entity": "Photo", "predicate": "#size > 4"},
               {"name": "objects", "kind": "delete", "entity": "Photo", "predicate": "#size > 4", "agreesWith": "batch"},
               {"name": "sections", "kind": "fetchedResults", "entity": "Item", "sort": ["size", "title"], "sectionKey": "size"}]}
            """
        let file = dir + "/items.json"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        // Each row's values go to its own entity's attributes (the entity field is no attribute's).
        #expect(try TestSupport.runCLI(["generate", file, "--store", dir + "/i.sqlite", "--variant", "wide"]).status == 0)
        let db = try Database(path: dir + "/i.sqlite")
        #expect(try db.scalar("SELECT COUNT(*) FROM ZITEM WHERE ZTITLE IN ('Note', 'Photo') OR ZTITLE IS NULL") == .integer(0))
        #expect(try db.scalar("SELECT COUNT(*) FROM ZITEM WHERE Z_ENT = 2 AND (ZBODY IS NULL OR ZWIDTH IS NOT NULL)") == .integer(0))
        #expect(try db.scalar("SELECT COUNT(*) FROM ZITEM WHERE Z_ENT = 3 AND (ZWIDTH IS NULL OR ZBODY IS NOT NULL)") == .integer(0))
        #expect(try db.scalar("SELECT COUNT(DISTINCT Z_ENT) FROM ZITEM") == .integer(2))
        let run = try TestSupport.runCLI(["run", file, "--out", dir + "/run", "--reps", "1", "--warmup", "0", "--quiet"])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        let plans = try String(contentsOfFile: dir + "/run/plans.csv", encoding: .utf8)
        #expect(
            plans.contains("DELETE FROM ZITEM WHERE Z_PK IN (SELECT t0.Z_PK FROM ZITEM t0 WHERE (t0.ZSIZE > ? AND t0.Z_ENT = ?))"),
            "\(plans)")
        let results = CSVWriter.parse(try String(contentsOfFile: dir + "/run/results.csv", encoding: .utf8))
        let col = { (n: String) in results[0].firstIndex(of: n)! }
        let objects = results.first { $0[col("workload")] == "objects" }!
        #expect(objects[col("agreement_check")] == "same")
    }
}
