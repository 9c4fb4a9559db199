import Foundation
import Testing

@testable import SchemaLabCoreData
@testable import SchemaLabEngine
@testable import SchemaLabSQLite

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
