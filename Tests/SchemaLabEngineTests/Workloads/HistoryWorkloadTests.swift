import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// The history workloads (fetchHistory, deleteHistory) and `deliver`: a write's changes
/// merged into a view context's list three ways, each checked against a fresh fetch.
@Suite("History workloads and change merging: requests, purge, a list kept current three ways")
struct HistoryWorkloadTests {
    static func scenario(_ workloads: String) -> String {
        """
        {"format": 1, "name": "m",
         "variants": [
           {"name": "plain", "entities": [{"name": "Post", "attributes": [
             {"name": "title", "type": "string"}, {"name": "date", "type": "date"}, {"name": "score", "type": "double"},
             {"name": "read", "type": "bool"}, {"name": "note", "type": "string"}]}]},
           {"name": "history", "extends": "plain", "persistentHistory": true}],
         "dataset": {"seed": 3, "entity": "Post", "counts": [300], "fields": [
           {"field": "title", "generator": {"kind": "sequence", "prefix": "t"}},
           {"field": "date", "generator": {"kind": "dateRange", "from": "2020-01-01", "to": "2020-12-31"}},
           {"field": "score", "generator": {"kind": "uniformDouble", "min": 0, "max": 1}},
           {"field": "read", "generator": {"kind": "bool", "probability": 0.5}},
           {"field": "note", "generator": {"kind": "text", "minLength": 0, "maxLength": 10}}]},
         "workloads": [\(workloads)]}
        """
    }

    static let list = #""sort": [{"key": "date", "ascending": false}], "held": 20, "shows": ["title", "score"]"#

    static let merges = scenario(
        """
        {"variants": ["history"], "name": "save", "kind": "update", "predicate": "score > %@", "arguments": [0.5], "set": {"read": true}, "deliver": {"mode": "saveNotification", \(list)}},
        {"variants": ["history"], "name": "history", "kind": "update", "predicate": "score > %@", "arguments": [0.5], "set": {"read": true}, "deliver": {"mode": "historyNotification", \(list)}},
        {"variants": ["history"], "name": "filtered", "kind": "update", "predicate": "score > %@", "arguments": [0.5], "set": {"read": true}, "deliver": {"mode": "historyNotification", \(list), "filter": true}},
        {"variants": ["history"], "name": "refetch", "kind": "update", "predicate": "score > %@", "arguments": [0.5], "set": {"read": true}, "deliver": {"mode": "refetch", \(list)}},
        {"variants": ["history"], "name": "moves", "kind": "update", "predicate": "score > %@", "arguments": [0.5], "set": {"date": {"date": "2021-06-01T00:00:00Z"}}, "deliver": {"mode": "saveNotification", \(list)}},
        {"variants": ["history"], "name": "moves-history", "kind": "batchUpdate", "predicate": "score > %@", "arguments": [0.5], "set": {"date": {"date": "2021-06-01T00:00:00Z"}, "score": 2.0}, "deliver": {"mode": "historyNotification", \(list)}},
        {"variants": ["history"], "name": "stale", "kind": "batchUpdate", "predicate": "score > %@", "arguments": [0.0], "set": {"score": 5.0}, "deliver": {"mode": "saveNotification", \(list)}},
        {"variants": ["history"], "name": "deletes", "kind": "delete", "predicate": "score > %@", "arguments": [0.5], "deliver": {"mode": "historyNotification", \(list)}},
        {"variants": ["history"], "name": "ingest", "kind": "insert", "saveEvery": 50, "deliver": {"mode": "saveNotification", \(list)}},
        {"variants": ["history"], "name": "ingest-batch", "kind": "batchInsert", "deliver": {"mode": "historyNotification", \(list)}},
        {"variants": ["history"], "name": "ingest-batch-unheard", "kind": "batchInsert", "deliver": {"mode": "saveNotification", \(list)}},
        {"variants": ["history"], "name": "moves-out", "kind": "update", "predicate": "score > %@", "arguments": [0.5], "set": {"date": {"date": "2019-06-01T00:00:00Z"}}, "deliver": {"mode": "historyNotification", \(list)}}
        """)

