import SchemaLabEngine
import SchemaLabTestSupport

/// The scenario plans the tests of the engine and of the layers above it build their models
/// from (the Core Data layer's tests build theirs without the engine).
extension TestSupport {
    /// The photo scenario's resolved plan.
    package static func photosPlan() throws -> ScenarioPlan {
        try ScenarioPlan(ScenarioDecoder.load(path: photosScenario))
    }

    /// Decodes scenario text (for error tests).
    package static func decode(_ text: String) throws -> ScenarioPlan {
        try ScenarioPlan(ScenarioDecoder.decode(text: text, file: "test.json"))
    }
}
