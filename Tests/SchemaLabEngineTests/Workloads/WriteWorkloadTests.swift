import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// The write side: five ways to ingest, uniqueness constraints and re-ingest, update-or-
/// insert, batch update and delete, a reader under a writer. Each workload runs on its own
/// store in a temporary directory; the tests check the rows it leaves and the statements
/// it issues, not only that it ran.
@Suite("Write workloads: ingest, upsert, update, delete, a reader under a writer")
struct WriteWorkloadTests {
    /// Runs one workload once on a fresh store (empty, or a copy of the filled one) and
    /// returns the store (open), the outcome and the distinct statements it ran.
    final class Run {
        let dir: String
        let store: Store
        let outcome: WorkloadOutcome
        let log: [String]
        let executions: Int
        let workload: any Workload

        init(_ json: String, workload name: String, variant: String = "unique", size: Int? = nil) throws {
            let plan = try TestSupport.decode(json)
            dir = try TestSupport.temporaryDirectory()
            let index = plan.scenario.variants.firstIndex { $0.name == variant }!
            let model = plan.models[index]
            let mom = ManagedObjectModel(model)
            let placement = try plan.placement(for: mom)
            let data = GeneratedData(spec: plan.scenario.dataset, count: size ?? plan.scenario.dataset.counts[0])
            let spec = plan.scenario.workloads.first { $0.name == name }!
            workload = try WorkloadFactory.make(spec, model: mom, dataset: plan.scenario.dataset, data: data, placement: placement)
            let path = dir + "/store.sqlite"
            if workload.storeKind == .empty {
                store = try Store.create(path: path, model: model)
            } else {
                let filled = try Store.create(path: dir + "/filled.sqlite", model: model)
                let context = ManagedObjectContext(store: filled, objectModel: mom)
                try InsertWorkload.insertAll(data, placement: placement, into: context)
                try context.save()
                _ = try filled.db.rows("PRAGMA wal_checkpoint(TRUNCATE)")
                try FileManager.default.copyItem(atPath: dir + "/filled.sqlite", toPath: path)
                store = try Store.open(path: path, model: model)
            }
            try workload.prepare(store: store)
            store.db.beginStatementLog()
            outcome = try workload.run(store: store)
            log = store.db.statementLog
            executions = store.db.executions
        }

        deinit { try? FileManager.default.removeItem(atPath: dir) }

        /// Every Quake row's attributes (no Z_PK), sorted by code.
        func rows() throws -> [[SQLValue]] {
            try store.db.rows("SELECT ZCODE, ZMAGNITUDE, ZPLACE, ZTIME, ZVALIDATED FROM ZQUAKE ORDER BY ZCODE")
        }
    }

    // MARK: Ingest

