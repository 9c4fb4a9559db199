import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// Runs the photo matrix on a small data set once and checks what SQLite really did.
@Suite("The photo matrix: plans and counters the lab captured")
struct QueryPlanTests {
    static let results: [CaseResult] = {
        let plan = try! TestSupport.photosPlan()
        let dir = try! TestSupport.temporaryDirectory()
        let options = RunOptions(sizes: [400], repetitions: 1, warmup: 0)
        return try! CaseScheduler(plan: plan, options: options, workDirectory: dir).run()
    }()

    func result(_ variant: String, _ workload: String) -> CaseResult {
        Self.results.first { $0.variant == variant && $0.workload == workload }!
    }

    func details(_ variant: String, _ workload: String, statement: Int = 1) -> [String] {
        result(variant, workload).plans[statement - 1].plan.map(\.detail)
    }

    @Test("24 cases, one per variant and workload")
    func caseCount() {
        #expect(Self.results.count == 24)
    }

    @Test("V1+index: the sectioned controller walks the likes index and sorts the rest in a temp B-tree")
    func v1IndexPlan() {
        let d = details("V1+index", "frc-sections")
        #expect(d.contains { $0.contains("USING INDEX ZPHOTO_ZLIKES_INDEX") })
        #expect(d.contains("USE TEMP B-TREE FOR RIGHT PART OF ORDER BY"))
        #expect(details("V1+index", "fetch-sorted").contains { $0.contains("USING INDEX ZPHOTO_ZDATE_INDEX") })
    }

    @Test("V1+compound: the compound index, no sort")
    func v1CompoundPlan() {
        let d = details("V1+compound", "frc-sections")
        #expect(d.contains { $0.contains("USING INDEX Z_Photo_byLikesDate") })
        #expect(!d.contains { $0.contains("TEMP B-TREE") })
        #expect(result("V1+compound", "frc-sections").counters.sorts == 0)
        #expect(result("V1", "frc-sections").counters.sorts >= 1)
    }

    @Test("V2: the join forces a temp B-tree for the ORDER BY, with or without indexes")
    func v2Plan() {
        for v in ["V2", "V2+index"] {
            let d = details(v, "frc-sections")
            #expect(d.contains("USE TEMP B-TREE FOR ORDER BY"), "\(v): \(d)")
            #expect(d.contains { $0.contains("SEARCH t1 USING INTEGER PRIMARY KEY") }, "\(v): \(d)")
        }
    }

    @Test("V3: the denormalized compound index serves the controller without a join or sort")
    func v3Plan() {
        let d = details("V3", "frc-sections")
        #expect(d == ["SCAN t0 USING INDEX Z_Photo_byLikesDate"])
    }

    @Test("Statement counts follow the model: the GROUP BY section query batched or not, three queries when batched, two save transactions")
    func statementCounts() {
        #expect(result("V1", "frc-sections").statements == 2)
        // Core Data's section rule: a clean context counts sections with GROUP BY, so the
        // unbatched V2 controller fires no fault per photo for meta.likes.
        #expect(result("V2", "frc-sections").statements == 2)
        let v2 = result("V2", "frc-sections").plans.map(\.sql)
        #expect(
            v2[1]
                == "SELECT t1.ZLIKES, COUNT (DISTINCT t0.Z_PK) FROM ZPHOTO t0 LEFT OUTER JOIN ZPHOTOMETA t1 ON t0.ZMETA = t1.Z_PK GROUP BY t1.ZLIKES ORDER BY t1.ZLIKES DESC"
        )
        #expect(result("V2", "frc-batched").statements == 3)
        // V1 insert: BEGIN, SELECT Z_MAX, UPDATE, COMMIT, BEGIN, 400 INSERTs, COMMIT.
        #expect(result("V1", "insert").statements == 406)
        #expect(result("V2", "insert").statements == 8 + 800)
        let batched = result("V1", "frc-batched").plans.map(\.sql)
        #expect(batched.count == 3)
        #expect(batched[0].hasPrefix("SELECT 0, t0.Z_PK FROM ZPHOTO t0 ORDER BY"))
        #expect(batched[1].contains("GROUP BY t0.ZLIKES"))
        #expect(batched[2].contains("WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0) LIMIT "))
    }

    @Test("Every variant returns the same logical result, batched or not")
    func sameResults() {
        for w in ["fetch-sorted", "frc-sections", "frc-batched"] {
            let digests = Set(Self.results.filter { $0.workload == w }.map(\.resultDigest))
            #expect(digests.count == 1, "\(w): \(digests)")
        }
        #expect(result("V1", "frc-sections").resultDigest == result("V1", "frc-batched").resultDigest)
        for c in Self.results {
            #expect(c.referenceCheck == (c.variant == "V1" ? .reference : .same), "\(c.variant) \(c.workload)")
        }
    }

    @Test("Deterministic counters are recorded: rows, VM steps, page cache")
    func counters() {
        let c = result("V1", "fetch-sorted")
        #expect(c.rows == 400)
        #expect(c.counters.vmSteps > 400)
        #expect(c.counters.fullscanSteps > 0)
        #expect(c.counters.cacheHits + c.counters.cacheMisses > 0)
        #expect(c.sqliteHeapPeakBytes > 0)
        #expect(c.peakRSSKB > 1000, "VmHWM must be read from /proc/self/status")
        #expect(c.rssGrowthKB >= 0)
    }
}
