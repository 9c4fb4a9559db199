import Foundation
@testable import SchemaLabCoreData
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// Models and helpers for the predicate tests.
enum PredicateFixtures {
    static let libraryScenario = TestSupport.packageRoot + "/Tests/Fixtures/predicate-library.json"

    /// The photo matrix's V1 (flat Photo) and V2 (Photo.meta -> PhotoMeta).
    static func photoModel(_ variant: String) throws -> ResolvedModel {
        try TestSupport.photosPlan().models.first { $0.variant == variant }!
    }

    /// Author -< Book >-< Tag (library.json, variant L1).
    static func libraryModel() throws -> ResolvedModel {
        try TestSupport.decode(String(contentsOfFile: libraryScenario, encoding: .utf8)).models[0]
    }

    /// The model a test names: "V1", "V2" or "L1".
    static func model(_ name: String) throws -> ResolvedModel {
        name == "L1" ? try libraryModel() : try photoModel(name)
    }

    /// Parses and compiles `text` for a fetch of `entity`; returns the WHERE SQL, its bindings
    /// and the planner's FROM clause.
    static func compile(
        _ model: ResolvedModel, _ entity: String, _ text: String,
        _ arguments: [PredicateValue] = []
    ) throws -> (compiled: CompiledPredicate, from: String) {
        let e = model.entity(entity)!
        let joins = JoinPlanner(model: model, entity: e)
        let compiled = try PredicateCompiler(model: model, entity: e, joins: joins)
            .compile(PredicateParser.parse(text, arguments: arguments))
        return (compiled, joins.fromClause)
    }
}