    @Test("All five ingest strategies leave the same rows, and the same logical signature")
    func ingestSameRows() throws {
        let runs = try ["objects", "chunked", "array", "handler", "per-record"].map {
            try Run(QuakeWriteScenarios.ingest, workload: $0, variant: "plain")
        }
        let expected = try runs[0].rows()
        #expect(expected.count == 150)
        for r in runs.dropFirst() {
            #expect(try r.rows() == expected)
            #expect(try r.outcome.digest().digest == (try runs[0].outcome.digest().digest))
        }
        // Z_PK 1...150 in every strategy, and Z_MAX advanced to 150.
        for r in runs {
            #expect(
                try r.store.db.rows("SELECT MIN(Z_PK), MAX(Z_PK), COUNT(DISTINCT Z_PK) FROM ZQUAKE") == [
                    [.integer(1), .integer(150), .integer(150)]
                ])
            #expect(try r.store.db.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Quake'") == .integer(150))
        }
    }

    @Test("A batch insert is one transaction: the key block, one INSERT per record, COMMIT; a save per record is two")
    func ingestStatements() throws {
        let insert = "INSERT INTO ZQUAKE(Z_PK, Z_ENT, Z_OPT, ZCODE, ZMAGNITUDE, ZPLACE, ZTIME, ZVALIDATED) VALUES(?, ?, ?, ?, ?, ?, ?, ?)"
        for name in ["array", "handler"] {
            let r = try Run(QuakeWriteScenarios.ingest, workload: name, variant: "plain")
            #expect(r.log == ["BEGIN EXCLUSIVE", SaveSQL.selectMax, SaveSQL.updateMax, insert, "COMMIT"])
            #expect(r.executions == 4 + 150)
        }
        let perRecord = try Run(QuakeWriteScenarios.ingest, workload: "per-record", variant: "plain")
        #expect(perRecord.executions == 150 * 7, "BEGIN, SELECT Z_MAX, UPDATE Z_MAX, COMMIT, BEGIN, INSERT, COMMIT per record")
        let chunked = try Run(QuakeWriteScenarios.ingest, workload: "chunked", variant: "plain")
        #expect(chunked.executions == 150 + 6 * 3, "3 saves of at most 64 rows: 6 statements each besides the INSERTs")
    }

    @Test("A uniqueness constraint is a unique index named as Core Data names it; a duplicate fails with the record's position")
    func uniquenessConstraint() throws {
        let plan = try TestSupport.decode(QuakeWriteScenarios.ingest)
        let ddl = SchemaDDL(model: plan.models[1]).statements
        #expect(ddl.contains("CREATE UNIQUE INDEX IF NOT EXISTS Z_Quake_UNIQUE_code ON ZQUAKE (ZCODE COLLATE BINARY ASC)"))
        #expect(!SchemaDDL(model: plan.models[0]).statements.contains { $0.contains("UNIQUE") })
        // A plain batch insert of a record whose key is stored already: the error names the record.
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let model = plan.models[1]
        let store = try Store.create(path: dir + "/s.sqlite", model: model)
        let mom = ManagedObjectModel(model)
        let context = ManagedObjectContext(store: store, objectModel: mom)
        let e = mom.entity("Quake")!
        try context.batchInsert(e, policy: .error, count: 3) { ["code": .text("c\($0)")] }
        // The error policy ignores the duplicate; an object save of it fails.
        try context.batchInsert(e, policy: .error, count: 2) { ["code": .text("c\($0 + 2)")] }
        #expect(try store.db.scalar("SELECT COUNT(*) FROM ZQUAKE") == .integer(4))
        _ = context.insert(e, values: [.text("c1"), .null, .null, .null, .null])
        #expect { try context.save() } throws: { error in
            "\(error)".contains("UNIQUE constraint failed: ZQUAKE.ZCODE")
        }
        // An index declared unique (no constraint, so a plain INSERT): the failing record's position.
        let json = QuakeWriteScenarios.ingest.replacingOccurrences(
            of: #""addUniquenessConstraints": [{"entity": "Quake", "attributes": ["code"]}]"#,
            with: #""addIndexes": [{"name": "byPlace", "entity": "Quake", "elements": ["place"], "unique": true}]"#)
        #expect { try Run(json, workload: "array") } throws: { error in
            let text = "\(error)"
            return text.contains("SQLite error 2067: UNIQUE constraint failed: ZQUAKE.ZPLACE (record ")
                && text.contains(" of 150) - while executing `INSERT INTO ZQUAKE")
        }
    }

    @Test(
        "A non-optional attribute: no field filling it is a validation error; an object or record without a value fails before any SQL, named"
    )
    func validation() throws {
        let json = QuakeWriteScenarios.ingest
            .replacingOccurrences(
                of: #"{"name": "time", "type": "date"}"#,
                with: #"{"name": "time", "type": "date"}, {"name": "note", "type": "string", "optional": false}"#)
        #expect { try TestSupport.decode(json) } throws: {
            "\($0)"
                == "test.json: $.dataset.fields: in variant plain, Quake.note is not optional, but no field fills it (every save of the data set would fail validation)"
        }
        // With a field filling it, the plan builds; objects and records without a value still fail.
        let filled = json.replacingOccurrences(
            of: #"{"field": "code", "generator": {"kind": "uuid", "prefix": "ci"}},"#,
            with:
                #"{"field": "code", "generator": {"kind": "uuid", "prefix": "ci"}}, {"field": "note", "generator": {"kind": "constant", "value": "n"}},"#
        )
        let plan = try TestSupport.decode(filled)
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try Store.create(path: dir + "/s.sqlite", model: plan.models[0])
        let mom = ManagedObjectModel(plan.models[0])
        let e = mom.entity("Quake")!
        let context = ManagedObjectContext(store: store, objectModel: mom)
        _ = context.insert(e, values: [.text("a"), .null, .text("n"), .null, .null, .null])
        _ = context.insert(e, values: [.text("b"), .null, .null, .null, .null, .null])
        #expect { try context.save() } throws: {
            "\($0)" == "validation failed: Quake.note is not optional and has no value (object 2 of 2 inserted)"
        }
        #expect {
            try context.batchInsert(e, policy: .error, count: 2) { ["code": .text("c\($0)"), "note": $0 == 0 ? .text("n") : .null] }
        } throws: {
            "\($0)" == "validation failed: Quake.note is not optional and has no value (record 2 of 2)"
        }
        #expect(try store.db.scalar("SELECT COUNT(*) FROM ZQUAKE") == .integer(0), "nothing written: the request rolled back")
    }

    // MARK: Re-ingest and update-or-insert

    static let reingest = QuakeWriteScenarios.scenario(
        """
        {"name": "upsert", "kind": "batchInsert", "mergePolicy": "objectTrump", "feed": {"existing": 0.8}, "variants": ["unique"]},
        {"name": "ignore", "kind": "batchInsert", "mergePolicy": "error", "feed": {"existing": 0.8}, "variants": ["unique"]},
        {"name": "each", "kind": "updateOrInsert", "key": ["code"], "feed": {"existing": 0.8}, "agreesWith": "upsert"},
        {"name": "merge", "kind": "updateOrInsert", "strategy": "sortedMerge", "mergeBatch": 32, "key": ["code"], "feed": {"existing": 0.8}, "agreesWith": "upsert", "saveEvery": 100}
        """, count: 200)

    @Test("The feed: 80% stored keys with changed values, 20% new rows, in shuffled order")
    func feed() throws {
        let plan = try TestSupport.decode(Self.reingest)
        let ds = plan.scenario.dataset
        let data = GeneratedData(spec: ds, count: 200)
        let feed = try FeedData(dataset: ds, size: 200, feed: plan.scenario.workloads[0].feed!, keyFields: ["code"])
        #expect(feed.count == 200 && feed.existingCount == 160)
        let stored = Set(data.columns[0])
        let codes = feed.columns[0]
        #expect(codes.filter { stored.contains($0) }.count == 160)
        #expect(Set(codes).count == 200)
        let more = GeneratedData(spec: ds, count: 240)
        #expect(Set(codes.filter { !stored.contains($0) }) == Set(more.columns[0][200..<240]))
        // A stored key's other fields changed (magnitude, at least, differs for almost all).
        let byCode = Dictionary(uniqueKeysWithValues: zip(data.columns[0], data.columns[1]))
        let changed = zip(codes, feed.columns[1]).filter { byCode[$0.0] != nil && byCode[$0.0] != $0.1 }.count
        #expect(changed >= 155)
        #expect(codes != codes.sorted { SQLiteOrder.less($0, $1) }, "shuffled")
    }

    @Test("UPSERT, fetch-each and the sorted merge leave the same rows; INSERT OR IGNORE keeps the stored values")
    func upsertSameRows() throws {
        let upsert = try Run(Self.reingest, workload: "upsert")
        let each = try Run(Self.reingest, workload: "each")
        let merge = try Run(Self.reingest, workload: "merge")
        let ignore = try Run(Self.reingest, workload: "ignore")
        let rows = try upsert.rows()
        #expect(rows.count == 240)
        #expect(try each.rows() == rows)
        #expect(try merge.rows() == rows)
        #expect(try ignore.rows().count == 240)
        #expect(try ignore.rows() != rows)
        #expect(try merge.outcome.digest().digest == (try upsert.outcome.digest().digest))
        // The ignore result keeps every stored row as it was: rows 0..<200 of the data set.
        let plan = try TestSupport.decode(Self.reingest)
        let data = GeneratedData(spec: plan.scenario.dataset, count: 200)
        let storedMagnitudes = Set(data.columns[1])
        #expect(try ignore.rows().filter { storedMagnitudes.contains($0[1]) }.count == 200)
        // Updated objects were written with Z_OPT 2; new rows and the 40 stored rows the feed missed have Z_OPT 1.
        #expect(
            try each.store.db.rows("SELECT Z_OPT, COUNT(*) FROM ZQUAKE GROUP BY Z_OPT ORDER BY Z_OPT") == [
                [.integer(1), .integer(80)], [.integer(2), .integer(160)],
            ])
        #expect(
            try upsert.store.db.rows("SELECT Z_OPT, COUNT(*) FROM ZQUAKE GROUP BY Z_OPT ORDER BY Z_OPT") == [
                [.integer(1), .integer(80)], [.integer(2), .integer(160)],
            ])
    }

    @Test("Statements: ON CONFLICT DO UPDATE, INSERT OR IGNORE, one fetch per record, one IN fetch per batch")
    func upsertStatements() throws {
        let upsert = try Run(Self.reingest, workload: "upsert")
        #expect(
            upsert.log.contains(
                "INSERT INTO ZQUAKE(Z_PK, Z_ENT, Z_OPT, ZCODE, ZMAGNITUDE, ZPLACE, ZTIME, ZVALIDATED) VALUES(?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(ZCODE) DO UPDATE SET Z_OPT = Z_OPT+1 , ZMAGNITUDE = excluded.ZMAGNITUDE , ZPLACE = excluded.ZPLACE , ZTIME = excluded.ZTIME , ZVALIDATED = excluded.ZVALIDATED"
            ))
        let ignore = try Run(Self.reingest, workload: "ignore")
        #expect(ignore.log.contains { $0.hasPrefix("INSERT OR IGNORE INTO ZQUAKE(Z_PK, Z_ENT, Z_OPT, ZCODE") })
        let each = try Run(Self.reingest, workload: "each")
        let fetch =
            "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCODE, t0.ZMAGNITUDE, t0.ZPLACE, t0.ZTIME, t0.ZVALIDATED FROM ZQUAKE t0 WHERE t0.ZCODE = ?"
        #expect(each.log.first == fetch)
        #expect(
            each.log.contains(
                "UPDATE OR FAIL ZQUAKE SET ZMAGNITUDE = ?, ZPLACE = ?, ZTIME = ?, ZVALIDATED = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"))
        // 200 fetches, one save: key block (4) + INSERT 40 + UPDATE 160 + BEGIN/COMMIT.
        #expect(each.executions == 200 + 4 + 40 + 160 + 2)
        let merge = try Run(Self.reingest, workload: "merge")
        let marks32 = Array(repeating: "?", count: 32).joined(separator: ",")
        #expect(
            merge.log.first
                == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCODE, t0.ZMAGNITUDE, t0.ZPLACE, t0.ZTIME, t0.ZVALIDATED FROM ZQUAKE t0 WHERE t0.ZCODE IN (\(marks32)) ORDER BY t0.ZCODE"
        )
        // 7 IN fetches (6 of 32, one of 8: two statements); a save after 128 records and one at the
        // end, each BEGIN/COMMIT plus the key block when it inserts.
        #expect(merge.log.filter { $0.contains(" IN (") }.count == 2)
        #expect((7 + 200 + 2 * 2)...(7 + 200 + 2 * 6) ~= merge.executions)
    }

    @Test("sortedMerge needs a single key; a feed needs a uniqueness constraint for a batch insert")
    func upsertErrors() throws {
        let compound = QuakeWriteScenarios.scenario(
            #"{"name": "m", "kind": "updateOrInsert", "strategy": "sortedMerge", "key": ["code", "place"], "feed": {}}"#)
        #expect { try TestSupport.decode(compound) } throws: {
            "\($0)".contains("$.workloads[0].key: the sortedMerge strategy fetches 'key IN (...)': it takes one key attribute")
        }
        let noConstraint = QuakeWriteScenarios.scenario(#"{"name": "b", "kind": "batchInsert", "feed": {}}"#)
        #expect { try TestSupport.decode(noConstraint) } throws: {
            "\($0)".contains("$.workloads[0].feed: in variant plain, Quake has no uniqueness constraint")
        }
        let badKey = QuakeWriteScenarios.scenario(#"{"name": "m", "kind": "updateOrInsert", "key": ["nope"], "feed": {}}"#)
        #expect { try TestSupport.decode(badKey) } throws: { "\($0)".contains("$.workloads[0].key[0]") }
        let missing = QuakeWriteScenarios.scenario(#"{"name": "m", "kind": "updateOrInsert", "key": ["code"]}"#)
        #expect { try TestSupport.decode(missing) } throws: { "\($0)".contains("needs 'feed'") }
        let wrongKey = QuakeWriteScenarios.scenario(#"{"name": "m", "kind": "batchUpdate", "set": {"validated": true}, "sort": ["time"]}"#)
        #expect { try TestSupport.decode(wrongKey) } throws: {
            "\($0)".contains("$.workloads[0].sort: a batchUpdate workload takes no 'sort'")
        }
        let misspelled = QuakeWriteScenarios.scenario(#"{"name": "m", "kind": "batchUpdate", "set": {"validatd": true}}"#)
        #expect { try TestSupport.decode(misspelled) } throws: {
            "\($0)".contains("$.workloads[0].set.validatd: in variant plain, Quake has no attribute 'validatd'")
        }
        let setNull = QuakeWriteScenarios.scenario(#"{"name": "m", "kind": "batchUpdate", "set": {"place": null}}"#)
        #expect(throws: Never.self) { try TestSupport.decode(setNull) }
        let badValue = QuakeWriteScenarios.scenario(#"{"name": "m", "kind": "batchUpdate", "set": {"validated": "yes"}}"#)
        #expect { try TestSupport.decode(badValue) } throws: {
            "\($0)".contains("$.workloads[0].set.validated: Quake.validated (bool) cannot hold 'yes'")
        }
    }

    // MARK: Batch update and delete

    static let updates = QuakeWriteScenarios.scenario(
        """
        {"name": "batch-update", "kind": "batchUpdate", "predicate": "magnitude > %@", "arguments": [2.5], "set": {"validated": true}},
        {"name": "object-update", "kind": "update", "predicate": "magnitude > %@", "arguments": [2.5], "set": {"validated": true}, "agreesWith": "batch-update"},
        {"name": "batch-delete", "kind": "batchDelete", "predicate": "time < %@", "arguments": [{"date": "2020-05-16"}]},
        {"name": "batch-delete-20", "kind": "batchDelete", "predicate": "time < %@", "arguments": [{"date": "2020-05-16"}], "fetchLimit": 20},
        {"name": "object-delete", "kind": "delete", "predicate": "time < %@", "arguments": [{"date": "2020-05-16"}]},
        {"name": "object-delete-20", "kind": "delete", "predicate": "time < %@", "arguments": [{"date": "2020-05-16"}], "fetchLimit": 20},
        {"name": "delete-all", "kind": "batchDelete"}
        """, count: 200)

    @Test("Batch update and object update leave the same rows; one UPDATE ... AS t0 against one per object")
    func updates() throws {
        let batch = try Run(Self.updates, workload: "batch-update")
        let objects = try Run(Self.updates, workload: "object-update")
        #expect(try batch.rows() == (try objects.rows()))
        let hits = try batch.store.db.scalar("SELECT COUNT(*) FROM ZQUAKE WHERE ZMAGNITUDE > 2.5").integerValue!
        #expect(hits > 50)
        #expect(try batch.store.db.scalar("SELECT COUNT(*) FROM ZQUAKE WHERE ZMAGNITUDE > 2.5 AND ZVALIDATED = 1") == .integer(hits))
        #expect(
            batch.log == [
                "BEGIN EXCLUSIVE", "UPDATE OR FAIL ZQUAKE AS t0 SET ZVALIDATED = ?, Z_OPT = (Z_OPT + 1) WHERE t0.ZMAGNITUDE > ?", "COMMIT",
            ])
        #expect(objects.log.contains("UPDATE OR FAIL ZQUAKE SET ZVALIDATED = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"))
        #expect(objects.executions == 1 + 2 + Int(hits), "the fetch, BEGIN and COMMIT, one UPDATE per object")
        #expect(try batch.store.db.rows("SELECT DISTINCT Z_OPT FROM ZQUAKE WHERE ZMAGNITUDE > 2.5") == [[.integer(2)]])
        #expect(try objects.store.db.rows("SELECT DISTINCT Z_OPT FROM ZQUAKE WHERE ZMAGNITUDE > 2.5") == [[.integer(2)]])
    }

    @Test("Batch delete, limited batch delete and object deletes leave the same rows; the limit splits the transactions")
    func deletes() throws {
        let runs = try ["batch-delete", "batch-delete-20", "object-delete", "object-delete-20"].map { try Run(Self.updates, workload: $0) }
        let rows = try runs[0].rows()
        let deleted = 200 - rows.count
        #expect(deleted > 60 && deleted < 140)
        for r in runs { #expect(try r.rows() == rows) }
        #expect(
            runs[0].log == [
                "BEGIN EXCLUSIVE", "DELETE FROM ZQUAKE WHERE Z_PK IN (SELECT t0.Z_PK FROM ZQUAKE t0 WHERE t0.ZTIME < ?)", "COMMIT",
            ])
        #expect(
            runs[1].log == [
                "BEGIN EXCLUSIVE", "DELETE FROM ZQUAKE WHERE Z_PK IN (SELECT t0.Z_PK FROM ZQUAKE t0 WHERE t0.ZTIME < ? LIMIT 20)", "COMMIT",
            ])
        #expect(runs[1].executions == 3 * (deleted / 20 + 1), "one request (BEGIN, DELETE, COMMIT) per 20 rows, the last short")
        #expect(runs[2].log.contains("DELETE FROM ZQUAKE WHERE Z_PK = ? AND Z_OPT = ?"))
        #expect(runs[2].executions == 1 + 2 + deleted)
        let rounds = deleted / 20 + 1, saving = (deleted + 19) / 20
        #expect(runs[3].executions == rounds + 2 * saving + deleted, "a fetch per round, BEGIN and COMMIT per round that deletes")
        for r in runs { #expect(r.outcome.rows == deleted) }
        let all = try Run(Self.updates, workload: "delete-all")
        #expect(try all.rows().isEmpty)
    }

    @Test("The longest write transaction: BEGIN to COMMIT or ROLLBACK, or one autocommit write; reads and failed statements do not end it")
    func longestWrite() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = try Database(path: dir + "/t.sqlite")
        try db.execute("CREATE TABLE t (x UNIQUE)")
        try db.execute("INSERT INTO t VALUES (0)")
        db.resetCounters()
        #expect(db.longestWriteNanoseconds == 0)
        try db.execute("SELECT * FROM t")
        #expect(db.longestWriteNanoseconds == 0, "a read in autocommit mode is no write transaction")
        // BEGIN EXCLUSIVE (a write for sqlite3_stmt_readonly) held 40 ms before COMMIT.
        try db.execute("BEGIN EXCLUSIVE")
        usleep(40_000)
        try db.execute("INSERT INTO t VALUES (1)")
        #expect(db.longestWriteNanoseconds == 0, "still open")
        try db.execute("COMMIT")
        #expect(db.longestWriteNanoseconds >= 40_000_000)
        // A deferred BEGIN (read-only for SQLite) ended by ROLLBACK.
        db.resetCounters()
        try db.execute("BEGIN")
        usleep(30_000)
        try db.execute("INSERT INTO t VALUES (2)")
        try db.execute("ROLLBACK")
        #expect(db.longestWriteNanoseconds >= 30_000_000)
        // A statement that fails inside the transaction does not end it; the COMMIT does.
        db.resetCounters()
        try db.execute("BEGIN EXCLUSIVE")
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (1)") }
        usleep(20_000)
        #expect(db.longestWriteNanoseconds == 0)
        try db.execute("COMMIT")
        #expect(db.longestWriteNanoseconds >= 20_000_000)
        // One write in autocommit mode is its own transaction.
        db.resetCounters()
        try db.execute("INSERT INTO t VALUES (3)")
        #expect(db.longestWriteNanoseconds > 0)
        // Through a workload: the batch delete's one transaction is recorded on its store.
        let r = try Run(Self.updates, workload: "batch-delete")
        #expect(r.store.db.longestWriteNanoseconds > 0)
    }

    static let library = try! String(
        contentsOfFile: TestSupport.packageRoot + "/Tests/Fixtures/delete-rules.json", encoding: .utf8)

    @Test("Deleting authors cascades to their books and removes their tag links, in a batch (temporary trigger) and through objects")
    func deleteRules() throws {
        let batch = try Run(Self.library, workload: "batch", variant: "cascade")
        let objects = try Run(Self.library, workload: "objects", variant: "cascade")
        let q = [
            "SELECT ZNAME FROM ZAUTHOR ORDER BY ZNAME", "SELECT ZTITLE, ZAUTHOR FROM ZBOOK ORDER BY Z_PK",
            "SELECT * FROM Z_1TAGS ORDER BY 1, 2", "SELECT COUNT(*) FROM ZTAG",
        ]
        for sql in q { #expect(try batch.store.db.rows(sql) == (try objects.store.db.rows(sql)), "\(sql)") }
        #expect(try batch.store.db.scalar("SELECT COUNT(*) FROM ZBOOK WHERE ZAUTHOR NOT IN (SELECT Z_PK FROM ZAUTHOR)") == .integer(0))
        #expect(try batch.store.db.scalar("SELECT COUNT(*) FROM ZTAG") == .integer(10), "nullify keeps the tags")
        let left = try batch.store.db.scalar("SELECT COUNT(*) FROM ZAUTHOR").integerValue!
        #expect(left > 5 && left < 40)
        #expect(batch.log.first == "BEGIN EXCLUSIVE")
        #expect(
            batch.log[1]
                == "CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_ZAUTHOR_TRIGGER AFTER DELETE ON ZAUTHOR FOR EACH ROW BEGIN DELETE FROM ZBOOK WHERE ZAUTHOR = OLD.Z_PK ; DELETE FROM Z_1TAGS WHERE Z_1AUTHORS = OLD.Z_PK ; END"
        )
        #expect(batch.log.contains("DROP TRIGGER IF EXISTS ZQ_ZAUTHOR_TRIGGER"))
        #expect(objects.log.contains("DELETE FROM ZBOOK WHERE Z_PK = ? AND Z_OPT = ?"))
        #expect(objects.log.contains("DELETE FROM Z_1TAGS WHERE Z_1AUTHORS = ? AND Z_3TAGS = ?"))
    }

    static let chain = """
        {"format": 1, "name": "chain",
         "variants": [{"name": "cascade", "entities": [
            {"name": "Author", "attributes": [{"name": "name", "type": "string"}],
             "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "author", "deleteRule": "cascade"}]},
            {"name": "Book", "attributes": [{"name": "title", "type": "string"}],
             "relationships": [{"name": "author", "destination": "Author", "inverse": "books"},
                               {"name": "notes", "destination": "Note", "toMany": true, "inverse": "book", "deleteRule": "cascade"}]},
            {"name": "Note", "attributes": [{"name": "text", "type": "string"}],
             "relationships": [{"name": "book", "destination": "Book", "inverse": "notes"}]}]}],
         "dataset": {"seed": 4, "entity": "Author", "counts": [30], "fields": [{"field": "name", "generator": {"kind": "uuid"}}],
           "related": [{"relationship": "books", "fanOut": {"kind": "uniformInt", "min": 0, "max": 3},
                        "fields": [{"field": "title", "generator": {"kind": "text", "minLength": 3, "maxLength": 8}}],
                        "related": [{"relationship": "notes", "fanOut": {"kind": "uniformInt", "min": 0, "max": 3},
                                     "fields": [{"field": "text", "generator": {"kind": "text", "minLength": 3, "maxLength": 8}}]}]}]},
         "workloads": [
           {"name": "batch", "kind": "batchDelete", "predicate": "name < %@", "arguments": ["8"]},
           {"name": "objects", "kind": "delete", "predicate": "name < %@", "arguments": ["8"], "agreesWith": "batch"}],
         "measurement": {"warmup": 0, "repetitions": 1}}
        """

    @Test(
        "A cascade two levels deep: one temporary trigger per entity it reaches, so notes of deleted books go too; deny anywhere on the way is refused"
    )
    func deepCascade() throws {
        let batch = try Run(Self.chain, workload: "batch", variant: "cascade")
        let objects = try Run(Self.chain, workload: "objects", variant: "cascade")
        #expect(batch.log.contains { $0.hasPrefix("CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_ZAUTHOR_TRIGGER") })
        #expect(
            batch.log.contains(
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_ZBOOK_TRIGGER AFTER DELETE ON ZBOOK FOR EACH ROW BEGIN DELETE FROM ZNOTE WHERE ZBOOK = OLD.Z_PK ; END"
            ))
        for sql in [
            "SELECT ZNAME FROM ZAUTHOR ORDER BY ZNAME", "SELECT ZTITLE, ZAUTHOR FROM ZBOOK ORDER BY Z_PK",
            "SELECT ZTEXT, ZBOOK FROM ZNOTE ORDER BY Z_PK",
        ] {
            #expect(try batch.store.db.rows(sql) == (try objects.store.db.rows(sql)), "\(sql)")
        }
        #expect(try batch.store.db.scalar("SELECT COUNT(*) FROM ZNOTE WHERE ZBOOK NOT IN (SELECT Z_PK FROM ZBOOK)") == .integer(0))
        #expect(try batch.store.db.scalar("SELECT COUNT(*) FROM ZBOOK WHERE ZAUTHOR NOT IN (SELECT Z_PK FROM ZAUTHOR)") == .integer(0))
        let deleted = try batch.store.db.scalar("SELECT COUNT(*) FROM ZAUTHOR").integerValue!
        #expect(deleted > 0 && deleted < 30)
        let deny = Self.chain.replacingOccurrences(
            of: #""inverse": "book", "deleteRule": "cascade""#, with: #""inverse": "book", "deleteRule": "deny""#)
        #expect { try TestSupport.decode(deny) } throws: {
            "\($0)".contains(
                "$.workloads[0].kind: in variant cascade, Book.notes has delete rule 'deny', which a delete workload does not model")
        }
    }

    // MARK: A reader under a writer

    static let readers = QuakeWriteScenarios.scenario(
        """
        {"name": "wal", "kind": "readerUnderWriter", "count": 400, "saveEvery": 100, "sort": [{"key": "time", "ascending": false}], "fetchLimit": 20, "touch": 20},
        {"name": "rollback", "kind": "readerUnderWriter", "journalMode": "delete", "count": 400, "sort": [{"key": "time", "ascending": false}], "fetchLimit": 20, "agreesWith": "wal"}
        """, count: 300)

    @Test("A reader under a writer: every read recorded, the writer's rows all saved, in WAL and rollback modes")
    func readerUnderWriter() throws {
        for name in ["wal", "rollback"] {
            let r = try Run(Self.readers, workload: name, variant: "plain")
            #expect(!r.outcome.reads.isEmpty)
            #expect(r.outcome.rows == r.outcome.reads.count)
            #expect(r.outcome.reads.allSatisfy { $0.ms > 0 })
            #expect(try r.store.db.scalar("SELECT COUNT(*) FROM ZQUAKE") == .integer(700))
            #expect(
                r.log.contains { $0.hasPrefix("SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCODE") && $0.contains("ORDER BY t0.ZTIME DESC LIMIT ") })
            #expect((r.outcome.longestWriteMs ?? 0) > 0)
            let mode = try r.store.db.scalar("PRAGMA journal_mode")
            #expect(mode == .text(name == "wal" ? "wal" : "delete"))
        }
    }

    // MARK: Memory and the CLI
}
