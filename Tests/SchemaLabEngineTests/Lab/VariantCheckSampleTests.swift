import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// The three-row sample validation builds each write workload from: the data set's shape,
/// without what would make it slow to generate.
@Suite("Validation's write-workload sample")
struct VariantCheckSampleTests {
    @Test("The sample keeps every field but generates short bytes: a 100 MB bytes field made validation take seconds")
    func shortBytes() throws {
        let plan = try TestSupport.decode(
            """
            {"format": 1, "name": "b", "variants": [{"name": "v", "entities": [{"name": "Photo", "attributes": [
              {"name": "title", "type": "string"}, {"name": "image", "type": "binary"}]}]}],
             "dataset": {"seed": 1, "entity": "Photo", "counts": [3], "fields": [
               {"field": "title", "generator": {"kind": "text", "minLength": 5, "maxLength": 9}},
               {"field": "image", "generator": {"kind": "bytes", "minLength": 50000000, "maxLength": 100000000}}]},
             "workloads": [{"name": "insert", "kind": "insert"}]}
            """)
        let lean = VariantCheck.leanSample(of: plan.scenario.dataset)
        #expect(lean.fields.map(\.names) == plan.scenario.dataset.fields.map(\.names))
        let sample = GeneratedData(spec: lean, count: 3)
        let image = try #require(lean.fields.firstIndex { $0.names == ["image"] })
        for row in 0..<3 {
            guard case .blob(let bytes) = sample.columns[image][row] else {
                Issue.record("row \(row): not bytes")
                continue
            }
            #expect(bytes.count <= 16)
        }
    }
}
