import Foundation
import Testing
@testable import SchemaLabCoreData
@testable import SchemaLabEngine

/// The decoder's own tables (``ScenarioKeys``, the Swift enums whose raw values are the
/// format's words) against scenarios/schema.json: each object's keys are its `properties`,
/// each enumeration its `enum`. A key or a value added to one and not the other fails here.
@Suite("The decoder's key tables and enumerations are scenarios/schema.json's")
struct ScenarioKeysTests {
    /// schema.json, parsed.
    let schema: [String: Any]

    init() throws {
        let data = try #require(FileManager.default.contents(atPath: ScenarioSchemaTests.schema))
        schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The value at `path` (object keys and array indexes) in schema.json.
    func value(_ path: [Any]) -> Any? {
        var current: Any? = schema
        for step in path {
            if let key = step as? String {
                current = (current as? [String: Any])?[key]
            } else if let index = step as? Int, let array = current as? [Any], array.indices.contains(index) {
                current = array[index]
            } else {
                return nil
            }
        }
        return current
    }

    /// The keys of the object at `path`'s `properties`.
    func properties(_ path: [Any]) -> Set<String>? {
        (value(path + ["properties"]) as? [String: Any]).map { Set($0.keys) }
    }

    /// The words of the `enum` at `path`.
    func enumeration(_ path: [Any]) -> Set<String>? {
        (value(path + ["enum"]) as? [Any]).map { Set($0.compactMap { $0 as? String }) }
    }

    static let defs = "$defs"

    /// Each object of the format: its name here, the decoder's table, and where schema.json describes it.
    static var objects: [(name: String, keys: [String], at: [Any])] {
        [
            ("scenario", ScenarioKeys.scenario, []),
            ("variant", ScenarioKeys.variant, [defs, "variant"]),
            ("entity", ScenarioKeys.entity, [defs, "entity"]),
            ("attribute", ScenarioKeys.attribute, [defs, "attribute"]),
            ("relationship", ScenarioKeys.relationship, [defs, "relationship"]),
            ("index", ScenarioKeys.index, [defs, "index"]),
            ("index element", ScenarioKeys.indexElement, [defs, "index", "properties", "elements", "items", "anyOf", 1]),
            ("addAttributes entry", ScenarioKeys.addedAttribute, [defs, "variant", "properties", "addAttributes", "items"]),
            ("addRelationships entry", ScenarioKeys.addedRelationship, [defs, "variant", "properties", "addRelationships", "items"]),
            (
                "addUniquenessConstraints entry", ScenarioKeys.addedConstraint,
                [defs, "variant", "properties", "addUniquenessConstraints", "items"]
            ),
            ("transfer", ScenarioKeys.transfer, [defs, "transfer"]),
            ("memberRef", ScenarioKeys.memberRef, [defs, "memberRef"]),
            ("counter", ScenarioKeys.counter, [defs, "counter"]),
            ("dataset", ScenarioKeys.dataset, [defs, "dataset"]),
            ("sweep", ScenarioKeys.sweep, [defs, "dataset", "properties", "counts", "oneOf", 1]),
            ("field", ScenarioKeys.field, [defs, "field"]),
            ("related", ScenarioKeys.related, [defs, "related"]),
            ("pool", ScenarioKeys.pool, [defs, "related", "properties", "pool"]),
            ("popularity", ScenarioKeys.popularity, [defs, "related", "properties", "popularity"]),
            ("cluster", ScenarioKeys.cluster, [defs, "generator.clusteredLocation", "properties", "clusters", "items"]),
            ("sort", ScenarioKeys.sort, [defs, "fetchOptions", "properties", "sort", "items", "anyOf", 1]),
            ("expression", ScenarioKeys.expression, [defs, "expression"]),
            ("date argument", ScenarioKeys.dateArgument, [defs, "argument", "anyOf", 2]),
            ("verify (batchUpdate)", ScenarioKeys.verify, [defs, "workload.batchUpdate", "properties", "verify"]),
            ("verify (update)", ScenarioKeys.verify, [defs, "workload.update", "properties", "verify"]),
            (
                "replaceWord", ScenarioKeys.wordReplacement,
                [defs, "workload.update", "properties", "set", "additionalProperties", "anyOf", 2]
            ),
            ("device", ScenarioKeys.device, [defs, "device"]),
            ("feed", ScenarioKeys.feed, [defs, "feed"]),
            ("boxes", ScenarioKeys.boxes, [defs, "workload.fetch", "properties", "boxes"]),
            ("selectivity", ScenarioKeys.selectivity, [defs, "workload.fetch", "properties", "boxes", "properties", "selectivity"]),
            ("measurement", ScenarioKeys.measurement, [defs, "measurement"]),
            ("pragmas", ScenarioKeys.pragmas.map(\.name), [defs, "pragmas"]),
            ("assertion", ScenarioKeys.assertion, [defs, "assertion"]),
            ("claim", ScenarioKeys.claim, [defs, "claim"]),
            ("claim source", ScenarioKeys.claimSource, [defs, "claim", "properties", "source"]),
            ("claim case", ScenarioKeys.claimSide, [defs, "claim", "properties", "case"]),
            ("claim against", ScenarioKeys.claimSide, [defs, "claim", "properties", "against"]),
            ("claim expect", ScenarioKeys.claimExpectation, [defs, "claim", "properties", "expect"]),
        ]
    }

    @Test("Each object's keys in the decoder are its properties in schema.json")
    func objectKeys() {
        for (name, keys, at) in Self.objects {
            #expect(Set(keys).count == keys.count, "\(name): a key listed twice in \(keys)")
            guard let described = properties(at) else {
                Issue.record("\(name): schema.json has no properties at \(at)")
                continue
            }
            #expect(
                Set(keys) == described,
                "\(name): the decoder's keys minus the schema's: \(Set(keys).subtracting(described)), the schema's minus the decoder's: \(described.subtracting(keys))"
            )
        }
    }

