import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// Persistent history as the lab stores it: the tables, indexes and Z_PRIMARYKEY rows of
/// Core Data's history model, the rows a save and each batch request write, the history
/// requests and the purge. Each rule is checked through SQL against the store.
@Suite("Persistent history: tables, the rows saves and batch requests write, history requests")
struct PersistentHistoryTests {
    static let scenario = """
        {"format": 1, "name": "h",
         "variants": [
           {"name": "plain", "entities": [
             {"name": "Post", "attributes": [
               {"name": "title", "type": "string"}, {"name": "score", "type": "double"}, {"name": "read", "type": "bool"},
               {"name": "remoteID", "type": "string", "preserveAfterDeletion": true}],
              "relationships": [{"name": "author", "destination": "Person", "inverse": "posts"}]},
             {"name": "Person", "attributes": [{"name": "name", "type": "string"}],
              "relationships": [{"name": "posts", "destination": "Post", "toMany": true, "inverse": "author"}]}]},
           {"name": "history", "extends": "plain", "persistentHistory": true},
           {"name": "unique", "extends": "history", "addUniquenessConstraints": [{"entity": "Post", "attributes": ["remoteID"]}]}],
         "dataset": {"seed": 1, "entity": "Post", "counts": [40], "fields": [
           {"field": "title", "generator": {"kind": "sequence", "prefix": "t"}},
           {"field": "score", "generator": {"kind": "uniformDouble", "min": 0, "max": 1}},
           {"field": "read", "generator": {"kind": "bool", "probability": 0.5}},
           {"field": "remoteID", "generator": {"kind": "uuid", "prefix": "r"}}]},
         "workloads": [{"name": "all", "kind": "fetch"}]}
        """

    /// A new store of the `history` variant (or `plain`) in a temporary directory, and a context on it.
    final class Fixture {
        let dir: String
        let store: Store
        let model: ManagedObjectModel
        var db: Database { store.db }

        init(variant: String = "history") throws {
            let plan = try TestSupport.decode(PersistentHistoryTests.scenario)
            let index = plan.scenario.variants.firstIndex { $0.name == variant }!
            dir = try TestSupport.temporaryDirectory()
            model = ManagedObjectModel(plan.models[index])
            store = try Store.create(path: dir + "/store.sqlite", model: plan.models[index])
        }

        deinit { try? FileManager.default.removeItem(atPath: dir) }

        func context(author: String? = "app", name: String? = "background") -> ManagedObjectContext {
            let c = ManagedObjectContext(store: store, objectModel: model)
            c.transactionAuthor = author
            c.name = name
            return c
        }

        /// Inserts `count` posts (title t1…, score i/10, remoteID r1…) and saves.
        func insertPosts(_ count: Int, context c: ManagedObjectContext) throws -> [ManagedObject] {
            let post = model.entity("Post")!
            let names = post.model.attributes.map(\.name)
            let objects = (1...count).map { i in
                c.insert(
                    post,
                    values: names.map { name -> SQLValue in
                        switch name {
                        case "title": return .text("t\(i)")
                        case "score": return .real(Double(i) / 10)
                        case "read": return .integer(0)
                        default: return .text("r\(i)")
                        }
                    })
            }
            try c.save()
            return objects
        }

        func changes() throws -> [[SQLValue]] {
            try db.rows(
                "SELECT ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, hex(ZCOLUMNS), ZTOMBSTONE0, Z_ENT FROM ACHANGE ORDER BY Z_PK")
        }
    }

