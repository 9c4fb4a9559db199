import Foundation
import Testing
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// The decoder's checks of `claims`: names that exist, workloads that run in the variant,
/// metrics the cases record, an expectation that says which way.
@Suite("Scenario: claims")
struct ClaimDecodingTests {
    static func scenario(_ claims: [[String: Any]], extraWorkloads: [[String: Any]] = []) -> [String: Any] {
        var s = TestSupport.minimalScenario()
        s["variants"] = [
            ["name": "A", "entities": [["name": "Item", "attributes": [["name": "rank", "type": "integer32"]]]]],
            ["name": "B", "extends": "A", "addIndexes": [["name": "byRank", "entity": "Item", "elements": ["rank"]]]],
        ]
        s["workloads"] = [["name": "f", "kind": "fetch", "sort": ["rank"]], ["name": "i", "kind": "insert"]] + extraWorkloads
        s["claims"] = claims
        return s
    }

    static func claim(_ edits: [String: Any] = [:]) -> [String: Any] {
        var c: [String: Any] = [
            "id": "index-helps", "source": ["document": "WWDC 2013 session 211", "year": 2013, "where": "a slide"],
            "claim": "An index helps.", "case": ["variant": "B", "workload": "f"], "against": ["variant": "A"],
            "metric": "medianTime", "expect": ["ratio": 0.5, "figure": "2x faster"],
        ]
        for (k, v) in edits { c[k] = v }
        return c
    }

    func decode(_ object: [String: Any]) throws -> Scenario {
        try ScenarioDecoder.decode(text: TestSupport.json(object), file: "test.json")
    }

    func failure(_ object: [String: Any]) -> ScenarioError? {
        do {
            _ = try decode(object)
            return nil
        } catch let e as ScenarioError { return e } catch { return nil }
    }

    @Test("A claim decodes: sides default from the case, a ratio gives the direction")
    func decodes() throws {
        let s = try decode(
            Self.scenario([
                Self.claim(), Self.claim(["id": "two", "against": ["workload": "i"], "expect": ["direction": "higher"], "size": 1000]),
            ]))
        #expect(s.claims.count == 2)
        let c = s.claims[0]
        #expect(c.subject == ClaimSpec.Side(variant: "B", workload: "f") && c.against == ClaimSpec.Side(variant: "A", workload: "f"))
        #expect(c.expectation.direction == .lower && c.expectation.ratio == 0.5...0.5 && c.expectation.tolerance == 2)
        #expect(c.source.year == 2013 && c.source.location == "a slide" && c.path == "$.claims[0]")
        #expect(s.claims[1].against == ClaimSpec.Side(variant: "B", workload: "i") && s.claims[1].size == 1000)
    }

    @Test("Each mistake is reported at its JSON path")
    func mistakes() {
        let cases: [([String: Any], String, String)] = [
            (["case": ["variant": "C", "workload": "f"]], "$.claims[0].case.variant", "no variant named 'C'"),
            (["against": ["workload": "nope"]], "$.claims[0].against.workload", "no workload named 'nope'"),
            (["against": ["variant": "B"]], "$.claims[0].against", "compares two different cases"),
            (["metric": "speed"], "$.claims[0].metric", "unknown value 'speed'"),
            (["metric": "readP99"], "$.claims[0].metric", "does not time single reads"),
            (["metric": "longestWrite"], "$.claims[0].metric", "only reads"),
            (["metric": "storeBytes", "against": ["variant": "B", "workload": "i"]], "$.claims[0].metric", "starts from an empty store"),
            (["expect": ["direction": "higher", "ratio": 0.5]], "$.claims[0].expect.ratio", "means lower, but the direction is higher"),
            (["expect": ["ratio": [0.5, 2]]], "$.claims[0].expect.ratio", "which way"),
            (["expect": ["figure": "faster"]], "$.claims[0].expect", "state the expected effect"),
            (["expect": ["direction": "lower", "tolerance": 1]], "$.claims[0].expect.tolerance", "a factor above 1"),
            (["source": ["document": "x", "year": 2013]], "$.claims[0].source", "missing required key 'where'"),
            (["claim": " "], "$.claims[0].claim", "say what the source claims"),
            (["verdict": "holds"], "$.claims[0].verdict", "unknown key 'verdict'"),
        ]
        for (edit, path, message) in cases {
            let e = failure(Self.scenario([Self.claim(edit)]))
            #expect(e?.path == path, "\(edit): \(String(describing: e))")
            #expect(e?.message.contains(message) == true, "\(edit): \(String(describing: e?.message))")
        }
        let duplicate = failure(Self.scenario([Self.claim(), Self.claim()]))
        #expect(duplicate?.path == "$.claims[1].id" && duplicate?.message.contains("duplicate claim id 'index-helps'") == true)
    }

    @Test("Every shipped scenario states its source's claims, at least 25 in all, each with a source and a sentence")
    func shippedScenarios() throws {
        let dir = TestSupport.packageRoot + "/scenarios"
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") && $0 != "schema.json" }
        var total = 0
        for file in files {
            let s = try ScenarioDecoder.load(path: dir + "/" + file)
            #expect(!s.claims.isEmpty, "\(file) states no claims")
            total += s.claims.count
        }
        #expect(total >= 25, "\(total) claims")
    }
}
