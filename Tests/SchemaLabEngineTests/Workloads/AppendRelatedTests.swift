import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// An append of a chosen entity related to existing objects (a post by an existing author):
/// the SQL of its save, the author's version written with it, the values it takes, the
/// pages it writes, and what it refuses.
@Suite("Append of one entity, related to existing objects")
struct AppendRelatedTests {
    static let json = """
        {"format": 1, "name": "blog",
         "variants": [
           {"name": "as-is", "entities": [
             {"name": "Author", "attributes": [{"name": "name", "type": "string"}],
              "relationships": [{"name": "posts", "destination": "Post", "toMany": true, "inverse": "author"}]},
             {"name": "Post", "attributes": [{"name": "title", "type": "string"}, {"name": "serial", "type": "integer64"}],
              "relationships": [{"name": "author", "destination": "Author", "inverse": "posts"}],
              "uniquenessConstraints": [["serial"]]}]},
           {"name": "indexed", "extends": "as-is", "addIndexes": [{"entity": "Post", "name": "byTitle", "elements": ["title"]}]}],
         "dataset": {"seed": 5, "entity": "Author", "counts": [30], "fields": [
            {"field": "name", "generator": {"kind": "uuid", "prefix": "author-"}}],
           "related": [{"relationship": "posts", "fanOut": {"kind": "uniformInt", "min": 0, "max": 6},
             "fields": [{"field": "title", "generator": {"kind": "text", "minLength": 5, "maxLength": 30}},
                        {"field": "serial", "generator": {"kind": "sequence", "start": 1, "step": 1}}]}]},
         "workloads": [
           {"name": "one-post", "kind": "append", "entity": "Post", "relate": ["author"], "count": 1},
           {"name": "four-posts", "kind": "append", "entity": "Post", "relate": ["author"], "count": 4, "saveEvery": 2},
           {"name": "lone-post", "kind": "append", "entity": "Post", "count": 2},
           {"name": "new-author", "kind": "append", "count": 3}],
         "measurement": {"warmup": 0, "repetitions": 2}}
        """

    static let results: [CaseResult] = {
        let plan = try! TestSupport.decode(json)
        let dir = try! TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        return try! CaseScheduler(plan: plan, options: RunOptions(), workDirectory: dir).run()
    }()

    func result(_ variant: String, _ workload: String) -> CaseResult {
        Self.results.first { $0.variant == variant && $0.workload == workload }!
    }

    @Test("A post by an existing author: its INSERT, then the author's version, in one save")
    func statements() {
        let one = result("as-is", "one-post")
        let sql = one.plans.map(\.sql)
        #expect(sql.contains("INSERT INTO ZPOST(Z_PK, Z_ENT, Z_OPT, ZAUTHOR, ZSERIAL, ZTITLE) VALUES(?, ?, ?, ?, ?, ?)"))
        #expect(sql.contains("UPDATE OR FAIL ZAUTHOR SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"))
        // The key block (BEGIN, SELECT Z_MAX, UPDATE Z_PRIMARYKEY, COMMIT), then BEGIN, INSERT, UPDATE, COMMIT.
        #expect(one.statements == 8)
        // Two saves of two posts: the key block, BEGIN, two INSERTs, an UPDATE per author (two
        // posts may share one), COMMIT.
        let four = result("as-is", "four-posts")
        #expect(four.statements >= 2 * 9 && four.statements <= 2 * 10)
        // Without relate there is no UPDATE of the author.
        #expect(!result("as-is", "lone-post").plans.map(\.sql).contains { $0.hasPrefix("UPDATE OR FAIL ZAUTHOR") })
    }

    @Test("Both variants hold the same result; an index on the post adds pages to its save")
    func agreementAndPages() {
        for workload in ["one-post", "four-posts", "lone-post", "new-author"] {
            #expect(result("indexed", workload).referenceCheck == .same, "\(workload)")
        }
        // Posts: the filled ones plus one; no drifting counter; one author pointed at more.
        let values = result("as-is", "one-post").signature.values ?? []
        #expect(values.count == 1 && values.first?[1] == .integer(0))
        #expect(result("as-is", "one-post").counters.pagesWritten > 0)
        #expect(result("indexed", "one-post").counters.pagesWritten > result("as-is", "one-post").counters.pagesWritten)
    }

