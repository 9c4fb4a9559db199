import Foundation
import Testing
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

@Suite("Scenario validation errors name the file, the JSON path and the problem")
struct ScenarioValidationTests {
    /// Decodes `object` and returns the error it raises.
    func error(_ object: Any) -> ScenarioError? {
        error(text: TestSupport.json(object))
    }

    func error(text: String) -> ScenarioError? {
        do {
            _ = try TestSupport.decode(text)
            return nil
        } catch let e as ScenarioError {
            return e
        } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }

    @Test("The minimal scenario and the shipped scenarios validate")
    func valid() throws {
        #expect(error(TestSupport.minimalScenario()) == nil)
        _ = try TestSupport.photosPlan()
        _ = try ScenarioPlan(ScenarioDecoder.load(path: TestSupport.tinyScenario))
    }

    @Test("Bad JSON: line and column")
    func badJSON() {
        let e = error(text: "{\n  \"format\": 1,\n  \"name\": oops\n}")
        #expect(e?.file == "test.json")
        #expect(e?.path == "$")
        #expect(e?.message.contains("line 3, column 11") == true)
    }

    @Test("Unknown key")
    func unknownKey() {
        var s = TestSupport.minimalScenario()
        s["workload"] = []
        let e = error(s)
        #expect(e?.path == "$.workload")
        #expect(e?.message.contains("unknown key 'workload'") == true)
    }

    @Test("Wrong type")
    func wrongType() {
        var s = TestSupport.minimalScenario()
        var ds = s["dataset"] as! [String: Any]
        ds["seed"] = "forty-two"
        s["dataset"] = ds
        let e = error(s)
        #expect(e?.path == "$.dataset.seed")
        #expect(e?.message == "expected an integer, found a string")
    }

    @Test("Negative count")
    func negativeCount() {
        var s = TestSupport.minimalScenario()
        var ds = s["dataset"] as! [String: Any]
        ds["counts"] = [10, -5]
        s["dataset"] = ds
        let e = error(s)
        #expect(e?.path == "$.dataset.counts[1]")
        #expect(e?.message.contains("greater than 0") == true)
    }

    @Test("An identifier that is not a plain name never reaches SQL")
    func badIdentifier() {
        var s = TestSupport.minimalScenario()
        s["variants"] = [
            ["name": "A", "entities": [["name": "Item; DROP TABLE x", "attributes": [["name": "rank", "type": "integer32"]]]]]
        ]
        let e = error(s)
        #expect(e?.path == "$.variants[0].entities[0].name")
        #expect(e?.message.contains("not a plain name") == true)
    }

    @Test("An index on an attribute that does not exist")
    func indexOnMissingAttribute() {
        var s = TestSupport.minimalScenario()
        var variants = s["variants"] as! [[String: Any]]
        variants.append(["name": "B", "extends": "A", "addIndexes": [["name": "byRank", "entity": "Item", "elements": ["rnak"]]]])
        s["variants"] = variants
        let e = error(s)
        #expect(e?.path == "$.variants[1].addIndexes[0].elements[0]")
        #expect(e?.message.contains("Item has no attribute 'rnak'") == true)
    }

    @Test("A sort key path no variant can resolve")
    func unresolvableSortKey() {
        var s = TestSupport.minimalScenario()
        s["workloads"] = [["name": "f", "kind": "fetch", "sort": ["rank", ["key": "meta.rank", "ascending": false]]]]
        let e = error(s)
        #expect(e?.path == "$.workloads[0].sort[1]")
        #expect(e?.message.contains("key path 'meta.rank' does not resolve") == true)
    }

    @Test("Key binding, partial fetches, comparators and objectID sorts: misuse is an error at its key")
    func fetchShapeErrors() {
        func workloadError(_ w: [String: Any]) -> ScenarioError? {
            var s = TestSupport.minimalScenario()
            s["workloads"] = [w]
            return error(s)
        }
        var e = workloadError(["name": "f", "kind": "fetch", "keyBinding": "parameters"])
        #expect(e?.path == "$.workloads[0].keyBinding" && e?.message.contains("batchSize") == true, "\(String(describing: e))")
        e = workloadError(["name": "f", "kind": "fetch", "batchSize": 5, "keyBinding": "both"])
        #expect(e?.path == "$.workloads[0].keyBinding")
        e = workloadError(["name": "f", "kind": "fetch", "propertiesToFetch": ["meta.rank"]])
        #expect(e?.path == "$.workloads[0].propertiesToFetch[0]", "\(String(describing: e))")
        e = workloadError(["name": "f", "kind": "fetch", "resultType": "count", "propertiesToFetch": ["rank"]])
        #expect(e?.path == "$.workloads[0].propertiesToFetch")
        e = workloadError(["name": "f", "kind": "fetch", "propertiesToFetch": ["rank"], "includesPropertyValues": false])
        #expect(e?.path == "$.workloads[0].propertiesToFetch")
        e = workloadError(["name": "f", "kind": "fetch", "sort": [["key": "rank", "comparator": "localized"]]])
        #expect(e?.path == "$.workloads[0].sort[0]" && e?.message.contains("sorts strings") == true, "\(String(describing: e))")
        e = workloadError(["name": "f", "kind": "fetch", "sort": [["key": "rank", "comparator": "fancy"]]])
        #expect(e?.path == "$.workloads[0].sort[0].comparator")
        #expect(workloadError(["name": "f", "kind": "fetch", "sort": ["objectID"]]) == nil)
        e = workloadError(["name": "f", "kind": "fetch", "sort": ["meta.objectID"]])
        #expect(e?.path == "$.workloads[0].sort[0]")
    }

    @Test("A variant extending one that does not exist, and a cycle")
    func badExtends() {
        var s = TestSupport.minimalScenario()
        s["variants"] = [["name": "A", "extends": "Z"]]
        #expect(error(s)?.path == "$.variants[0].extends")
        s["variants"] = [["name": "A", "extends": "B"], ["name": "B", "extends": "A"]]
        #expect(error(s)?.message.contains("cycle") == true)
    }

    @Test("A field with nowhere to go, and a generator whose values the attribute cannot hold")
    func badFields() {
        var s = TestSupport.minimalScenario()
        var ds = s["dataset"] as! [String: Any]
        ds["fields"] = [
            ["field": "rank", "generator": ["kind": "uniformInt", "min": 0, "max": 9]],
            ["field": "title", "generator": ["kind": "text", "minLength": 1, "maxLength": 5]],
        ]
        s["dataset"] = ds
        #expect(error(s)?.path == "$.dataset.fields[1]")
        ds["fields"] = [["field": "rank", "generator": ["kind": "text", "minLength": 1, "maxLength": 5]]]
        s["dataset"] = ds
        #expect(error(s)?.message.contains("cannot hold") == true)
    }

    @Test("Unknown enum values list the choices")
    func unknownChoice() {
        var s = TestSupport.minimalScenario()
        s["workloads"] = [["name": "f", "kind": "scan"]]
        let e = error(s)
        #expect(e?.path == "$.workloads[0].kind")
        #expect(e?.message.contains("expected one of insert, fetch, fetchedResults") == true)
    }

    @Test("A missing file is an error at $")
    func missingFile() {
        #expect(throws: ScenarioError.self) { try ScenarioDecoder.load(path: "/nonexistent/x.json") }
    }
}
