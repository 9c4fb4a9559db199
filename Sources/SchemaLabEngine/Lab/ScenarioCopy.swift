import Foundation
import SchemaLabCoreData

/// The scenario as a file a counting process reads (``CountRequest/scenarioFile``): the
/// bytes of the file it was decoded from while they are still the ones decoded (so the child
/// reads exactly what the run read), else (a scenario built in Swift, or a file edited since)
/// its text as ``ScenarioEncoder`` writes it, which decodes to an equal scenario.
enum ScenarioCopy {
    static func write(_ scenario: Scenario, to path: String) throws {
        if !scenario.sha256.isEmpty, let data = FileManager.default.contents(atPath: scenario.file),
            SHA256.hex(Array(data)) == scenario.sha256
        {
            try data.write(to: URL(fileURLWithPath: path))
            return
        }
        try Data(ScenarioEncoder.text(scenario).utf8).write(to: URL(fileURLWithPath: path))
    }
}
