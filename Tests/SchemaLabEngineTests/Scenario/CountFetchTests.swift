import Testing

@testable import SchemaLabEngine

/// A count with fetchLimit 1 is an app's existence check (11 of 403 real requests): the lab
/// does not guess the SQL Core Data issues for it, and its refusal says what to write instead.
@Suite("A count fetch with a limit")
struct CountFetchTests {
    @Test("is refused at its fetchLimit, saying how to write an existence check")
    func refusedWithRemedy() {
        let text = """
            {"format": 1, "name": "c",
             "variants": [{"name": "A", "entities": [{"name": "E", "attributes": [{"name": "v", "type": "integer32"}]}]}],
             "dataset": {"seed": 1, "entity": "E", "counts": [10], "fields": [{"field": "v", "generator": {"kind": "sequence"}}]},
             "workloads": [{"name": "exists", "kind": "fetch", "resultType": "count", "predicate": "v == 3", "fetchLimit": 1}]}
            """
        #expect {
            try ScenarioDecoder.decode(text: text, file: "c.json")
        } throws: { error in
            let message = "\(error)"
            return message.contains("$.workloads[0].fetchLimit: a count fetch takes no fetchLimit")
                && message.contains("write resultType objectIDs with fetchLimit 1")
        }
        let rewritten = text.replacingOccurrences(of: #""resultType": "count""#, with: #""resultType": "objectIDs""#)
        #expect(throws: Never.self) { try ScenarioPlan(ScenarioDecoder.decode(text: rewritten, file: "c.json")) }
    }
}
