import Foundation
import Testing
@testable import SchemaLab
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// Statements of an app's log run as `sql` workloads through ``Lab/run(_:options:observer:)``:
/// each query's rows and each write's changed rows, the plans recorded, the same result with
/// and without an index.
@Suite("sql workloads run through Lab.run")
struct SQLWorkloadRunTests {
    static let scenario = TestSupport.packageRoot + "/Tests/Fixtures/sql-workloads.json"

    @Test("Queries and a write run in two variants with the same results; the plans show the index; the write is in its own transaction")
    func run() throws {
        let scenario = try ScenarioDecoder.load(path: Self.scenario)
        let result = try Lab.run(scenario, options: RunOptions(sizes: [400], repetitions: 1, warmup: 0))
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(result.cases.count == 8)
        for workload in ["strong", "strong-codes", "late-places", "validate"] {
            let plain = try #require(result.result(variant: "plain", workload: workload, size: 400))
            let indexed = try #require(result.result(variant: "indexed", workload: workload, size: 400))
            #expect(plain.referenceCheck == .reference)
            #expect(indexed.referenceCheck == .same, "\(workload): \(plain.signature.digest) against \(indexed.signature.digest)")
            #expect(plain.rows == indexed.rows && plain.rows > 0, "\(workload)")
        }
        let strong = try #require(result.result(variant: "indexed", workload: "strong", size: 400))
        let validate = try #require(result.result(variant: "indexed", workload: "validate", size: 400))
        // The UPDATE changes the rows the query returns: both select magnitude > 4.5.
        #expect(validate.rows == strong.rows)
        #expect(result.result(variant: "indexed", workload: "strong-codes", size: 400)?.rows == strong.rows)
        #expect(result.result(variant: "plain", workload: "late-places", size: 400)?.rows == 3)

        let sql = try #require(scenario.workloads.first { $0.name == "strong" }?.sql)
        #expect(strong.plans.map(\.sql) == [sql])
        #expect(strong.plans[0].planLines.contains { $0.contains("USING INDEX Z_Quake_byMagnitude") }, "\(strong.plans)")
        let scan = try #require(result.result(variant: "plain", workload: "strong", size: 400))
        #expect(scan.plans[0].planLines.contains { $0.contains("USE TEMP B-TREE FOR ORDER BY") }, "\(scan.plans)")
        #expect(strong.statements == 1 && strong.floor != nil && strong.raw != nil)
        #expect(validate.plans.map(\.sql) == ["BEGIN EXCLUSIVE", scenario.workloads[3].sql!, "COMMIT"])
        #expect(validate.statements == 3 && validate.floor == nil)
    }

    @Test("A query without ORDER BY is compared as a set: the index returns its rows in another order")
    func unorderedQuery() throws {
        let scenario = try ScenarioDecoder.load(path: Self.scenario)
        let codes = try #require(scenario.workloads.first { $0.name == "strong-codes" })
        #expect(!SQLStatementText(codes.sql!).isOrdered)
        // In the filled stores, the plain scan returns the rows in key order, the index by magnitude.
        let result = try Lab.run(
            scenario, options: RunOptions(sizes: [400], repetitions: 1, warmup: 0, workloads: ["strong-codes"]))
        let indexed = try #require(result.result(variant: "indexed", workload: "strong-codes", size: 400))
        #expect(indexed.plans[0].planLines.contains { $0.contains("USING INDEX") })
        #expect(indexed.referenceCheck == .same)
    }
}