    @Test("A store with history on has Core Data's three history tables, their indexes, and entities 16001-16003 in Z_PRIMARYKEY")
    func tables() throws {
        let f = try Fixture()
        let tables = try f.db.rows("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name LIKE 'A%' ORDER BY name")
        #expect(tables.map { $0[0] } == [.text("ACHANGE"), .text("ATRANSACTION"), .text("ATRANSACTIONSTRING")])
        let changeColumns = try f.db.rows("SELECT name, type FROM pragma_table_info('ACHANGE') ORDER BY cid").map {
            "\($0[0].textValue!) \($0[1].textValue!)"
        }
        #expect(
            changeColumns == [
                "Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZCHANGETYPE INTEGER", "ZENTITY INTEGER", "ZENTITYPK INTEGER",
                "ZTRANSACTIONID INTEGER", "ZCOLUMNS BLOB", "ZTOMBSTONE0 BLOB",
            ])
        let transactionColumns = try f.db.rows("SELECT name FROM pragma_table_info('ATRANSACTION') ORDER BY cid").map { $0[0].textValue! }
        #expect(
            transactionColumns == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZAUTHORTS", "ZBUNDLEIDTS", "ZCONTEXTNAMETS", "ZPROCESSIDTS", "ZTIMESTAMP", "ZAUTHOR",
                "ZBUNDLEID",
                "ZCONTEXTNAME", "ZPROCESSID", "ZQUERYGEN",
            ])
        let indexes = Set(
            try f.db.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name LIKE 'A%'").map { $0[0].textValue! })
        #expect(
            indexes == [
                "ACHANGE_ZTRANSACTIONID_INDEX", "ATRANSACTION_ZAUTHORTS_INDEX", "ATRANSACTION_ZBUNDLEIDTS_INDEX",
                "ATRANSACTION_ZCONTEXTNAMETS_INDEX", "ATRANSACTION_ZPROCESSIDTS_INDEX", "Z_TRANSACTION_TransactionTimestampIndex",
                "Z_TRANSACTION_TransactionAuthorIndex", "Z_TRANSACTIONSTRING_UNIQUE_NAME",
            ])
        let keys = try f.db.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT")
        #expect(
            keys == [
                [.integer(16001), .text("CHANGE"), .integer(0), .integer(0)],
                [.integer(16002), .text("TRANSACTION"), .integer(0), .integer(0)],
                [.integer(16003), .text("TRANSACTIONSTRING"), .integer(0), .integer(0)],
            ])
        // History off: none of it.
        let plain = try Fixture(variant: "plain")
        #expect(try plain.db.scalar("SELECT COUNT(*) FROM sqlite_master WHERE name LIKE 'A%' OR name LIKE 'Z_TRANSACTION%'") == .integer(0))
    }

    @Test(
        "A save writes, inside its own write transaction, one transaction row (author, context name, bundle, process, time) and a change per inserted, updated and deleted object"
    )
    func saves() throws {
        let f = try Fixture()
        let c = f.context()
        let before = Date().timeIntervalSinceReferenceDate
        f.db.beginStatementLog()
        let posts = try f.insertPosts(3, context: c)
        let log = f.db.statementLog
        // The history is written after the INSERTs (the same transaction: a save that fails below leaves none).
        let insert = try #require(log.lastIndex { $0.hasPrefix("INSERT INTO ZPOST") })
        let transaction = try #require(log.firstIndex { $0.hasPrefix("INSERT INTO ATRANSACTION") })
        #expect(insert < transaction, "\(log)")
        #expect(
            log.contains(
                "INSERT INTO ACHANGE(Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS, ZTOMBSTONE0) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)"
            ))
        let row = try f.db.rows(
            "SELECT t.Z_PK, t.Z_ENT, a.ZNAME, n.ZNAME, b.ZNAME, p.ZNAME, t.ZTIMESTAMP, t.ZAUTHOR FROM ATRANSACTION t JOIN ATRANSACTIONSTRING a ON t.ZAUTHORTS = a.Z_PK JOIN ATRANSACTIONSTRING n ON t.ZCONTEXTNAMETS = n.Z_PK JOIN ATRANSACTIONSTRING b ON t.ZBUNDLEIDTS = b.Z_PK JOIN ATRANSACTIONSTRING p ON t.ZPROCESSIDTS = p.Z_PK"
        )
        #expect(row.count == 1)
        #expect(
            Array(row[0][0..<6]) == [
                .integer(1), .integer(16002), .text("app"), .text("background"), .text(HistorySQL.bundleID), .text(HistorySQL.processID),
            ])
        let time = try #require(row[0][6].doubleValue)
        #expect(time >= before - 1 && time <= Date().timeIntervalSinceReferenceDate + 1)
        #expect(row[0][7] == .null)
        let post = Int64(f.model.entity("Post")!.number)
        #expect(
            try f.changes()
                == (1...3).map { [.integer(0), .integer(post), .integer(Int64($0)), .integer(1), .text(""), .null, .integer(16001)] })
        // An update: one change row whose ZCOLUMNS has the bit of the changed attribute. The
        // slots: the to-one key (author), then the attributes in order (read, remoteID, score, title).
        try c.set(posts[1], attribute: posts[1].entity.model.attributes.firstIndex { $0.name == "score" }!, to: .real(9))
        try c.save()
        let update = try f.changes()[3]
        #expect(update[0] == .integer(1) && update[2] == .integer(2) && update[3] == .integer(2))
        // Slot 0 the author key, slots 1-4 read, remoteID, score, title: score is slot 3, the
        // fourth bit from the top of the first byte.
        #expect(update[4] == .text("10"), "\(update)")
        // A delete keeps the attribute marked to be preserved after deletion as its tombstone.
        try c.delete(posts[2])
        try c.save()
        let delete = try f.changes()[4]
        #expect(delete[0] == .integer(2) && delete[2] == .integer(3) && delete[3] == .integer(3) && delete[5] == .text("r3"), "\(delete)")
        // A save that fails (its row's version moved on: an optimistic-locking conflict) rolls
        // its history back with its changes.
        try c.set(posts[0], attribute: 0, to: .integer(1))
        try f.db.execute("UPDATE ZPOST SET Z_OPT = Z_OPT + 5 WHERE Z_PK = 1")
        #expect(throws: SQLiteError.self) { try c.save() }
        #expect(try f.db.scalar("SELECT COUNT(*) FROM ATRANSACTION") == .integer(3))
        #expect(try f.db.scalar("SELECT COUNT(*) FROM ACHANGE") == .integer(5))
        // The strings are interned once; the keys come from Z_PRIMARYKEY.
        #expect(try f.db.scalar("SELECT COUNT(*) FROM ATRANSACTIONSTRING") == .integer(4))
        #expect(
            try f.db.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT") == [
                [.integer(5)], [.integer(3)], [.integer(4)],
            ])
        // History off: a save writes none of it.
        let plain = try Fixture(variant: "plain")
        plain.db.beginStatementLog()
        _ = try plain.insertPosts(2, context: plain.context())
        #expect(!plain.db.statementLog.contains { $0.contains("ACHANGE") || $0.contains("ATRANSACTION") })
    }

    @Test(
        "Batch insert, update and delete are captured by temporary triggers around the statement, dropped after it: one transaction, a change per row"
    )
    func batchRequests() throws {
        let f = try Fixture()
        let c = f.context()
        let post = f.model.entity("Post")!
        f.db.beginStatementLog()
        try c.batchInsert(post, policy: .error, count: 4) { i in
            ["title": .text("b\(i)"), "score": .real(Double(i)), "remoteID": .text("x\(i)")]
        }
        #expect(
            f.db.statementLog.contains {
                $0.hasPrefix("CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_ZPOST_HISTORYBATCHINSERT_TRIGGER AFTER INSERT ON ZPOST")
            })
        #expect(f.db.statementLog.contains("DROP TRIGGER IF EXISTS ZQ_ZPOST_HISTORYBATCHINSERT_TRIGGER"))
        #expect(try f.changes().map { [$0[0], $0[2], $0[3]] } == (1...4).map { [.integer(0), .integer(Int64($0)), .integer(1)] })
        let read = post.model.attributes.firstIndex { $0.name == "read" }!
        let sql = BatchSQL.update(post.model, attributes: [post.model.attributes[read]], whereSQL: "t0.ZSCORE >= ?")
        f.db.beginStatementLog()
        #expect(try c.batchUpdate(sql: sql, bindings: [.integer(1), .real(2)], entity: post, attributes: [read]) == 2)
        #expect(
            f.db.statementLog.contains {
                $0.hasPrefix("CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_ZPOST_HISTORYBATCHUPDATE_TRIGGER AFTER UPDATE OF ZREAD ON ZPOST")
            }, "\(f.db.statementLog)")
        // `read` is slot 1 (after the author key): the second bit from the top.
        #expect(
            try f.changes().suffix(2).map { [$0[0], $0[2], $0[3], $0[4]] }
                == [3, 4].map { [.integer(1), .integer($0), .integer(2), .text("40")] })
        let delete = BatchSQL.delete(post.model, whereSQL: "t0.ZSCORE < ?", limit: 0)
        f.db.beginStatementLog()
        #expect(try c.batchDelete(sql: delete, bindings: [.real(2)], limit: 0, triggers: ([], []), entity: post) == 2)
        #expect(
            f.db.statementLog.contains {
                $0.hasPrefix("CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_ZPOST_HISTORYBATCHDELETE_TRIGGER BEFORE DELETE ON ZPOST")
            })
        #expect(
            try f.changes().suffix(2).map { [$0[0], $0[2], $0[3], $0[5]] }
                == [1, 2].map { [.integer(2), .integer($0), .integer(3), .text("x\($0 - 1)")] })
        // Three transactions, no trigger left on the connection, the collected rows cleared.
        #expect(try f.db.scalar("SELECT COUNT(*) FROM ATRANSACTION") == .integer(3))
        #expect(try f.db.scalar("SELECT COUNT(*) FROM sqlite_temp_master WHERE type = 'trigger'") == .integer(0))
        #expect(try f.db.scalar("SELECT COUNT(*) FROM \(HistorySQL.pendingTable)") == .integer(0))
        #expect(try f.db.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16001") == .integer(8))
    }

    @Test("In a hierarchy, a batch update's mask and a batch delete's tombstones are each row's own entity's (CASE Z_ENT)")
    func hierarchy() throws {
        let plan = try TestSupport.decode(
            """
            {"format": 1, "name": "tree", "variants": [{"name": "h", "persistentHistory": true, "entities": [
              {"name": "Item", "attributes": [{"name": "name", "type": "string", "preserveAfterDeletion": true}]},
              {"name": "Note", "parent": "Item", "attributes": [{"name": "text", "type": "string", "preserveAfterDeletion": true}],
               "relationships": [{"name": "folder", "destination": "Folder", "inverse": "notes"}]},
              {"name": "Folder", "attributes": [{"name": "title", "type": "string"}],
               "relationships": [{"name": "notes", "destination": "Note", "toMany": true, "inverse": "folder"}]}]}],
             "dataset": {"seed": 1, "entity": "Folder", "counts": [1], "fields": [{"field": "title", "generator": {"kind": "constant", "value": "f"}}]},
             "workloads": [{"name": "all", "kind": "fetch"}]}
            """)
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try Store.create(path: dir + "/tree.sqlite", model: plan.models[0])
        let model = ManagedObjectModel(plan.models[0])
        let c = ManagedObjectContext(store: store, objectModel: model)
        let item = model.entity("Item")!, note = model.entity("Note")!
        _ = c.insert(item, values: [.text("i")])
        _ = c.insert(note, values: [.text("n"), .text("t")])
        try c.save()
        let name = item.model.attributes.firstIndex { $0.name == "name" }!
        let update = BatchSQL.update(item.model, attributes: [item.model.attributes[name]], whereSQL: nil)
        store.db.beginStatementLog()
        #expect(try c.batchUpdate(sql: update, bindings: [.text("x")], entity: item, attributes: [name]) == 2)
        #expect(
            store.db.statementLog.contains { $0.contains("CASE NEW.Z_ENT WHEN \(item.number) THEN X'80' WHEN \(note.number) THEN X'40'") },
            "\(store.db.statementLog)")
        // Item: `name` is slot 0; Note: its folder key is slot 0, `name` slot 1.
        let masks = try store.db.rows("SELECT ZENTITY, hex(ZCOLUMNS) FROM ACHANGE WHERE ZCHANGETYPE = 1 ORDER BY ZENTITY")
        #expect(masks == [[.integer(Int64(item.number)), .text("80")], [.integer(Int64(note.number)), .text("40")]])
        let delete = BatchSQL.delete(item.model, whereSQL: nil, limit: 0)
        #expect(try c.batchDelete(sql: delete, bindings: [], limit: 0, triggers: ([], []), entity: item) == 2)
        // Tombstones: each row's preserved attributes in its own order (Note keeps name, then text).
        let kept = try store.db.rows("SELECT ZENTITY, ZTOMBSTONE0, ZTOMBSTONE1 FROM ACHANGE WHERE ZCHANGETYPE = 2 ORDER BY ZENTITY")
        #expect(kept == [[.integer(Int64(item.number)), .text("x"), .null], [.integer(Int64(note.number)), .text("x"), .text("t")]])
    }

    @Test("A batch insert that upserts (property-object-trump) records the rows it updates as updates, the new rows as inserts")
    func upsert() throws {
        let f = try Fixture(variant: "unique")
        let c = f.context()
        let post = f.model.entity("Post")!
        try c.batchInsert(post, policy: .objectTrump, count: 2) { i in ["remoteID": .text("r\(i)"), "title": .text("a")] }
        try c.batchInsert(post, policy: .objectTrump, count: 2) { i in ["remoteID": .text("r\(i + 1)"), "title": .text("b")] }
        // The second request: r1 exists (updated: every attribute outside the constraint, the
        // author key's slot left clear), r2 is new.
        let second = try f.changes().filter { $0[3] == .integer(2) }
        #expect(second.map { [$0[0], $0[2]] } == [[.integer(1), .integer(2)], [.integer(0), .integer(4)]], "\(second)")
        #expect(second[0][4] == .text("58"), "\(second)")
    }

    @Test(
        "History requests: the whole history, after a token, after a date, tailored to an entity, an object or an author; the purge deletes transactions and, by cascade, their changes"
    )
    func requests() throws {
        let f = try Fixture()
        let post = f.model.entity("Post")!
        let person = f.model.entity("Person")!
        let posts = try f.insertPosts(4, context: f.context(author: "app"))
        let sync = f.context(author: "sync")
        let someone = sync.insert(person, values: [.text("ann")])
        try sync.save()
        let editor = f.context(author: "app")
        for o in editor.objects(post, ids: [posts[0].objectID]) { try editor.set(o, attribute: 2, to: .real(7)) }
        try editor.save()
        let reader = f.context()
        let all = try reader.fetchHistory(HistoryRequest(start: .all))
        #expect(all.map(\.token) == [1, 2, 3])
        #expect(all.map(\.author) == ["app", "sync", "app"])
        #expect(all.map { $0.changes.count } == [4, 1, 1])
        let afterFirst = try reader.fetchHistory(HistoryRequest(start: .token(1)))
        #expect(afterFirst.map(\.token) == [2, 3])
        let second = try #require(all[1].timestamp)
        #expect(try reader.fetchHistory(HistoryRequest(start: .date(second))).map(\.token) == [3])
        let people = try reader.fetchHistory(HistoryRequest(start: .all, entities: [person]))
        #expect(people.flatMap(\.changes).map(\.objectID) == [someone.objectID])
        let one = try reader.fetchHistory(HistoryRequest(start: .all, entities: [post], objectID: posts[0].objectID))
        #expect(one.flatMap(\.changes).map(\.type) == [.insert, .update])
        #expect(one.last?.changes.first?.updatedAttributes == [2])
        let bySync = try reader.fetchHistory(HistoryRequest(start: .all, author: "sync"))
        #expect(bySync.map(\.token) == [2])
        // The SQL: a token is a Z_PK comparison, a date the timestamp's, a tailored request reads ACHANGE only.
        #expect(HistoryRequest(start: .token(1)).statements.map(\.sql)[0].contains("WHERE ( t0.Z_PK > ?)"))
        #expect(HistoryRequest(start: .date(1)).statements.map(\.sql)[0].contains("WHERE ( t0.ZTIMESTAMP > ?)"))
        #expect(HistoryRequest(start: .all, entities: [post]).statements.count == 1)
        // The purge: transactions before token 3 and their five changes.
        #expect(try reader.deleteHistory(before: .token(3)) == 2)
        #expect(try f.db.rows("SELECT Z_PK FROM ATRANSACTION") == [[.integer(3)]])
        #expect(try f.db.rows("SELECT ZTRANSACTIONID FROM ACHANGE") == [[.integer(3)]])
        #expect(try f.db.scalar("SELECT COUNT(*) FROM sqlite_temp_master WHERE type = 'trigger'") == .integer(0))
        // On a store without history, a request is refused.
        let plain = try Fixture(variant: "plain")
        #expect(throws: HistoryOffError.self) { try plain.context().fetchHistory(HistoryRequest(start: .all)) }
    }
}
