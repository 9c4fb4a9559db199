import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// Updates with optimistic locking, and the denormalized counters a variant maintains at save.
@Suite("Updates and maintained counters")
struct CounterTests {
    static let json = """
        {"format": 1, "name": "c",
         "variants": [{"name": "counted", "entities": [
            {"name": "Post", "attributes": [{"name": "day", "type": "integer32"}, {"name": "text", "type": "string"}]},
            {"name": "DayCount", "attributes": [{"name": "day", "type": "integer32"}, {"name": "posts", "type": "integer32"}]}],
           "counters": [{"entity": "DayCount", "key": "day", "count": "posts", "of": "Post", "by": "day"}]}],
         "dataset": {"seed": 1, "entity": "Post", "counts": [3], "fields": [
            {"field": "day", "generator": {"kind": "uniformInt", "min": 0, "max": 2}},
            {"field": "text", "generator": {"kind": "text", "minLength": 3, "maxLength": 8}}]},
         "workloads": [{"name": "i", "kind": "insert"}]}
        """

    func post(_ c: ManagedObjectContext, _ mom: ManagedObjectModel, day: Int64) {
        _ = c.insert(mom.entity("Post")!, values: [.integer(day), .text("p")])
    }

    func counts(_ store: Store) throws -> [[SQLValue]] {
        try store.db.rows("SELECT ZDAY, ZPOSTS FROM ZDAYCOUNT ORDER BY ZDAY")
    }

    @Test("Saving posts creates a counter per day, then updates it with UPDATE OR FAIL and a new Z_OPT")
    func counters() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = try TestSupport.decode(Self.json)
        #expect(plan.models[0].counters.count == 1)
        let store = try Store.create(path: dir + "/c.sqlite", model: plan.models[0])
        let mom = ManagedObjectModel(plan.models[0])
        let c = ManagedObjectContext(store: store, objectModel: mom)
        for d in [0, 0, 1, 2, 2, 2] as [Int64] { post(c, mom, day: d) }
        try c.save()
        #expect(try counts(store) == [[.integer(0), .integer(2)], [.integer(1), .integer(1)], [.integer(2), .integer(3)]])
        let c2 = ManagedObjectContext(store: store, objectModel: mom)
        for d in [2, 3] as [Int64] { post(c2, mom, day: d) }
        store.db.beginStatementLog()
        try c2.save()
        #expect(try counts(store).last == [.integer(3), .integer(1)])
        #expect(try counts(store)[2] == [.integer(2), .integer(4)])
        #expect(try store.db.scalar("SELECT Z_OPT FROM ZDAYCOUNT WHERE ZDAY = 2") == .integer(2))
        let log = store.db.statementLog
        #expect(log.contains("SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZDAY, t0.ZPOSTS FROM ZDAYCOUNT t0 WHERE t0.ZDAY IN (?,?)"))
        #expect(log.contains("UPDATE OR FAIL ZDAYCOUNT SET ZPOSTS = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"))
        // The counters equal what GROUP BY computes from the posts.
        #expect(try store.db.rows("SELECT ZDAY, COUNT(*) FROM ZPOST GROUP BY ZDAY ORDER BY ZDAY") == counts(store))
    }

    @Test("An update of a row another context changed first fails the save (optimistic locking)")
    func optimisticLocking() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = try TestSupport.decode(Self.json)
        let store = try Store.create(path: dir + "/c.sqlite", model: plan.models[0])
        let mom = ManagedObjectModel(plan.models[0])
        let first = ManagedObjectContext(store: store, objectModel: mom)
        post(first, mom, day: 5)
        try first.save()
        let a = ManagedObjectContext(store: store, objectModel: mom)
        let b = ManagedObjectContext(store: store, objectModel: mom)
        let dayCount = mom.entity("DayCount")!
        let inA = try a.execute(FetchRequest(entity: dayCount)).allObjects()[0]
        let inB = try b.execute(FetchRequest(entity: dayCount)).allObjects()[0]
        try a.set(inA, attribute: 1, to: .integer(10))
        try a.save()
        try b.set(inB, attribute: 1, to: .integer(20))
        #expect(throws: SQLiteError.self) { try b.save() }
        #expect(try store.db.scalar("SELECT ZPOSTS FROM ZDAYCOUNT") == .integer(10))
    }

    @Test("A counter naming a missing attribute is an error at its JSON path")
    func badCounter() throws {
        let bad = Self.json.replacingOccurrences(of: "\"by\": \"day\"", with: "\"by\": \"dya\"")
        #expect { try TestSupport.decode(bad) } throws: { e in
            (e as? ScenarioError)?.path == "$.variants[0].counters[0].by"
                && (e as? ScenarioError)?.message.contains("no attribute 'dya'") == true
        }
    }
}
