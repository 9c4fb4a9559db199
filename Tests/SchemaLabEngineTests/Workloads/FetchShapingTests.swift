import Foundation
import Testing
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// Runs the shapes fixture (100 notes, two variants) once and checks the SQL each
/// result type issued, how many statements each access pattern ran, and the results.
@Suite("Fetch shaping: result types, the batching trap, paging, the section rule")
struct FetchShapingTests {
    static let run: (results: [CaseResult], dir: String) = {
        let plan = try! ScenarioPlan(ScenarioDecoder.load(path: TestSupport.packageRoot + "/Tests/Fixtures/shapes.json"))
        let dir = try! TestSupport.temporaryDirectory()
        let results = try! CaseScheduler(plan: plan, options: RunOptions(), workDirectory: dir).run()
        try? FileManager.default.removeItem(atPath: dir)
        return (results, dir)
    }()

    func result(_ variant: String, _ workload: String) -> CaseResult {
        Self.run.results.first { $0.variant == variant && $0.workload == workload }!
    }

    func sql(_ variant: String, _ workload: String) -> [String] { result(variant, workload).plans.map(\.sql) }

    @Test("Every case returns the reference variant's result, and agreesWith pairs agree")
    func checks() {
        for c in Self.run.results {
            #expect(c.referenceCheck == (c.variant == "flat" ? .reference : .same), "\(c.variant) \(c.workload)")
        }
        for w in ["ids", "agg-swift", "trap-array", "pages"] {
            for v in ["flat", "split"] { #expect(result(v, w).agreementCheck == .same, "\(v) \(w)") }
        }
        #expect(result("flat", "objects").agreementCheck == .notChecked)
    }

    @Test("Object IDs, count and dictionaries issue Core Data's statement shapes")
    func resultTypeSQL() {
        #expect(sql("flat", "ids") == ["SELECT 0, t0.Z_PK FROM ZNOTE t0 ORDER BY t0.ZCREATED"])
        #expect(
            sql("split", "ids") == [
                "SELECT 0, t0.Z_PK FROM ZNOTE t0 LEFT OUTER JOIN ZNOTEINFO t1 ON t0.ZINFO = t1.Z_PK ORDER BY t1.ZCREATED"
            ])
        #expect(sql("flat", "count") == ["SELECT COUNT(*) FROM ZNOTE"])
        #expect(result("flat", "count").signature.values == [[.integer(100)]])
        #expect(sql("flat", "dicts") == ["SELECT t0.ZTITLE, t0.ZSTARS FROM ZNOTE t0 ORDER BY t0.ZCREATED"])
        #expect(
            sql("split", "dicts") == [
                "SELECT t0.ZTITLE, t1.ZSTARS FROM ZNOTE t0 LEFT OUTER JOIN ZNOTEINFO t1 ON t0.ZINFO = t1.Z_PK ORDER BY t1.ZCREATED"
            ])
        #expect(result("flat", "dicts").rows == 100)
        #expect(sql("flat", "per-stars") == ["SELECT t0.ZSTARS, COUNT( t0.ZCREATED) FROM ZNOTE t0 GROUP BY t0.ZSTARS ORDER BY t0.ZSTARS"])
        let groups = result("flat", "per-stars").signature.values!
        #expect(groups.count == 6)
        #expect(groups.reduce(0) { $0 + ($1[1].integerValue ?? 0) } == 100)
        #expect(sql("flat", "agg-sql") == ["SELECT min( t0.ZSTARS), max( t0.ZSTARS), avg( t0.ZCREATED), total( t0.ZSTARS) FROM ZNOTE t0"])
        #expect(result("flat", "agg-sql").signature.values![0][0] == .integer(0))
        #expect(result("flat", "agg-sql").signature.values![0][1] == .integer(5))
    }

    @Test("The raw result types are measured against the bare C API floor; object fetches are not")
    func floor() {
        for w in ["ids", "count", "dicts", "per-stars", "agg-sql"] {
            let f = result("flat", w).floor
            #expect(f != nil && f!.median > 0, "\(w)")
        }
        #expect(result("flat", "objects").floor == nil)
    }

    @Test(
        "The batching trap: batch size 20 over 100 objects, as a whole array or scrolled, runs 1 ID query plus 5 batches; a first screen 1 plus 1"
    )
    func batchingTrap() {
        #expect(result("flat", "trap-array").statements == 1 + 5)
        #expect(result("flat", "trap-scroll").statements == 1 + 5)
        #expect(result("flat", "trap-screen").statements == 1 + 1)
        #expect(result("flat", "objects").statements == 1)
        let s = sql("flat", "trap-array")
        #expect(s[0] == "SELECT 0, t0.Z_PK FROM ZNOTE t0 ORDER BY t0.ZCREATED")
        #expect(s[1].hasSuffix("FROM ZNOTE t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0) LIMIT 20"))
    }

    @Test("Paging runs one LIMIT/OFFSET query per page, the numbers written as Core Data writes them, and returns the objects in order")
    func paging() {
        let c = result("flat", "pages")
        #expect(c.statements == 4, "pages of 30, 30, 30, 10")
        #expect(c.rows == 100)
        let stem = "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCREATED, t0.ZSTARS, t0.ZTITLE FROM ZNOTE t0 ORDER BY t0.ZCREATED"
        #expect(
            sql("flat", "pages") == [
                stem + " LIMIT 30", stem + " LIMIT 30 OFFSET 30", stem + " LIMIT 30 OFFSET 60", stem + " LIMIT 30 OFFSET 90",
            ])
        #expect(result("flat", "limited").rows == 10)
        #expect(sql("flat", "limited")[0].hasSuffix("ORDER BY t0.ZCREATED LIMIT 10 OFFSET 5"))
    }

    @Test("includesPropertyValues false fetches IDs only; each touched object fires its own fault")
    func faultsOnly() {
        #expect(result("flat", "faults").statements == 1 + 10)
        #expect(sql("flat", "faults")[0] == "SELECT 0, t0.Z_PK FROM ZNOTE t0 ORDER BY t0.ZTITLE, t0.ZCREATED")
        #expect(sql("flat", "faults")[1].hasSuffix("WHERE t0.Z_PK = ?"))
    }

    @Test("The section rule: GROUP BY when the context is clean and unlimited; a walk with faults under a fetchLimit")
    func sectionRule() {
        #expect(result("split", "sections").statements == 2)
        #expect(sql("split", "sections")[1].contains("GROUP BY t1.ZSTARS"))
        // With a fetchLimit the controller walks the 40 objects: meta faults in the split variant.
        #expect(result("split", "sections-limited").statements == 1 + 40)
        #expect(result("flat", "sections-limited").statements == 1)
    }

    @Test(
        "Predicates: bound constants, a JOIN promoted to LEFT OUTER when the sort shares the path, registered string functions, dates, HAVING"
    )
    func predicates() {
        #expect(
            sql("flat", "filtered") == [
                "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCREATED, t0.ZSTARS, t0.ZTITLE FROM ZNOTE t0 WHERE (t0.ZSTARS >= ? AND NSCoreDataStringSearch(t0.ZTITLE, ?, 265, 0)) ORDER BY t0.ZCREATED"
            ])
        #expect(
            sql("split", "filtered") == [
                "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZINFO FROM ZNOTE t0 LEFT OUTER JOIN ZNOTEINFO t1 ON t0.ZINFO = t1.Z_PK WHERE (t1.ZSTARS >= ? AND NSCoreDataStringSearch(t0.ZTITLE, ?, 265, 0)) ORDER BY t1.ZCREATED"
            ])
        #expect(
            sql("split", "filtered-count") == [
                "SELECT COUNT( DISTINCT t0.Z_PK) FROM ZNOTE t0 JOIN ZNOTEINFO t1 ON t0.ZINFO = t1.Z_PK WHERE (t1.ZSTARS >= ? AND NSCoreDataStringSearch(t0.ZTITLE, ?, 265, 0))"
            ])
        let n = result("flat", "filtered").rows
        #expect(n > 0 && n < 100)
        #expect(result("flat", "filtered-count").signature.values == [[.integer(Int64(n))]])
        #expect(result("flat", "recent").rows > 20 && result("flat", "recent").rows < 80)
        #expect(
            sql("flat", "big-groups") == [
                "SELECT t0.ZSTARS, COUNT( t0.ZCREATED) AS __var0 FROM ZNOTE t0 GROUP BY t0.ZSTARS HAVING __var0 > ? ORDER BY t0.ZSTARS"
            ])
        let groups = result("flat", "per-stars").signature.values!.filter { ($0[1].integerValue ?? 0) > 16 }
        #expect(result("flat", "big-groups").signature.values! == groups)
        #expect(!groups.isEmpty && groups.count < 6)
    }
}