    @Test("Each workload kind's keys are its block of schema.json, and every key is some kind's")
    func workloadKeys() {
        for kind in WorkloadKind.allCases {
            let keys = ScenarioKeys.workload(kind)
            let own =
                kind.writeKeys ?? ScenarioKeys.fetchRequest + (kind == .fetch ? ScenarioKeys.fetchOnly : ScenarioKeys.fetchedResultsOnly)
            #expect(Set(keys) == Set(ScenarioKeys.everyWorkload + own), "\(kind): a key missing from ScenarioKeys.workload")
            #expect(Set(keys) == properties([Self.defs, "workload." + kind.rawValue]), "workload \(kind)")
        }
        #expect(Set(ScenarioKeys.workload) == Set(WorkloadKind.allCases.flatMap(ScenarioKeys.workload)), "a workload key no kind takes")
    }

    @Test("Each generator kind's keys are its block of schema.json")
    func generatorKeys() {
        for (kind, _) in ScenarioKeys.generators {
            #expect(Set(ScenarioKeys.generator(kind)) == properties([Self.defs, "generator." + kind]), "generator \(kind)")
        }
    }

    /// Each enumeration of the format: the words the decoder takes, and where schema.json lists them.
    static var enumerations: [(name: String, words: [String], at: [Any])] {
        [
            ("workload kind", WorkloadKind.allCases.map(\.rawValue), [defs, "workload", "properties", "kind"]),
            ("generator kind", ScenarioKeys.generatorKinds, [defs, "generator", "properties", "kind"]),
            ("attribute type", AttributeType.allCases.map(\.rawValue), [defs, "attribute", "properties", "type"]),
            ("delete rule", DeleteRule.allCases.map(\.rawValue), [defs, "relationship", "properties", "deleteRule"]),
            ("index kind", IndexKind.allCases.map(\.rawValue), [defs, "index", "properties", "kind"]),
            ("index style", ScenarioKeys.indexStyles, [defs, "index", "properties", "style"]),
            ("index query", ScenarioKeys.indexQueries, [defs, "index", "properties", "query"]),
            (
                "index order", ScenarioKeys.indexOrders,
                [defs, "index", "properties", "elements", "items", "anyOf", 1, "properties", "order"]
            ),
            (
                "sweep scale", SizeSweep.Scale.allCases.map(\.rawValue),
                [defs, "dataset", "properties", "counts", "oneOf", 1, "properties", "scale"]
            ),
            ("derived function", DerivedFunction.allCases.map(\.rawValue), [defs, "generator.derived", "properties", "function"]),
            ("aggregate function", AggregateFunction.allCases.map(\.rawValue), [defs, "expression", "properties", "function"]),
            ("touch", ScenarioKeys.touchWords, [defs, "fetchOptions", "properties", "touch", "anyOf", 0]),
            ("result type", ResultTypeSpec.allCases.map(\.rawValue), [defs, "fetchOptions", "properties", "resultType"]),
            ("key binding", KeyBinding.allCases.map(\.rawValue), [defs, "fetchOptions", "properties", "keyBinding"]),
            (
                "sort comparator", SortComparator.allCases.map(\.rawValue),
                [defs, "fetchOptions", "properties", "sort", "items", "anyOf", 1, "properties", "comparator"]
            ),
            ("insert source", InsertSourceSpec.allCases.map(\.rawValue), [defs, "workload.batchInsert", "properties", "source"]),
            ("merge policy", MergePolicy.allCases.map(\.rawValue), [defs, "workload.batchInsert", "properties", "mergePolicy"]),
            ("upsert strategy", UpsertStrategySpec.allCases.map(\.rawValue), [defs, "workload.updateOrInsert", "properties", "strategy"]),
            ("journal mode", JournalModeSpec.allCases.map(\.rawValue), [defs, "workload.readerUnderWriter", "properties", "journalMode"]),
            ("reorder operation", ReorderOperation.allCases.map(\.rawValue), [defs, "workload.reorder", "properties", "operation"]),
            ("claim metric", ClaimMetric.allCases.map(\.rawValue), [defs, "claim", "properties", "metric"]),
            (
                "claim direction", ClaimSpec.Direction.allCases.map(\.rawValue),
                [defs, "claim", "properties", "expect", "properties", "direction"]
            ),
        ]
    }

    @Test("Each enumeration's words in the decoder are its enum in schema.json, the pragmas' values too")
    func enumerationWords() {
        for (name, words, at) in Self.enumerations {
            #expect(Set(words).count == words.count, "\(name): a word listed twice")
            #expect(Set(words) == enumeration(at), "\(name): the decoder takes \(words), schema.json \(enumeration(at) ?? [])")
        }
        for (name, values) in ScenarioKeys.pragmas {
            let at: [Any] = [Self.defs, "pragmas", "properties", name]
            if let values {
                #expect(Set(values) == enumeration(at), "pragma \(name)")
            } else {
                #expect(value(at + ["$ref"]) as? String == "#/$defs/integer", "pragma \(name) takes an integer")
            }
        }
    }
}
