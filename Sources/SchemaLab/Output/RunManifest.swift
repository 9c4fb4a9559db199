import Foundation
import SchemaLabEngine

/// env.json: the environment, the scenario's identity and the run's settings.
package struct RunManifest: Codable, Sendable {
    package var scenarioName: String
    package var scenarioFile: String
    package var scenarioSHA256: String
    package var seed: UInt64
    package var sizes: [Int]
    package var variants: [String]
    package var workloads: [String]
    package var warmup: Int
    package var repetitions: Int
    package var maxSecondsPerCase: Double
    package var pragmas: [String: String]
    package var environment: EnvironmentFingerprint
    /// How batched fetches bind a window's keys (Core Data uses a `_Z_intarray0` virtual table).
    package var batchKeyBinding = "IN (SELECT * FROM _Z_intarray0); IN (?,...) in workloads with keyBinding parameters"

    package init(plan: ScenarioPlan, options: RunOptions) {
        let sc = plan.scenario
        scenarioName = sc.name
        scenarioFile = sc.file
        scenarioSHA256 = sc.sha256
        seed = sc.dataset.seed
        sizes = options.sizes ?? sc.dataset.counts
        variants = sc.variants.map(\.name).filter { options.variants?.contains($0) ?? true }
        workloads = sc.workloads.map(\.name).filter { options.workloads?.contains($0) ?? true }
        warmup = options.warmup ?? sc.measurement.warmup
        repetitions = options.repetitions ?? sc.measurement.repetitions
        maxSecondsPerCase = sc.measurement.maxSeconds
        pragmas = Dictionary(uniqueKeysWithValues: sc.pragmas.map { ($0.name, $0.value) })
        environment = EnvironmentFingerprint()
    }

    /// Reads `directory`'s env.json; the message says what could not be done (`purpose`:
    /// "resume", "merge", "compare", "report on").
    package static func read(directory: String, purpose: String) throws(FileError) -> RunManifest {
        guard let data = FileManager.default.contents(atPath: directory + "/env.json"),
            let manifest = try? JSONDecoder().decode(RunManifest.self, from: data)
        else {
            throw FileError(
                path: directory + "/env.json", message: "cannot \(purpose) \(directory): its env.json is missing or unreadable",
                isBadInput: true)
        }
        return manifest
    }
}