    @Test(
        "Every delivery mode leaves the list a fresh fetch shows; the history's object-ID merge reads the refreshed rows again, filtering reads fewer"
    )
    func deliveries() throws {
        var executions: [String: Int] = [:]
        for name in ["save", "history", "filtered", "refetch", "deletes", "ingest", "ingest-batch", "moves-out"] {
            let run = try WriteWorkloadTests.Run(Self.merges, workload: name, variant: "history")
            // The digest checks the merged list against a fresh fetch (it throws if they differ).
            _ = try run.outcome.digest()
            let delivery = try #require(Self.delivery(run.workload))
            let rows = try #require(delivery.rows)
            // Rows deleted or moved past the end leave the list shorter until it is fetched again.
            if name == "deletes" || name == "moves-out" {
                #expect(rows.objects.count < 20 && rows.lostRows, "\(name)")
            } else {
                #expect(rows.objects.count == 20, "\(name)")
            }
            #expect(zip(rows.keys, rows.keys.dropFirst()).allSatisfy { !rows.ordered($1, before: $0) }, "\(name)")
            executions[name] = run.executions
            if ["history", "filtered", "deletes", "ingest-batch"].contains(name) {
                #expect(run.log.contains { $0.contains("FROM ACHANGE t0") }, "\(name): \(run.log)")
            }
        }
        // The save notification brings the values: no query for the list; the object-ID
        // notification refreshes the listed objects it changed, each read again; filtering out
        // the updates of properties the list does not show reads none of them.
        let save = try #require(executions["save"]), history = try #require(executions["history"])
        let filtered = try #require(executions["filtered"])
        #expect(history > save, "history \(history), save \(save)")
        #expect(filtered < history, "filtered \(filtered), history \(history)")
    }

    @Test(
        "A merge that misses changes is caught: a batch update posts no save notification; objects the view never registered that move into the list are not merged (as Core Data leaves them)"
    )
    func missedChanges() throws {
        for (name, says) in [
            ("stale", "shows a stale score"), ("moves", "differs from a fresh fetch at row 1"),
            ("moves-history", "differs from a fresh fetch at row 1"),
            // An empty list that heard nothing is not a prefix that passes: it is as long as a fresh fetch or it lost rows.
            ("ingest-batch-unheard", "differs from a fresh fetch at row 1 (0 rows merged, 20 fetched)"),
        ] {
            let run = try WriteWorkloadTests.Run(Self.merges, workload: name, variant: "history")
            do {
                _ = try run.outcome.digest()
                Issue.record("\(name): the merged list passed the check")
            } catch {
                #expect("\(error)".contains(says), "\(name): \(error)")
            }
        }
    }