    @Test("The store after the save: the posts point at existing authors, whose versions moved; serials continue")
    func storeAfterSave() throws {
        let plan = try TestSupport.decode(Self.json)
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let model = plan.models[0]
        let store = try Store.create(path: dir + "/b.sqlite", model: model)
        let mom = ManagedObjectModel(model)
        let placement = try ScenarioPlan.placement(plan.scenario.dataset, model: mom, file: "blog.json")
        let data = GeneratedData(spec: plan.scenario.dataset, count: 30)
        let fill = ManagedObjectContext(store: store, objectModel: mom)
        try InsertWorkload.insertAll(data, placement: placement, into: fill)
        try fill.save()
        let postsBefore = try store.db.scalar("SELECT COUNT(*) FROM ZPOST").integerValue!
        let maxSerial = try store.db.scalar("SELECT MAX(ZSERIAL) FROM ZPOST").integerValue!
        let spec = plan.scenario.workloads[1]
        let workload = try AppendWorkload(spec: spec, model: mom, dataset: plan.scenario.dataset, size: 30, placement: placement)
        try workload.prepare(store: store)
        _ = try workload.run(store: store)
        #expect(try store.db.scalar("SELECT COUNT(*) FROM ZPOST").integerValue! == postsBefore + 4)
        let new = try store.db.rows("SELECT ZAUTHOR, ZSERIAL, ZTITLE FROM ZPOST WHERE Z_PK > \(postsBefore) ORDER BY Z_PK")
        #expect(new.count == 4)
        for row in new {
            #expect(row[0] != .null)
            #expect(row[2] != .null)
            // The sequence continues after the posts the store holds: no uniqueness conflict.
            #expect(row[1].integerValue! > maxSerial)
        }
        let authors = Set(new.map { $0[0] })
        let versions = try store.db.rows("SELECT Z_PK, Z_OPT FROM ZAUTHOR")
        for author in versions where authors.contains(author[0]) { #expect(author[1].integerValue! >= 2) }
        #expect(versions.filter { !authors.contains($0[0]) }.allSatisfy { $0[1] == .integer(1) })
    }

    @Test("What an append refuses: a relationship that is not a to-one, an entity the data set gives no values, an unknown entity")
    func refusals() {
        func error(_ workload: String, _ json: String = AppendRelatedTests.json) -> String {
            let text = json.replacingOccurrences(
                of: #"{"name": "new-author", "kind": "append", "count": 3}"#, with: workload)
            do { _ = try TestSupport.decode(text); return "" } catch { return "\(error)" }
        }
        let posts = error(#"{"name": "a", "kind": "append", "entity": "Author", "relate": ["posts"], "count": 1}"#)
        #expect(posts.contains("$.workloads[3].relate[0]") && posts.contains("'posts' is not a to-one relationship of Author"))
        // A data set of authors only: nothing gives a post its title.
        let authorsOnly = """
            {"format": 1, "name": "authors", "variants": [{"name": "v", "entities": [
               {"name": "Author", "attributes": [{"name": "name", "type": "string"}],
                "relationships": [{"name": "posts", "destination": "Post", "toMany": true, "inverse": "author"}]},
               {"name": "Post", "attributes": [{"name": "title", "type": "string"}],
                "relationships": [{"name": "author", "destination": "Author", "inverse": "posts"}]}]}],
             "dataset": {"seed": 1, "entity": "Author", "counts": [5], "fields": [{"field": "name", "generator": {"kind": "uuid"}}]},
             "workloads": [{"name": "new-author", "kind": "append", "count": 3}]}
            """
        let noValues = error(#"{"name": "a", "kind": "append", "entity": "Post", "relate": ["author"], "count": 1}"#, authorsOnly)
        #expect(noValues.contains("$.workloads[0].entity") && noValues.contains("no field of the data set goes to an attribute of Post"))
        // A one-to-one: many new objects cannot each be some author's only one.
        let oneToOne = """
            {"format": 1, "name": "profiles", "variants": [{"name": "v", "entities": [
               {"name": "Author", "attributes": [{"name": "name", "type": "string"}],
                "relationships": [{"name": "post", "destination": "Post", "inverse": "author"}]},
               {"name": "Post", "attributes": [{"name": "title", "type": "string"}],
                "relationships": [{"name": "author", "destination": "Author", "inverse": "post"}]}]}],
             "dataset": {"seed": 1, "entity": "Author", "counts": [5], "fields": [
               {"field": "name", "generator": {"kind": "uuid"}},
               {"field": "Post.title", "generator": {"kind": "text", "minLength": 3, "maxLength": 9}}]},
             "workloads": [{"name": "new-author", "kind": "append", "count": 3}]}
            """
        let single = error(#"{"name": "a", "kind": "append", "entity": "Post", "relate": ["author"], "count": 1}"#, oneToOne)
        #expect(single.contains("$.workloads[0].relate[0]") && single.contains("'author' is one-to-one"), "\(single)")
        let missing = error(#"{"name": "a", "kind": "append", "entity": "Comment", "count": 1}"#)
        #expect(missing.contains("$.workloads[3]") && missing.contains("no entity 'Comment'"))
    }

    @Test("An entity-choice data set: each appended row is the entity it names, or every row the entity asked for")
    func entityChoice() throws {
        let json = """
            {"format": 1, "name": "items", "variants": [{"name": "v", "entities": [
               {"name": "Item", "attributes": [{"name": "title", "type": "string"}]},
               {"name": "Note", "parent": "Item", "attributes": [{"name": "body", "type": "string"}]},
               {"name": "Photo", "parent": "Item", "attributes": [{"name": "width", "type": "integer32"}]}]}],
             "dataset": {"seed": 3, "entity": "Item", "counts": [40], "fields": [
               {"field": "entity", "generator": {"kind": "choice", "values": ["Note", "Photo"]}},
               {"field": "title", "generator": {"kind": "text", "minLength": 3, "maxLength": 9}},
               {"field": "body", "generator": {"kind": "text", "minLength": 3, "maxLength": 9}},
               {"field": "width", "generator": {"kind": "choice", "values": [640, 1280]}}]},
             "workloads": [
               {"name": "mixed", "kind": "append", "count": 30},
               {"name": "photos", "kind": "append", "entity": "Photo", "count": 10}],
             "measurement": {"warmup": 0, "repetitions": 1}}
            """
        let plan = try TestSupport.decode(json)
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let model = plan.models[0]
        let mom = ManagedObjectModel(model)
        let placement = try ScenarioPlan.placement(plan.scenario.dataset, model: mom, file: "items.json")
        func appended(_ index: Int) throws -> [String: Int64] {
            let store = try Store.create(path: dir + "/i\(index).sqlite", model: model)
            let fill = ManagedObjectContext(store: store, objectModel: mom)
            try InsertWorkload.insertAll(GeneratedData(spec: plan.scenario.dataset, count: 40), placement: placement, into: fill)
            try fill.save()
            func counts() throws -> [String: Int64] {
                let note = mom.entity("Note")!.number, photo = mom.entity("Photo")!.number
                return [
                    "Note": try store.db.scalar("SELECT COUNT(*) FROM ZITEM WHERE Z_ENT = \(note)").integerValue!,
                    "Photo": try store.db.scalar("SELECT COUNT(*) FROM ZITEM WHERE Z_ENT = \(photo)").integerValue!,
                ]
            }
            let before = try counts()
            let workload = try AppendWorkload(
                spec: plan.scenario.workloads[index], model: mom, dataset: plan.scenario.dataset, size: 40, placement: placement)
            try workload.prepare(store: store)
            _ = try workload.run(store: store)
            return try counts().merging(before) { $0 - $1 }
        }
        // 'relate' on rows of several entities is refused: it needs the one entity named.
        let relating = json.replacingOccurrences(
            of: #"{"name": "photos", "kind": "append", "entity": "Photo", "count": 10}"#,
            with: #"{"name": "photos", "kind": "append", "relate": ["owner"], "count": 10}"#)
        let refusal: String
        do { _ = try TestSupport.decode(relating); refusal = "" } catch { refusal = "\(error)" }
        #expect(refusal.contains("$.workloads[1].relate") && refusal.contains("'relate' needs one of them named in 'entity'"), "\(refusal)")
        let mixed = try appended(0)
        #expect(mixed["Note"]! > 0 && mixed["Photo"]! > 0 && mixed["Note"]! + mixed["Photo"]! == 30, "\(mixed)")
        #expect(try appended(1) == ["Note": 0, "Photo": 10])
    }
}
