import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

@Suite("Deterministic data")
struct DatasetTests {
    @Test("Same seed, same data hash; another seed, another hash")
    func determinism() throws {
        let plan = try TestSupport.photosPlan()
        let a = GeneratedData(spec: plan.scenario.dataset, count: 500)
        let b = GeneratedData(spec: plan.scenario.dataset, count: 500)
        #expect(a.digest == b.digest)
        var other = plan.scenario.dataset
        other.seed = 43
        #expect(GeneratedData(spec: other, count: 500).digest != a.digest)
        // A prefix of a larger data set is the smaller one: each field has its own stream.
        let big = GeneratedData(spec: plan.scenario.dataset, count: 800)
        #expect(big.column("likes")!.prefix(500).elementsEqual(a.column("likes")!))
    }

    @Test("Heavy-tailed likes look like the article's: many zeros, a long tail capped at 500")
    func likesShape() throws {
        let plan = try TestSupport.photosPlan()
        let likes = GeneratedData(spec: plan.scenario.dataset, count: 10_000).column("likes")!.compactMap(\.integerValue)
        #expect(likes.allSatisfy { (0...500).contains($0) })
        #expect(Set(likes).count > 100)
        #expect(likes.filter { $0 == 0 }.count > 1_000)
    }

    /// The logical rows (assetURL, likes, date) in Z_PK order, read with plain SQL.
    func logicalRows(variant: String, count: Int) throws -> [[SQLValue]] {
        try store(variant: variant, count: count).rows
    }

    func store(variant: String, count: Int) throws -> (store: Store, rows: [[SQLValue]]) {
        let plan = try TestSupport.photosPlan()
        let model = plan.models.first { $0.variant == variant }!
        let mom = ManagedObjectModel(model)
        let data = GeneratedData(spec: plan.scenario.dataset, count: count)
        let dir = try TestSupport.temporaryDirectory()
        let store = try Store.create(path: dir + "/store.sqlite", model: model)
        let context = ManagedObjectContext(store: store, objectModel: mom)
        try InsertWorkload.insertAll(data, placement: try plan.placement(for: mom), into: context)
        try context.save()
        let sql =
            model.entity("PhotoMeta") == nil
            ? "SELECT ZASSETURL, ZLIKES, ZDATE, ZCOUNTRY FROM ZPHOTO ORDER BY Z_PK"
            : "SELECT t0.ZASSETURL, t1.ZLIKES, t1.ZDATE, t1.ZCOUNTRY FROM ZPHOTO t0 JOIN ZPHOTOMETA t1 ON t0.ZMETA = t1.Z_PK AND t1.ZPHOTO = t0.Z_PK ORDER BY t0.Z_PK"
        return (store, try store.db.rows(sql))
    }

    @Test("V1, V2 and V3 hold the same logical rows; V3's copies equal PhotoMeta's")
    func sameLogicalRows() throws {
        let v1 = try logicalRows(variant: "V1", count: 300)
        #expect(v1.count == 300)
        #expect(try logicalRows(variant: "V2", count: 300) == v1)
        let v3 = try store(variant: "V3", count: 300)
        #expect(v3.rows == v1)
        let mismatched = try v3.store.db.scalar(
            """
            SELECT COUNT(*) FROM ZPHOTO t0 JOIN ZPHOTOMETA t1 ON t0.ZMETA = t1.Z_PK
            WHERE t0.ZLIKES IS NOT t1.ZLIKES OR t0.ZDATE IS NOT t1.ZDATE
            """)
        #expect(mismatched == .integer(0))
    }
}
