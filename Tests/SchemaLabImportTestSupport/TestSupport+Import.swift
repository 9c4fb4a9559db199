import SchemaLab
import SchemaLabEngine
import SchemaLabTestSupport

/// What the import tests of the SchemaLab target and of the CLI share: a model imported in
/// this process, before the CLI tests run what it became.
extension TestSupport {
    /// Imports a model into a validated scenario plan (and the importer, for its notes).
    package static func imported(_ path: String) throws -> (plan: ScenarioPlan, importer: ScenarioImporter, text: String) {
        let model = try ModelSource.read(path: path)
        var importer = ScenarioImporter(model: model, name: "imported", today: "2026-11-25")
        let text = ScenarioEncoder.text(try importer.scenario())
        return (try ScenarioPlan(ScenarioDecoder.decode(text: text, file: "imported.json")), importer, text)
    }
}
