import Foundation
import Testing
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// The encoder against the decoder: every shipped scenario and scenario fixture decodes,
/// encodes, and decodes again to an equal scenario; the JSON paths a scenario gives the parts
/// it holds are the decoder's.
@Suite("The scenario encoder writes what the decoder reads back")
struct ScenarioEncoderTests {
    /// Every scenario the repository has: scenarios/ and scenarios/scale/ (not the schema),
    /// and every fixture under Tests/Fixtures that is a scenario.
    static func allScenarios() throws -> [String] {
        let fixtures = TestSupport.packageRoot + "/Tests/Fixtures"
        let found = try FileManager.default.subpathsOfDirectory(atPath: fixtures).filter { $0.hasSuffix(".json") }.sorted()
            .map { fixtures + "/" + $0 }
            .filter { path in
                guard let data = FileManager.default.contents(atPath: path),
                    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                else { return false }
                return object["format"] != nil
            }
        return try ScenarioSchemaTests.shippedScenarios() + found
    }

    @Test(
        "Every shipped scenario and fixture round-trips: decode, encode, decode gives an equal scenario; encoding again gives the same text"
    )
    func roundTrip() throws {
        let paths = try Self.allScenarios()
        #expect(paths.count >= 35)
        for path in paths {
            let decoded = try ScenarioDecoder.load(path: path)
            let text = ScenarioEncoder.text(decoded)
            let again = try ScenarioDecoder.decode(text: text, file: path)
            #expect(again == decoded, "\(path) reads back different:\n\(text)")
            #expect(ScenarioEncoder.text(again) == text, "\(path): a second encoding differs")
        }
    }

    @Test("The JSON path a scenario sets on each part is the one the decoder reads it at")
    func pathsAreTheDecoders() throws {
        for path in try Self.allScenarios() {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let root = JSONNode(value: try JSONParser.parse(text), file: path)
            let o = try root.object(allowed: ScenarioKeys.scenario)
            // The parts as the decoder makes them, each with the path of its node.
            for node in try o.required("variants").array() {
                let v = try ScenarioDecoder.decodeVariant(node)
                #expect(v.placed(at: node.path) == v, "\(path): \(node.path)")
            }
            let dataset = try ScenarioDecoder.decodeDataset(o.required("dataset"))
            #expect(Scenario.placed(dataset) == dataset, "\(path): $.dataset")
            let workloads = try o.required("workloads").array().map(ScenarioDecoder.decodeWorkload)
            #expect(Scenario.placed(workloads) == workloads, "\(path): $.workloads")
            let assertions = try o.optional("assertions")?.array().map(ScenarioDecoder.decodeAssertion) ?? []
            #expect(Scenario.placed(assertions) == assertions, "\(path): $.assertions")
            let reference = try ScenarioDecoder.load(path: path).reference
            let claims = try o.optional("claims")?.array().map { try ScenarioDecoder.decodeClaim($0, reference: reference) } ?? []
            #expect(Scenario.placed(claims) == claims, "\(path): $.claims")
        }
    }

