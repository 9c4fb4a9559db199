import Foundation
import Testing
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// What the fuzz pass found, one row per fix: each input once crashed, hung or printed a
/// broken line, and is now a ``ScenarioError`` at its JSON path, or data generated safely.
@Suite("Fuzz regressions: each finding is a clear error at its JSON path")
struct FuzzRegressionTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        /// The minimal scenario's JSON text with one edit.
        let text: String
        let path: String
        let message: String
        var testDescription: String { name }
    }

    /// The minimal scenario with `edit` applied; `raw` replaces `"@RAW@"` in the text (numbers JSONSerialization cannot write).
    static func scenario(raw: String? = nil, _ edit: (inout [String: Any]) -> Void) -> String {
        var s = TestSupport.minimalScenario()
        edit(&s)
        let text = TestSupport.json(s)
        return raw.map { text.replacingOccurrences(of: "\"@RAW@\"", with: $0) } ?? text
    }

    static func field(_ generator: [String: Any], name: String = "rank") -> (inout [String: Any]) -> Void {
        { s in
            var ds = s["dataset"] as! [String: Any]
            ds["fields"] = [["field": name, "generator": generator]]
            s["dataset"] = ds
        }
    }

    static func predicate(_ text: String) -> (inout [String: Any]) -> Void {
        { s in s["workloads"] = [["name": "f", "kind": "fetch", "predicate": text]] }
    }

    static let rows: [Row] = [
        Row(
            name: "Parentheses 5,000 deep overflowed the predicate parser's stack",
            text: scenario(predicate(String(repeating: "(", count: 5_000) + "TRUEPREDICATE" + String(repeating: ")", count: 5_000))),
            path: "$.workloads[0].predicate", message: "column 33: parentheses and braces nest more than 32 deep"),
        Row(
            name: "3,000 ORs made a tree deep enough to overflow the compiler's stack",
            text: scenario(predicate(Array(repeating: "rank == 1", count: 3_000).joined(separator: " OR "))),
            path: "$.workloads[0].predicate", message: "column 1311: more than 100 AND, OR and NOT operators"),
        Row(
            name: "5,000 NOTs overflowed the parser's stack",
            text: scenario(predicate(String(repeating: "NOT ", count: 5_000) + "TRUEPREDICATE")),
            path: "$.workloads[0].predicate", message: "column 401: more than 100 AND, OR and NOT operators"),
        Row(
            name: "A pareto scale of 1e15 with max 9 redrew forever (and its draws trapped converting to Int64)",
            text: scenario(field(["kind": "pareto", "scale": 1e15, "alpha": 1, "max": 9])),
            path: "$.dataset.fields[0].generator",
            message:
                "with scale 1000000000000000.0 and alpha 1.0, only 9.999999999999899e-15 of the draws are at most max 9 (the rest are redrawn): at least 0.01 must be; raise max or alpha, or lower scale"
        ),
        Row(
            name: "An alpha of 5e-324 redrew forever",
            text: scenario(field(["kind": "pareto", "scale": 1, "alpha": 5e-324, "max": 1_000_000])),
            path: "$.dataset.fields[0].generator",
            message:
                "with scale 1.0 and alpha 5e-324, only 7e-323 of the draws are at most max 1000000 (the rest are redrawn): at least 0.01 must be; raise max or alpha, or lower scale"
        ),
        Row(
            name: "1e999 was read as infinity",
            text: scenario(raw: "1e999", field(["kind": "uniformDouble", "min": 0, "max": "@RAW@"])),
            path: "$.dataset.fields[0].generator.max", message: "expected a finite number, found 1e999"),
        Row(
            name: "Text from empty words looped forever",
            text: scenario(field(["kind": "text", "minLength": 1, "maxLength": 5, "words": [""]])),
            path: "$.dataset.fields[0].generator.words[0]",
            message: "a word must not be empty: text is made by joining words up to its length"),
        Row(
            name: "Nested fan-outs of 1000000 x 2 per root row",
            text: scenario { s in
                var ds = s["dataset"] as! [String: Any]
                ds["related"] = [
                    [
                        "relationship": "a", "fanOut": ["kind": "constant", "value": 1_000_000],
                        "related": [["relationship": "b", "fanOut": ["kind": "uniformInt", "min": 0, "max": 2]]],
                    ]
                ]
                s["dataset"] = ds
            },
            path: "$.dataset.related[0].related[0].fanOut",
            message: "nested fan-outs reach up to 1000000 x 2 objects per root row: at most 1000000"),
        Row(
            name: "The same counter listed twice counted every row twice (a drift after the fill)",
            text: scenario { s in
                let counter: [String: Any] = ["entity": "Tally", "key": "key", "count": "n", "of": "Item", "by": "rank"]
                s["variants"] = [
                    [
                        "name": "A",
                        "entities": [
                            ["name": "Item", "attributes": [["name": "rank", "type": "integer32"]]],
                            ["name": "Tally", "attributes": [["name": "key", "type": "integer32"], ["name": "n", "type": "integer32"]]],
                        ],
                        "counters": [counter, counter],
                    ]
                ]
            },
            path: "$.variants[0].counters[1].count",
            message: "in variant A, Tally.n is already kept by another counter: each count attribute has one counter"),
    ]

    @Test("A fuzz finding is refused at its JSON path with its message", arguments: rows)
    func refused(_ row: Row) {
        do {
            _ = try TestSupport.decode(row.text)
            Issue.record("accepted: \(row.name)")
        } catch let e as ScenarioError {
            #expect(e.file == "test.json")
            #expect(e.path == row.path)
            #expect(e.message == row.message)
        } catch {
            Issue.record("not a ScenarioError: \(error)")
        }
    }

    @Test("An error quoting a name that holds a newline prints as one line")
    func oneLine() {
        let text = Self.scenario { s in
            s["variants"] = [["name": "A", "entities": [["name": "a\nb\r\u{0}", "attributes": [["name": "rank", "type": "integer32"]]]]]]
        }
        do {
            _ = try TestSupport.decode(text)
            Issue.record("accepted")
        } catch let e as ScenarioError {
            #expect(e.message.hasPrefix("'a\nb\r\u{0}' is not a plain name"))
            #expect(e.description.hasPrefix("test.json: $.variants[0].entities[0].name: 'a\\nb\\r\\u{0}' is not a plain name"))
            #expect(!e.description.contains { $0.isNewline })
        } catch {
            Issue.record("not a ScenarioError: \(error)")
        }
    }

    /// Generates one root field (and a derived one) for `count` rows.
    func generate(_ fields: [FieldSpec], count: Int) -> GeneratedData {
        GeneratedData(spec: DatasetSpec(seed: 7, entity: "Item", counts: [count], fields: fields, path: "$.dataset"), count: count)
    }

    @Test("Pareto draws far above Int64.max are redrawn, not converted (the conversion trapped)")
    func paretoHugeDraws() {
        let g = GeneratorSpec.pareto(scale: 1e15, alpha: 1, max: 8_000_000_000_000_000, roundAbove: nil, roundTo: 1)
        let data = generate([FieldSpec(names: ["v"], generator: g, path: "$.dataset.fields[0]")], count: 2_000)
        let values = data.column("v")!.compactMap(\.integerValue)
        #expect(values.count == 2_000)
        #expect(values.allSatisfy { (0...8_000_000_000_000_000).contains($0) })
    }

    @Test("A derived floor of a value no Int64 holds is null (the conversion trapped)")
    func derivedOutOfRange() {
        let data = generate(
            [
                FieldSpec(names: ["d"], generator: .uniformDouble(min: 1e300, max: 1e300), path: "$.dataset.fields[0]"),
                FieldSpec(names: ["f"], generator: .derived(from: "d", function: .floor), path: "$.dataset.fields[1]"),
                FieldSpec(names: ["g"], generator: .derived(from: "d", function: .day), path: "$.dataset.fields[2]"),
            ], count: 3)
        #expect(data.column("f")! == [.null, .null, .null])
        #expect(data.column("g")! == [.null, .null, .null])
    }
}

/// Validation never generates a data set's related objects: a pool of ten million once made
/// `validate` hang when the plan started building write workloads on a sample (fuzz seed 42).
@Suite("Fuzz regressions: validation stays cheap")
struct ValidationCostRegressionTests {
    @Test("A plan whose data set has a pool of 10,000,000 members and an insert workload builds in well under a second")
    func hugePoolValidates() throws {
        let path = TestSupport.packageRoot + "/scenarios/relationships.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: #""pool": {"count": 500"#, with: #""pool": {"count": 10000000"#)
        #expect(text.contains("10000000"))
        let start = Date()
        _ = try TestSupport.decode(text)
        #expect(Date().timeIntervalSince(start) < 5)
    }
}
