import Foundation
import Testing
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// Keeps scenarios/schema.json in step with the decoder: an independent validator (Python's
/// jsonschema) and the decoder must accept the same shipped files and reject the same edits.
@Suite("scenarios/schema.json and the scenario decoder accept and reject the same documents")
struct ScenarioSchemaTests {
    static let schema = TestSupport.packageRoot + "/scenarios/schema.json"

    /// The shipped scenarios: every scenarios/*.json but the schema, and scenarios/scale/*.json.
    static func shippedScenarios() throws -> [String] {
        var out: [String] = []
        for dir in [TestSupport.packageRoot + "/scenarios", TestSupport.packageRoot + "/scenarios/scale"] {
            out += try FileManager.default.contentsOfDirectory(atPath: dir)
                .filter { $0.hasSuffix(".json") && $0 != "schema.json" }.sorted().map { dir + "/" + $0 }
        }
        return out
    }

    /// The JSON fixtures that are scenarios (a top-level object with a "format" key).
    static func scenarioFixtures() throws -> [String] {
        let dir = TestSupport.packageRoot + "/Tests/Fixtures"
        return try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }.sorted()
            .map { dir + "/" + $0 }
            .filter { path in
                guard let data = FileManager.default.contents(atPath: path),
                    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                else { return false }
                return object["format"] != nil
            }
    }

    @Test("schema.json is a valid draft 2020-12 schema")
    func schemaIsValid() throws {
        let report = try JSONSchemaValidator.validate(schema: Self.schema, documents: [])
        #expect(report.schemaError == nil, "\(report.schemaError ?? "")")
        let data = try #require(FileManager.default.contents(atPath: Self.schema))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect(object["$id"] is String)
        #expect(object["title"] is String)
        #expect(object["additionalProperties"] as? Bool == false)
    }

    @Test("Every shipped scenario and scenario fixture validates against schema.json and decodes")
    func shippedScenariosValidate() throws {
        let shipped = try Self.shippedScenarios(), fixtures = try Self.scenarioFixtures()
        #expect(shipped.count >= 6)
        #expect(fixtures.count >= 4)
        let report = try JSONSchemaValidator.validate(schema: Self.schema, documents: shipped + fixtures)
        try #require(report.schemaError == nil, "\(report.schemaError ?? "")")
        for path in shipped + fixtures {
            let errors = try #require(report.documents[path], "no verdict on \(path)")
            #expect(errors.isEmpty, "\(path) does not follow schema.json: \(errors)")
            #expect(throws: Never.self, "\(path)") { _ = try ScenarioPlan(ScenarioDecoder.load(path: path)) }
        }
    }

    @Test("Every shipped scenario names the schema with \"$schema\": \"schema.json\" as its first key")
    func shippedScenariosNameTheSchema() throws {
        for path in try Self.shippedScenarios() {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            guard case .object(let members) = try JSONParser.parse(text) else {
                Issue.record("\(path) is not a JSON object")
                continue
            }
            #expect(members.first?.key == "$schema", "\(path)")
            let expected = path.contains("/scenarios/scale/") ? "../schema.json" : "schema.json"
            if case .string(let s)? = members.first?.value {
                #expect(s == expected, "\(path)")
            } else {
                Issue.record("\(path): $schema is not a string")
            }
        }
    }

    @Test("Each invalid document is rejected by both schema.json and the decoder, at the same place")
    func invalidDocumentsAreRejected() throws {
        let cases = InvalidScenarios.all()
        #expect(cases.count >= 25)
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The unedited base first: it must be valid, or the rejections below prove nothing.
        let base = dir + "/base.json"
        try TestSupport.json(InvalidScenarios.base()).write(toFile: base, atomically: true, encoding: .utf8)
        var files: [String] = []
        for (i, c) in cases.enumerated() {
            let file = dir + "/case-\(i).json"
            try TestSupport.json(c.document()).write(toFile: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        let report = try JSONSchemaValidator.validate(schema: Self.schema, documents: [base] + files)
        try #require(report.schemaError == nil, "\(report.schemaError ?? "")")

        #expect(report.documents[base]?.isEmpty == true, "the base document does not follow schema.json: \(report.documents[base] ?? [])")
        #expect(throws: Never.self, "the base document") { _ = try ScenarioPlan(ScenarioDecoder.load(path: base)) }

        for (c, file) in zip(cases, files) {
            let schemaErrors = report.documents[file] ?? []
            #expect(!schemaErrors.isEmpty, "schema.json accepts: \(c.name)")
            do {
                _ = try ScenarioDecoder.load(path: file)
                Issue.record("the decoder accepts: \(c.name)")
            } catch let e as ScenarioError {
                #expect(e.path.hasPrefix("$"), "\(c.name): \(e)")
                #expect(e.path == c.at, "\(c.name): the decoder reports \(e.path): \(e.message)")
                if !schemaErrors.isEmpty {
                    #expect(
                        schemaErrors.contains { Self.samePlace(schema: $0.path, decoder: e.path) },
                        "\(c.name): the decoder reports \(e.path), schema.json \(schemaErrors)")
                }
            } catch {
                Issue.record("\(c.name): unexpected error \(error)")
            }
        }
    }

    /// Documents on which schema.json and the decoder knowingly differ, as the schema's `$comment`
    /// says: edits of the base text, and whether the schema accepts each (the decoder then does not).
    static func knownDifferences() -> [(name: String, text: String, schemaAccepts: Bool)] {
        let base = TestSupport.json(InvalidScenarios.base())
        func edited(_ change: (Any) -> Any) -> String { TestSupport.json(change(InvalidScenarios.base())) }
        let related: [Any] = ["dataset", "related", 0]
        return [
            ("an integer written 1.0", base.replacingOccurrences(of: "\"seed\":1}", with: "\"seed\":1.0}"), true),
            ("an explicit null in an optional key", edited { InvalidScenarios.setting(NSNull(), at: ["description"], in: $0) }, false),
            (
                "a fan-out of true",
                edited { InvalidScenarios.setting(["kind": "constant", "value": true], at: related[...] + ["fanOut"], in: $0) }, false
            ),
            (
                "a day with a + sign",
                edited {
                    InvalidScenarios.setting(
                        ["kind": "dateRange", "from": "+020-01-01", "to": "2021-01-01"], at: ["dataset", "fields", 0, "generator"], in: $0)
                }, false
            ),
        ]
    }

    @Test("The differences the schema's $comment lists are real: each side accepts what it says")
    func knownDifferencesHold() throws {
        let differences = Self.knownDifferences()
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var files: [String] = []
        for (i, d) in differences.enumerated() {
            let file = dir + "/difference-\(i).json"
            try d.text.write(toFile: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        let report = try JSONSchemaValidator.validate(schema: Self.schema, documents: files)
        for (d, file) in zip(differences, files) {
            let errors = try #require(report.documents[file], "no verdict on \(d.name)")
            #expect(errors.isEmpty == d.schemaAccepts, "\(d.name): schema.json says \(errors)")
            let decoded = Result { try ScenarioDecoder.load(path: file) }
            if case .failure(let e) = decoded, !d.schemaAccepts { Issue.record("\(d.name): the decoder rejects it: \(e)") }
            if case .success = decoded, d.schemaAccepts { Issue.record("\(d.name): the decoder accepts it") }
        }
    }

    /// True when a schema error at `schema` points where the decoder's error at `decoder` does:
    /// at it, above it, or inside the object holding the decoder's key (a rule between two keys
    /// may be reported at either).
    static func samePlace(schema: String, decoder: String) -> Bool {
        func related(_ a: String, _ b: String) -> Bool { isPrefix(a, of: b) || isPrefix(b, of: a) }
        if related(schema, decoder) { return true }
        guard !decoder.hasSuffix("]"), let dot = decoder.lastIndex(of: "."), decoder[..<dot] != "$" else { return false }
        return related(schema, String(decoder[..<dot]))
    }

    /// True when JSON path `a` is `b` or one of its ancestors.
    static func isPrefix(_ a: String, of b: String) -> Bool {
        b == a || b.hasPrefix(a + ".") || b.hasPrefix(a + "[")
    }
}
