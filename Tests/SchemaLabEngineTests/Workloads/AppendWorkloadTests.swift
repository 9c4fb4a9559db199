import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// The append workload (the data set's next rows, saved in chunks into a copy of the
/// filled store), the counters it maintains, the audit that catches a drifting counter,
/// and the `derived` generator the posts-per-day chart groups by.
@Suite("Append workload, maintained counters, derived fields")
struct AppendWorkloadTests {
    static let json = """
        {"format": 1, "name": "days",
         "variants": [
           {"name": "group-by", "entities": [{"name": "Post", "attributes": [
              {"name": "timestamp", "type": "date"}, {"name": "day", "type": "integer32"}, {"name": "text", "type": "string"}]}]},
           {"name": "counter", "extends": "group-by",
            "addEntities": [{"name": "DayCount", "attributes": [{"name": "day", "type": "integer32"}, {"name": "posts", "type": "integer32"}]}],
            "counters": [{"entity": "DayCount", "key": "day", "count": "posts", "of": "Post", "by": "day"}]}],
         "reference": "group-by",
         "dataset": {"seed": 7, "entity": "Post", "counts": [60], "fields": [
            {"field": "timestamp", "generator": {"kind": "dateRange", "from": "2018-05-06", "to": "2018-05-12"}},
            {"field": "day", "generator": {"kind": "derived", "from": "timestamp", "function": "day"}},
            {"field": "text", "generator": {"kind": "text", "minLength": 3, "maxLength": 9}}]},
         "workloads": [
           {"name": "chart", "kind": "fetch", "resultType": "dictionaries", "groupBy": ["day"],
            "propertiesToFetch": ["day", {"name": "posts", "function": "count", "key": "day"}], "sort": ["day"]},
           {"name": "chart-counter", "kind": "fetch", "entity": "DayCount", "resultType": "dictionaries",
            "propertiesToFetch": ["day", "posts"], "sort": ["day"], "variants": ["counter"], "agreesWith": "chart"},
           {"name": "post-4", "kind": "append", "count": 4, "saveEvery": 1},
           {"name": "post-6-in-2", "kind": "append", "count": 6, "saveEvery": 3},
           {"name": "insert", "kind": "insert"}],
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

    @Test("derived day: whole days since 2001-01-01 (Core Data's reference date) of the timestamp")
    func derivedDay() throws {
        let plan = try TestSupport.decode(Self.json)
        let data = GeneratedData(spec: plan.scenario.dataset, count: 60)
        let (ts, day) = (data.columns[0], data.columns[1])
        for (t, d) in zip(ts, day) {
            let seconds = t.doubleValue!
            #expect(d == .integer(Int64((seconds / 86_400).rounded(.down))))
        }
        // 2018-05-06 is day 6334 after 2001-01-01; the range covers 6334...6339.
        #expect(day.allSatisfy { (6334...6340).contains($0.integerValue!) })
    }

    @Test("derived floor: the whole part of a number, negative numbers rounded down")
    func derivedFloor() throws {
        let json = """
            {"format": 1, "name": "q", "variants": [{"name": "v", "entities": [{"name": "Quake", "attributes": [
               {"name": "magnitude", "type": "double"}, {"name": "band", "type": "integer16"}]}]}],
             "dataset": {"seed": 3, "entity": "Quake", "counts": [200], "fields": [
               {"field": "magnitude", "generator": {"kind": "uniformDouble", "min": -1.5, "max": 7.5}},
               {"field": "band", "generator": {"kind": "derived", "from": "magnitude", "function": "floor"}}]},
             "workloads": [{"name": "i", "kind": "insert"}]}
            """
        let plan = try TestSupport.decode(json)
        let data = GeneratedData(spec: plan.scenario.dataset, count: 200)
        for (m, b) in zip(data.columns[0], data.columns[1]) {
            #expect(b == .integer(Int64(m.doubleValue!.rounded(.down))))
        }
        #expect(data.columns[1].contains(.integer(-2)))
    }

    @Test("The appended rows continue the data set: generating n + k rows gives the first n unchanged")
    func prefixStable() throws {
        let plan = try TestSupport.decode(Self.json)
        let short = GeneratedData(spec: plan.scenario.dataset, count: 60)
        let long = GeneratedData(spec: plan.scenario.dataset, count: 66)
        for (s, l) in zip(short.columns, long.columns) { #expect(Array(l[..<60]) == s) }
    }

    @Test("Append saves per chunk; the counter variant also reads and updates its counters in each save")
    func appendStatements() {
        let plain = result("group-by", "post-4"), counted = result("counter", "post-4")
        #expect(plain.rows == 4 && counted.rows == 4)
        // One save per post: BEGIN EXCLUSIVE, SELECT Z_MAX, UPDATE OR FAIL Z_PRIMARYKEY, COMMIT,
        // BEGIN EXCLUSIVE, INSERT, COMMIT. The counter variant adds its lookup and its UPDATE
        // (the 60 filled posts cover every day, so each appended day already has a counter).
        #expect(plain.statements == 4 * 7)
        #expect(counted.statements == 4 * (7 + 2))
        let sql = counted.plans.map(\.sql)
        #expect(sql.contains("SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZDAY, t0.ZPOSTS FROM ZDAYCOUNT t0 WHERE t0.ZDAY IN (?)"))
        #expect(sql.contains("UPDATE OR FAIL ZDAYCOUNT SET ZPOSTS = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"))
        #expect(!plain.plans.map(\.sql).contains { $0.contains("ZDAYCOUNT") })
        // Two saves of three posts: the same frame with three INSERTs each.
        #expect(result("group-by", "post-6-in-2").statements == 2 * (6 + 3))
    }

    @Test("Both variants end with the same rows; the counter chart agrees with GROUP BY")
    func agreement() {
        for w in ["chart", "post-4", "post-6-in-2", "insert"] {
            #expect(result("counter", w).referenceCheck == .same, "\(w)")
        }
        #expect(result("counter", "chart-counter").agreementCheck == .same)
        // 66 posts, and no drifting counter rows.
        #expect(result("group-by", "post-6-in-2").signature.values == [[.integer(66), .integer(0)]])
        #expect(result("counter", "post-6-in-2").signature.values == [[.integer(66), .integer(0)]])
    }

    @Test("The audit counts every kind of drift: wrong, missing, extra, negative, duplicate and NULL-key counters")
    func auditCatchesDrift() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let model = try TestSupport.decode(Self.json).models[1]
        let store = try Store.create(path: dir + "/c.sqlite", model: model)
        let mom = ManagedObjectModel(model)
        let c = ManagedObjectContext(store: store, objectModel: mom)
        let post = mom.entity("Post")!
        let names = post.model.attributes.map(\.name)
        for d in [1, 1, 2] as [Int64?] {
            _ = c.insert(post, values: names.map { ["day": d.map(SQLValue.integer) ?? .null, "text": .text("x")][$0] ?? .real(0) })
        }
        try c.save()
        #expect(try CounterAudit.driftingRows(store, model: model) == 0)
        func drift(after sql: String) throws -> Int64 {
            try store.db.execute("SAVEPOINT s")
            defer { try? store.db.execute("ROLLBACK TO s"); try? store.db.execute("RELEASE s") }
            try store.db.execute(sql)
            return try CounterAudit.driftingRows(store, model: model)
        }
        #expect(try drift(after: "UPDATE ZDAYCOUNT SET ZPOSTS = 5 WHERE ZDAY = 2") == 2)
        #expect(try drift(after: "DELETE FROM ZDAYCOUNT WHERE ZDAY = 2") == 1)
        #expect(try drift(after: "INSERT INTO ZDAYCOUNT (Z_PK, Z_ENT, Z_OPT, ZDAY, ZPOSTS) VALUES (99, 1, 1, 7, 1)") == 1)
        #expect(try drift(after: "INSERT INTO ZDAYCOUNT (Z_PK, Z_ENT, Z_OPT, ZDAY, ZPOSTS) VALUES (99, 1, 1, 7, -1)") == 1)
        #expect(try drift(after: "INSERT INTO ZDAYCOUNT (Z_PK, Z_ENT, Z_OPT, ZDAY, ZPOSTS) VALUES (99, 1, 1, NULL, 1)") == 1)
        #expect(try drift(after: "INSERT INTO ZDAYCOUNT (Z_PK, Z_ENT, Z_OPT, ZDAY, ZPOSTS) VALUES (99, 1, 1, 2, 1)") >= 1)
        #expect(try drift(after: "INSERT INTO ZDAYCOUNT (Z_PK, Z_ENT, Z_OPT, ZDAY, ZPOSTS) VALUES (99, 1, 1, 8, 0)") == 0)
        #expect(try CounterAudit.driftingRows(store, model: model) == 0)
        let d = try #require(
            try {
                try store.db.execute("UPDATE ZDAYCOUNT SET ZPOSTS = 5 WHERE ZDAY = 2")
                return try CounterAudit.drifts(store, model: model).first
            }())
        #expect(d.description == "counter DayCount.posts disagrees with COUNT(*) of Post by day: 2 row(s) differ")
    }

    @Test("Counters group text keys by their bytes, as SQLite does, and do not count a NULL key")
    func counterKeysAsSQLite() throws {
        let json = """
            {"format": 1, "name": "t", "variants": [{"name": "v", "entities": [
               {"name": "Photo", "attributes": [{"name": "tag", "type": "string"}]},
               {"name": "TagCount", "attributes": [{"name": "tag", "type": "string"}, {"name": "photos", "type": "integer32"}]}],
               "counters": [{"entity": "TagCount", "key": "tag", "count": "photos", "of": "Photo", "by": "tag"}]}],
             "dataset": {"seed": 1, "entity": "Photo", "counts": [3], "fields": [
               {"field": "tag", "generator": {"kind": "choice", "values": ["a"]}}]},
             "workloads": [{"name": "i", "kind": "insert"}]}
            """
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let model = try TestSupport.decode(json).models[0]
        let store = try Store.create(path: dir + "/t.sqlite", model: model)
        let mom = ManagedObjectModel(model)
        for round in 0..<2 {
            let c = ManagedObjectContext(store: store, objectModel: mom)
            for tag in ["\u{C9}", "E\u{301}", "\u{C9}"] as [String?] + (round == 0 ? [nil] : []) {
                _ = c.insert(mom.entity("Photo")!, values: [tag.map(SQLValue.text) ?? .null])
            }
            try c.save()
        }
        #expect(
            try store.db.rows("SELECT ZTAG, ZPHOTOS FROM ZTAGCOUNT ORDER BY ZTAG") == [
                [.text("E\u{301}"), .integer(2)], [.text("\u{C9}"), .integer(4)],
            ])
        #expect(try CounterAudit.driftingRows(store, model: model) == 0)
    }

    @Test("An append workload needs a count, and takes no fetch keys; count belongs to append")
    func decoding() {
        func error(_ workload: String) -> String {
            let text = Self.json.replacingOccurrences(of: #"{"name": "insert", "kind": "insert"}"#, with: workload)
            do { _ = try TestSupport.decode(text); return "" } catch { return "\(error)" }
        }
        #expect(error(#"{"name": "a", "kind": "append"}"#).contains("needs 'count'"))
        #expect(error(#"{"name": "a", "kind": "append", "count": 3, "sort": ["day"]}"#).contains("$.workloads[4].sort"))
        #expect(error(#"{"name": "a", "kind": "fetch", "count": 3}"#).contains("'count' belongs to an append workload"))
        #expect(error(#"{"name": "a", "kind": "append", "count": 0}"#).contains("$.workloads[4].count"))
    }
}