    @Test("Only keys that differ from the format's defaults are written, in the format's order")
    func defaultsLeftOut() throws {
        let photos = try ScenarioDecoder.load(path: TestSupport.photosScenario)
        var scenario = photos
        scenario.workloads = [WorkloadSpec(name: "plain", kind: .fetch), WorkloadSpec(name: "more", kind: .append, count: 40)]
        scenario.assertions = []
        scenario.claims = []
        scenario.measurement = MeasurementSpec()
        let json = ScenarioEncoder.json(scenario)
        #expect(
            JSONWriter.text(json["workloads"]!)
                == "[{\"name\": \"plain\", \"kind\": \"fetch\"}, {\"name\": \"more\", \"kind\": \"append\", \"count\": 40}]\n")
        #expect(json["measurement"] == nil && json["assertions"] == nil && json["reference"] == nil)
        guard case .object(let members) = json else { throw CancellationError() }
        let keys = members.map(\.key)
        #expect(keys == ScenarioKeys.scenario.filter(keys.contains), "\(keys)")
    }

    @Test("What the format writes two ways is written one way, and reads back the same")
    func oneWay() throws {
        let text = """
            {"format": 1, "name": "two-ways",
             "variants": [{"name": "A", "entities": [{"name": "Item", "attributes": [
               {"name": "rank", "type": "integer32"}, {"name": "flag", "type": "bool", "default": true},
               {"name": "at", "type": "date"}]}]}],
             "dataset": {"seed": 1, "entity": "Item", "counts": {"from": 10, "to": 1000, "steps": 3},
               "fields": [{"field": "rank", "generator": {"kind": "choice", "values": [1, 2, 3], "zipf": 1.0}},
                          {"field": "flag", "generator": {"kind": "choice", "values": [true, false]}},
                          {"field": "at", "generator": {"kind": "dateRange", "from": "2020-02-28", "to": "2020-03-01"}}]},
             "workloads": [{"name": "scroll", "kind": "fetch", "sort": [{"key": "rank", "ascending": true}], "touch": "scroll",
                            "predicate": "at > %@ AND rank > %@", "arguments": [{"date": "2020-02-29"}, 1.0],
                            "measurement": {"warmup": 1, "repetitions": 3}}],
             "measurement": {"repetitions": 5}}
            """
        let decoded = try ScenarioDecoder.decode(text: text, file: "two-ways.json")
        let json = ScenarioEncoder.json(decoded)
        #expect(JSONWriter.text(json["dataset"]!["counts"]!) == "[10, 100, 1000]\n")
        let fields = try #require(json["dataset"]?["fields"]?.arrayElements)
        #expect(
            JSONWriter.text(fields[0]["generator"]!)
                == "{\"kind\": \"choice\", \"values\": [1, 2, 3], \"weights\": [1, 0.5, 0.3333333333333333]}\n")
        #expect(JSONWriter.text(fields[1]["generator"]!) == "{\"kind\": \"choice\", \"values\": [1, 0]}\n")
        #expect(JSONWriter.text(fields[2]["generator"]!) == "{\"kind\": \"dateRange\", \"from\": \"2020-02-28\", \"to\": \"2020-03-01\"}\n")
        let workload = try #require(json["workloads"]?.arrayElements?.first)
        #expect(
            JSONWriter.text(workload) == """
                {
                  "name": "scroll",
                  "kind": "fetch",
                  "predicate": "at > %@ AND rank > %@",
                  "arguments": [{"date": "2020-02-29T00:00:00Z"}, 1.0],
                  "sort": ["rank"],
                  "measurement": {"repetitions": 3}
                }

                """)
        #expect(try ScenarioDecoder.decode(text: JSONWriter.text(json), file: "two-ways.json") == decoded)
    }

    @Test("A sql workload, weight and device built in Swift: written in the format's order, read back the same")
    func sqlWorkloadRoundTrip() throws {
        var scenario = try ScenarioDecoder.load(path: TestSupport.packageRoot + "/Tests/Fixtures/sql-workloads.json")
        scenario.workloads = [
            WorkloadSpec(
                name: "strong", kind: .sql, entity: "Quake",
                sql: "SELECT t0.ZCODE FROM ZQUAKE t0 WHERE t0.ZMAGNITUDE > ? AND t0.ZTIME > ? AND t0.ZPLACE = ? ORDER BY t0.ZCODE",
                sqlArguments: [.real(4.5), .date(610_000_000), .string("Chile")], reason: "a shape the import does not model",
                weight: 12, device: DeviceUsage(runs: 12, rows: 240, seconds: 0.05)),
            WorkloadSpec(
                name: "validate", kind: .sql, sql: "UPDATE ZQUAKE SET ZVALIDATED = ? WHERE ZPLACE IS ? AND Z_PK > ?",
                sqlArguments: [.bool(true), .null, .integer(3)], weight: 0.5, device: DeviceUsage(runs: 2, seconds: 1)),
            WorkloadSpec(name: "plain", kind: .fetch, weight: 3),
        ]
        scenario.assertions = []
        scenario.claims = []
        let json = ScenarioEncoder.json(scenario)
        let workloads = try #require(json["workloads"]?.arrayElements)
        #expect(
            JSONWriter.text(workloads[0]) == """
                {
                  "name": "strong",
                  "kind": "sql",
                  "entity": "Quake",
                  "sql": "SELECT t0.ZCODE FROM ZQUAKE t0 WHERE t0.ZMAGNITUDE > ? AND t0.ZTIME > ? AND t0.ZPLACE = ? ORDER BY t0.ZCODE",
                  "arguments": [4.5, {"date": "2020-05-01T04:26:40Z"}, "Chile"],
                  "reason": "a shape the import does not model",
                  "weight": 12,
                  "device": {"runs": 12, "rows": 240, "seconds": 0.05}
                }

                """)
        #expect(JSONWriter.text(workloads[2]) == "{\"name\": \"plain\", \"kind\": \"fetch\", \"weight\": 3}\n")
        let checked = try ScenarioDecoder.check(scenario)
        #expect(checked.workloads == scenario.workloads)
        #expect(ScenarioEncoder.text(checked) == ScenarioEncoder.text(scenario))
        _ = try ScenarioPlan(checked)
    }
}