    @Test("A historyNotification delivery or a history request in a variant without history is refused, naming the key")
    func refusals() throws {
        for (workloads, says) in [
            (
                #"{"name": "h", "kind": "update", "set": {"read": true}, "deliver": {"mode": "historyNotification", "sort": ["date"]}}"#,
                ".deliver.mode"
            ),
            (#"{"name": "f", "kind": "fetchHistory", "count": 3, "set": {"read": true}}"#, ".kind"),
        ] {
            // Checked when the scenario is: every workload in every variant it runs in.
            do {
                _ = try TestSupport.decode(Self.scenario(workloads))
                Issue.record("\(workloads) was accepted in a variant without history")
            } catch {
                #expect("\(error)".contains("$.workloads[0]\(says): variant plain has no persistent history"), "\(error)")
            }
        }
        for (workloads, says) in [
            (
                #"{"name": "x", "kind": "update", "set": {"read": true}, "deliver": {"mode": "refetch", "sort": ["date"], "filter": true}}"#,
                "needs \"mode\": \"historyNotification\""
            ),
            (#"{"name": "x", "kind": "fetchHistory", "count": 3}"#, "needs 'set'"),
            (
                #"{"name": "x", "kind": "fetchHistory", "variants": ["history"], "count": 3, "set": {"read": "yes"}}"#,
                "$.workloads[0].set.read: Post.read (bool) cannot hold"
            ),
            (
                #"{"name": "x", "kind": "fetchHistory", "count": 3, "set": {"read": true}, "history": {"after": "date"}}"#,
                "'after' needs 'last'"
            ),
            (#"{"name": "x", "kind": "fetch", "deliver": {"mode": "refetch", "sort": ["date"]}}"#, "'deliver' belongs to"),
        ] {
            #expect(throws: ScenarioError.self) { try TestSupport.decode(Self.scenario(workloads)) }
            do { _ = try TestSupport.decode(Self.scenario(workloads)) } catch { #expect("\(error)".contains(says), "\(error)") }
        }
    }

    static let requests = scenario(
        """
        {"variants": ["history"], "name": "all", "kind": "fetchHistory", "count": 12, "saveEvery": 5, "set": {"note": "x"}},
        {"variants": ["history"], "name": "object", "kind": "fetchHistory", "count": 12, "saveEvery": 5, "set": {"note": "x"}, "history": {"after": "date", "last": 12, "object": true}},
        {"variants": ["history"], "name": "object-memory", "kind": "fetchHistory", "count": 12, "saveEvery": 5, "set": {"note": "x"}, "history": {"after": "date", "last": 12, "object": true, "filterIn": "memory"}},
        {"variants": ["history"], "name": "sync", "kind": "fetchHistory", "count": 12, "saveEvery": 5, "set": {"note": "x"}, "history": {"author": "sync"}},
        {"variants": ["history"], "name": "sync-memory", "kind": "fetchHistory", "count": 12, "saveEvery": 5, "set": {"note": "x"}, "history": {"author": "sync", "filterIn": "memory"}},
        {"variants": ["history"], "name": "last", "kind": "fetchHistory", "count": 12, "saveEvery": 5, "set": {"note": "x"}, "history": {"after": "token", "last": 4, "updatedProperties": ["note"]}},
        {"variants": ["history"], "name": "unshown", "kind": "fetchHistory", "count": 12, "saveEvery": 5, "set": {"note": "x"}, "history": {"updatedProperties": ["title"]}},
        {"variants": ["history"], "name": "purge", "kind": "deleteHistory", "count": 12, "saveEvery": 5, "set": {"note": "x"}, "history": {"keep": 3}},
        {"variants": ["history"], "name": "purge-all", "kind": "deleteHistory", "count": 12, "saveEvery": 5, "set": {"note": "x"}, "history": {"before": "date", "keep": 0}}
        """)

    @Test(
        "History requests return what they ask for: a tailored request equals the whole history filtered in memory; a purge keeps the last transactions"
    )
    func requests() throws {
        func run(_ name: String) throws -> WriteWorkloadTests.Run {
            try WriteWorkloadTests.Run(Self.requests, workload: name, variant: "history")
        }
        // The fill is one transaction of 300 inserts; then 12 transactions of 5 updates.
        let all = try run("all")
        #expect(all.outcome.rows == 300 + 60)
        #expect(all.log.count == 2 && all.log[0].hasPrefix("SELECT 0, t0.Z_PK, t0.ZTIMESTAMP"), "\(all.log)")
        let object = try run("object"), objectMemory = try run("object-memory")
        #expect(
            object.log.count == 1 && object.log[0].contains("t1.ZTIMESTAMP > ?") && object.log[0].contains("t0.ZENTITYPK = ?"),
            "\(object.log)")
        // The object the last transaction changes first (key 56): 12 transactions of 5 reach keys 1-60 once.
        #expect(object.outcome.rows == 1)
        #expect(try object.outcome.digest().digest == FetchWorkload.signature(ids: [56], sections: []).digest)
        #expect(try object.outcome.digest().digest == objectMemory.outcome.digest().digest)
        let sync = try run("sync"), syncMemory = try run("sync-memory")
        #expect(sync.outcome.rows == 30)
        #expect(try sync.outcome.digest().digest == syncMemory.outcome.digest().digest)
        #expect(try run("last").outcome.rows == 20)
        #expect(try run("unshown").outcome.rows == 300)
        let purge = try run("purge")
        #expect(purge.outcome.rows == 13 - 3)
        #expect(try purge.store.db.scalar("SELECT COUNT(*) FROM ATRANSACTION") == .integer(3))
        #expect(try purge.store.db.scalar("SELECT COUNT(*) FROM ACHANGE") == .integer(15))
        let purgeAll = try run("purge-all")
        #expect(purgeAll.outcome.rows == 13)
        #expect(try purgeAll.store.db.scalar("SELECT COUNT(*) FROM ACHANGE") == .integer(0))
    }

    static func delivery(_ workload: any Workload) -> ViewDelivery? {
        switch workload {
        case let w as UpdateWorkload: return w.delivery
        case let w as DeleteWorkload: return w.delivery
        case let w as InsertWorkload: return w.delivery
        case let w as BatchInsertWorkload: return w.delivery
        default: return nil
        }
    }
}
