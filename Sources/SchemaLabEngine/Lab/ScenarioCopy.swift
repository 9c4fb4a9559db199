import Foundation
import SchemaLabCoreData

/// The scenario as a file a counting process reads (``CountRequest/scenarioFile``): the
/// bytes of the file it was decoded from, when they are still the ones decoded.
enum ScenarioCopy {
    static func write(_ scenario: Scenario, to path: String) throws {
        guard !scenario.file.isEmpty, let data = FileManager.default.contents(atPath: scenario.file) else {
            throw MeasurementError("counting instructions needs the scenario's file, and \(scenario.name) has none that can be read")
        }
        guard SHA256.hex(Array(data)) == scenario.sha256 else {
            throw MeasurementError("counting instructions: \(scenario.file) has changed since the run started")
        }
        try data.write(to: URL(fileURLWithPath: path))
    }
}
