import Foundation
import Testing
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// A `sql` workload's statement as the decoder and the plan check it (one statement that
/// reads or writes rows, its parameters as many as its arguments, its names in every
/// variant's schema), and every workload's `weight` and `device`, each error at its JSON path.
@Suite("sql workloads, weight and device: decoded and checked, errors at their JSON path")
struct SQLWorkloadDecodingTests {
    /// The error the quake scenario with `workload` (its JSON object) raises when decoded and planned, or nil.
    func error(_ workload: String) -> ScenarioError? {
        do {
            _ = try TestSupport.decode(QuakeWriteScenarios.scenario(workload))
            return nil
        } catch let e as ScenarioError {
            return e
        } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }

    /// A sql workload running `sql` with `arguments` (JSON text).
    func sql(_ sql: String, arguments: String = "[]") -> String {
        #"{"name": "raw", "kind": "sql", "sql": "\#(sql)", "arguments": \#(arguments)}"#
    }

    @Test("A query, a WITH query and the three writes, with their arguments, decode and plan")
    func valid() throws {
        for text in [
            sql("SELECT t0.Z_PK, t0.ZCODE FROM ZQUAKE t0 WHERE t0.ZMAGNITUDE > ? ORDER BY t0.ZMAGNITUDE", arguments: "[2.5]"),
            sql(
                "with recent as (select ZCODE from ZQUAKE where ZTIME > ?) select count(*) from recent",
                arguments: #"[{"date": "2020-05-10"}]"#),
            sql("INSERT INTO ZQUAKE (Z_PK, Z_ENT, Z_OPT, ZCODE) VALUES (?, ?, ?, ?)", arguments: #"[100000, 1, 1, "new"]"#),
            sql("UPDATE ZQUAKE SET ZVALIDATED = ? WHERE ZPLACE = ? AND ZTIME IS NOT ?", arguments: #"[false, "Chile", null]"#),
            sql("DELETE FROM ZQUAKE WHERE ZMAGNITUDE < ?;", arguments: "[1]"),
            sql("SELECT ';', ZCODE FROM ZQUAKE -- a comment; DROP TABLE ZQUAKE"),
        ] {
            #expect(error(text) == nil, "\(text): \(error(text).map { "\($0)" } ?? "")")
        }
    }

    @Test("A second statement, DDL, a PRAGMA, ATTACH, VACUUM, a transaction or a WITH before a write: refused at 'sql'")
    func refusedStatements() {
        let cases: [(sql: String, says: String)] = [
            ("SELECT ZCODE FROM ZQUAKE; DELETE FROM ZQUAKE", "one statement only"),
            ("SELECT 1;\\n/* c */ SELECT 2", "one statement only"),
            ("CREATE INDEX i ON ZQUAKE (ZCODE)", "DDL (CREATE)"),
            ("drop table ZQUAKE", "DDL (DROP)"),
            ("ALTER TABLE ZQUAKE ADD COLUMN ZX INTEGER", "DDL (ALTER)"),
            ("PRAGMA journal_mode = delete", "a PRAGMA"),
            ("ATTACH DATABASE 'x.db' AS x", "ATTACH"),
            ("DETACH x", "DETACH"),
            ("VACUUM", "VACUUM"),
            ("BEGIN EXCLUSIVE", "a transaction statement (BEGIN)"),
            ("COMMIT", "a transaction statement (COMMIT)"),
            ("WITH old AS (SELECT Z_PK FROM ZQUAKE) DELETE FROM ZQUAKE WHERE Z_PK IN old", "a WITH clause before DELETE"),
            ("EXPLAIN QUERY PLAN SELECT 1", "a statement that begins with EXPLAIN"),
            ("   -- nothing", "the statement is empty"),
        ]
        for c in cases {
            let e = error(sql(c.sql))
            #expect(e?.path == "$.workloads[0].sql", "\(c.sql): \(e.map { "\($0)" } ?? "accepted")")
            #expect(e?.message.contains(c.says) == true, "\(c.sql): \(e?.message ?? "")")
        }
    }

    @Test("The plan prepares the statement in every variant: a missing column or table is SQLite's message at 'sql'")
    func unknownNames() {
        let column = error(sql("SELECT t0.ZDEPTH FROM ZQUAKE t0"))
        #expect(column?.path == "$.workloads[0].sql")
        #expect(
            column?.message == "in variant plain, the statement does not prepare: no such column: t0.ZDEPTH", "\(column?.message ?? "")")
        let table = error(sql("UPDATE ZQUAKES SET ZVALIDATED = 1"))
        #expect(table?.path == "$.workloads[0].sql")
        #expect(table?.message.contains("no such table: ZQUAKES") == true, "\(table?.message ?? "")")
        // Only the variants it runs in: a column the other variant lacks is refused there.
        func scenario(_ workload: String) -> String {
            QuakeWriteScenarios.scenario(workload).replacingOccurrences(
                of: #""addUniquenessConstraints": [{"entity": "Quake", "attributes": ["code"]}]"#,
                with: #""addAttributes": [{"entity": "Quake", "attribute": {"name": "depth", "type": "double"}}]"#)
        }
        let depth = #"{"name": "raw", "kind": "sql", "sql": "SELECT ZDEPTH FROM ZQUAKE""#
        #expect(throws: Never.self) { try TestSupport.decode(scenario(depth + #", "variants": ["unique"]}"#)) }
        #expect {
            try TestSupport.decode(scenario(depth + "}"))
        } throws: { error in
            let e = error as? ScenarioError
            return e?.path == "$.workloads[0].sql" && e?.message.hasPrefix("in variant plain,") == true
        }
        let entity = error(#"{"name": "raw", "kind": "sql", "entity": "Quakes", "sql": "SELECT 1"}"#)
        #expect(entity?.path == "$.workloads[0].entity", "\(entity.map { "\($0)" } ?? "accepted")")
    }

    @Test("Arguments: as many as the statement's parameters (at 'arguments', or at 'sql' when there are none), one value each")
    func argumentCount() {
        let fewer = error(sql("SELECT ZCODE FROM ZQUAKE WHERE ZMAGNITUDE > ? AND ZPLACE = ?", arguments: "[2.5]"))
        #expect(fewer?.path == "$.workloads[0].arguments")
        #expect(fewer?.message == "the statement takes 2 parameters and 'arguments' gives 1 value", "\(fewer?.message ?? "")")
        let more = error(sql("SELECT ZCODE FROM ZQUAKE", arguments: "[1, 2]"))
        #expect(more?.path == "$.workloads[0].arguments")
        let none = error(#"{"name": "raw", "kind": "sql", "sql": "DELETE FROM ZQUAKE WHERE ZPLACE = ?"}"#)
        #expect(none?.path == "$.workloads[0].sql")
        #expect(none?.message == "the statement takes 1 parameter and 'arguments' gives 0 values", "\(none?.message ?? "")")
        let array = error(sql("SELECT ZCODE FROM ZQUAKE WHERE Z_PK IN (?, ?)", arguments: "[[1, 2]]"))
        #expect(array?.path == "$.workloads[0].arguments[0]")
    }

    @Test("The keys a sql workload takes, and needs")
    func keys() {
        let missing = error(#"{"name": "raw", "kind": "sql", "arguments": [1]}"#)
        #expect(missing?.path == "$.workloads[0]" && missing?.message.contains("needs 'sql'") == true, "\(missing.map { "\($0)" } ?? "")")
        let predicate = error(#"{"name": "raw", "kind": "sql", "sql": "SELECT 1", "predicate": "magnitude > 1"}"#)
        #expect(predicate?.path == "$.workloads[0].predicate", "\(predicate.map { "\($0)" } ?? "accepted")")
        let onFetch = error(#"{"name": "f", "kind": "fetch", "sql": "SELECT 1"}"#)
        #expect(
            onFetch?.path == "$.workloads[0].sql" && onFetch?.message == "'sql' belongs to a sql workload",
            "\(onFetch.map { "\($0)" } ?? "")")
        let reason = error(#"{"name": "raw", "kind": "sql", "sql": "SELECT 1", "reason": 3}"#)
        #expect(reason?.path == "$.workloads[0].reason")
    }

    @Test("weight above 0 and device {runs >= 1, rows >= 0, seconds >= 0} on any workload, decoded as typed values")
    func weightAndDevice() throws {
        let plan = try TestSupport.decode(
            QuakeWriteScenarios.scenario(
                #"{"name": "all", "kind": "fetch", "weight": 2.5, "device": {"runs": 40, "rows": 800, "seconds": 0.25}},"#
                    + #"{"name": "objects", "kind": "insert", "device": {"runs": 1}}"#))
        let workloads = plan.scenario.workloads
        #expect(workloads[0].weight == 2.5 && workloads[0].device == DeviceUsage(runs: 40, rows: 800, seconds: 0.25))
        #expect(workloads[1].weight == 1 && workloads[1].device == DeviceUsage(runs: 1))
        let cases: [(workload: String, at: String)] = [
            (#"{"name": "w", "kind": "fetch", "weight": 0}"#, "$.workloads[0].weight"),
            (#"{"name": "w", "kind": "fetch", "weight": -1.5}"#, "$.workloads[0].weight"),
            (#"{"name": "w", "kind": "fetch", "weight": "often"}"#, "$.workloads[0].weight"),
            (#"{"name": "w", "kind": "insert", "device": {"runs": 0}}"#, "$.workloads[0].device.runs"),
            (#"{"name": "w", "kind": "insert", "device": {"rows": 3}}"#, "$.workloads[0].device"),
            (#"{"name": "w", "kind": "insert", "device": {"runs": 1, "rows": -1}}"#, "$.workloads[0].device.rows"),
            (#"{"name": "w", "kind": "insert", "device": {"runs": 1, "seconds": -0.5}}"#, "$.workloads[0].device.seconds"),
            (#"{"name": "w", "kind": "insert", "device": {"runs": 1, "ms": 3}}"#, "$.workloads[0].device.ms"),
        ]
        for c in cases {
            #expect(error(c.workload)?.path == c.at, "\(c.workload): \(error(c.workload).map { "\($0)" } ?? "accepted")")
        }
    }

    @Test("What a sql workload's text says: its verb after WITH, a second statement past comments and literals, a top-level ORDER BY")
    func statementText() {
        let with = SQLStatementText("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r ORDER BY n) SELECT n FROM r")
        #expect(with.firstWord == "WITH" && with.verb == "SELECT" && with.isQuery && !with.isOrdered)
        let ordered = SQLStatementText("select a from t where b in (select c from u order by c) order  by a")
        #expect(ordered.isOrdered && ordered.secondStatement == nil)
        let window = SQLStatementText("SELECT a, row_number() OVER (ORDER BY a) FROM t")
        #expect(!window.isOrdered)
        let quoted = SQLStatementText(#"SELECT 'it''s; fine', "a;b", [c;d], `e;f` /* ; */ FROM t; -- done"#)
        #expect(quoted.secondStatement == nil && quoted.verb == "SELECT")
        let two = SQLStatementText("UPDATE t SET a = 1;; DELETE FROM t")
        #expect(two.verb == "UPDATE" && two.secondStatement == "DELETE FROM t" && !two.isQuery)
        let open = SQLStatementText("SELECT 'unterminated; DELETE FROM t")
        #expect(open.secondStatement == nil)
        #expect(SQLStatementText("").firstWord == nil && SQLStatementText("/* only */").verb == nil)
    }

    @Test("A sql query reads only (run --store runs it, on the filled store); a sql write does not")
    func readsOnly() {
        #expect(!WorkloadKind.sql.readsOnly)
        let query = WorkloadSpec(name: "q", kind: .sql, sql: "WITH x AS (SELECT 1) SELECT * FROM x")
        let write = WorkloadSpec(name: "w", kind: .sql, sql: "UPDATE ZQUAKE SET ZVALIDATED = 1")
        #expect(query.readsOnly && query.storeKind == .filled)
        #expect(!write.readsOnly && write.storeKind == .filledCopy)
    }
}
