import Foundation
import Testing

@testable import SchemaLabCoreData
@testable import SchemaLabEngine
@testable import SchemaLabSQLite
import SchemaLabTestSupport

/// A field's `nulls` and the `cycle` generator: what real predicates need of a data set
/// (`== nil` finds rows; every entity of an entity field has rows at small sizes).
@Suite("Fields: nulls and values in turn")
struct FieldShareTests {
    static func dataset(_ fields: [FieldSpec]) -> DatasetSpec {
        DatasetSpec(seed: 7, entity: "E", counts: [1_000], fields: fields)
    }

    @Test("nulls leave that share of rows nil, and the other rows keep the values they have without it")
    func nulls() {
        let plain = FieldSpec(names: ["v"], generator: .uniformInt(min: 0, max: 1_000_000))
        var withNulls = plain
        withNulls.nulls = 0.3
        let a = GeneratedData(spec: Self.dataset([plain]), count: 1_000).column("v")!
        let b = GeneratedData(spec: Self.dataset([withNulls]), count: 1_000).column("v")!
        let nils = b.filter { $0 == .null }.count
        #expect((240...360).contains(nils), "\(nils) nil of 1000")
        for (x, y) in zip(a, b) where y != .null { #expect(x == y) }
        // Chunks of any size give the same rows.
        var stream = DataStream(spec: Self.dataset([withNulls]), count: 1_000, chunkSize: 7)
        var streamed: [SQLValue] = []
        stream.forEachChunk { chunk in streamed += chunk.columns[0] }
        #expect(streamed == b)
    }

    @Test("cycle deals its values in turn: every value once before any twice")
    func cycle() {
        let field = FieldSpec(names: ["entity"], generator: .cycle(values: [.text("A"), .text("B"), .text("C")]))
        let column = GeneratedData(spec: Self.dataset([field]), count: 7).column("entity")!
        #expect(column == ["A", "B", "C", "A", "B", "C", "A"].map { SQLValue.text($0) })
    }

    @Test("a field with nulls that fills a required attribute is an error at its nulls")
    func requiredRefusesNulls() {
        let text = """
            {"format": 1, "name": "n",
             "variants": [{"name": "A", "entities": [{"name": "E", "attributes": [{"name": "v", "type": "integer32", "optional": false}]}]}],
             "dataset": {"seed": 1, "entity": "E", "counts": [10],
                         "fields": [{"field": "v", "generator": {"kind": "uniformInt", "min": 0, "max": 9}, "nulls": 0.2}]},
             "workloads": [{"name": "f", "kind": "fetch", "predicate": "v == nil"}]}
            """
        #expect {
            try ScenarioPlan(ScenarioDecoder.decode(text: text, file: "n.json"))
        } throws: { error in
            "\(error)".contains("$.dataset.fields[0].nulls: in variant A, E.v is not optional")
        }
        #expect {
            try ScenarioDecoder.decode(text: text.replacingOccurrences(of: "0.2}", with: "1.5}"), file: "n.json")
        } throws: { error in
            "\(error)".contains("$.dataset.fields[0].nulls: a share of rows from 0 to 1")
        }
    }

    static let hierarchy = """
        {"format": 1, "name": "h",
         "variants": [{"name": "A", "entities": [
            {"name": "Car", "attributes": [{"name": "plate", "type": "string"}, {"name": "owner", "type": "integer32", "optional": false}]},
            {"name": "SportCar", "parent": "Car", "attributes": [{"name": "speed", "type": "integer32"}]}]}],
         "dataset": {"seed": 1, "entity": "Car", "counts": [10], "fields": [
            {"field": "entity", "generator": {"kind": "cycle", "values": ["Car", "SportCar"]}},
            FIELDS]},
         "workloads": [{"name": "f", "kind": "fetch", "entity": "Car", "sort": ["plate"]}]}
        """

    static func hierarchy(_ fields: String) -> String { hierarchy.replacingOccurrences(of: "FIELDS", with: fields) }

    @Test("the nearest qualifier fills an attribute: SportCar.plate over Car.plate for a SportCar, in either order")
    func nearestQualifier() throws {
        let owner = #"{"field": "owner", "generator": {"kind": "constant", "value": 1}}"#
        let car = #"{"field": "Car.plate", "generator": {"kind": "constant", "value": "car"}}"#
        let sport = #"{"field": "SportCar.plate", "generator": {"kind": "constant", "value": "sport"}}"#
        for fields in [[car, sport, owner], [sport, car, owner]] {
            let plan = try ScenarioPlan(ScenarioDecoder.decode(text: Self.hierarchy(fields.joined(separator: ", ")), file: "h.json"))
            let placement = try plan.placement(for: ManagedObjectModel(plan.models[0]))
            let names = plan.scenario.dataset.fields.flatMap(\.names)
            for (entity, field) in [("Car", "Car.plate"), ("SportCar", "SportCar.plate")] {
                let node = try #require(placement.choices?.byName[entity]?.nodes.first)
                let plateIndex = try #require(node.entity.model.attributes.firstIndex { $0.name == "plate" })
                #expect(node.sources[plateIndex].map { names[$0] } == field, "\(entity) in \(fields)")
            }
        }
    }

    @Test("nulls that reach a required attribute through parentField or derived, or on the entity field, are errors at their place")
    func nullsReachingRequired() {
        let cases: [(String, String)] = [
            (
                #"{"field": "src", "generator": {"kind": "uniformDouble", "min": 0, "max": 9}, "nulls": 0.5, "optional": true}, {"field": "owner", "generator": {"kind": "derived", "from": "src", "function": "floor"}}"#,
                "$.dataset.fields[2].generator: in variant A, Car.owner is not optional"
            )
        ]
        for (fields, message) in cases {
            #expect {
                try ScenarioPlan(ScenarioDecoder.decode(text: Self.hierarchy(fields), file: "h.json"))
            } throws: { error in
                "\(error)".contains(message)
            }
        }
        let entityNulls = Self.hierarchy(#"{"field": "owner", "generator": {"kind": "constant", "value": 1}}"#)
            .replacingOccurrences(of: #""values": ["Car", "SportCar"]}}"#, with: #""values": ["Car", "SportCar"]}, "nulls": 0.3}"#)
        #expect {
            try ScenarioPlan(ScenarioDecoder.decode(text: entityNulls, file: "h.json"))
        } throws: { error in
            "\(error)".contains("$.dataset.fields[0].nulls: the entity field takes no nulls")
        }
    }

    @Test("a feed whose key field has nulls is refused with nulls named as the cause")
    func feedKeyWithNulls() throws {
        let path = TestSupport.packageRoot + "/scenarios/quakes-reingest.json"
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var dataset = try #require(object["dataset"] as? [String: Any])
        var fields = try #require(dataset["fields"] as? [[String: Any]])
        let code = try #require(fields.firstIndex { $0["field"] as? String == "code" })
        fields[code]["nulls"] = 0.3
        dataset["fields"] = fields
        object["dataset"] = dataset
        let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        #expect {
            try ScenarioPlan(ScenarioDecoder.decode(text: text, file: "q.json"))
        } throws: { error in
            "\(error)".contains("has no value in row") && "\(error)".contains("remove its 'nulls'")
        }
    }

    @Test("unsorted dictionary rows sign as a multiset: another order signs alike, other rows do not")
    func unorderedRows() {
        let rows: [[SQLValue]] = [[.integer(2), .text("b")], [.integer(1), .text("a")], [.null, .real(0.5)]]
        let shuffled = [rows[2], rows[0], rows[1]]
        #expect(ResultSignature.of(unorderedRows: rows).digest == ResultSignature.of(unorderedRows: shuffled).digest)
        #expect(ResultSignature.of(rows: rows).digest != ResultSignature.of(rows: shuffled).digest)
        #expect(ResultSignature.of(unorderedRows: rows).matches(ResultSignature.of(unorderedRows: shuffled)))
        let other = [rows[0], rows[0], rows[1]]
        #expect(!ResultSignature.of(unorderedRows: rows).matches(ResultSignature.of(unorderedRows: other)))
    }
}
