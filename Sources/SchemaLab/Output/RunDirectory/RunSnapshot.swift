import Foundation
import SchemaLabEngine

/// A finished run's cases, typed: read back from its directory (or a baseline's), or made
/// in memory from a run just measured (`Lab.run(_:options:observer:)`). What the claims,
/// the assertions, the regression gate, the plots and the reports read.
public struct RunSnapshot: Sendable {
    /// The run directory it was read from; nil for a run in memory.
    public let path: String?
    /// The scenario's name.
    public let scenario: String
    /// Every case the run finished, by its key (a failed case has none).
    public let cases: [CaseKey: RecordedCase]
    /// The cases in the order results.csv (or the run) lists them.
    public let order: [CaseKey]
    /// Where and with what the run was measured (env.json).
    public let environment: EnvironmentFingerprint
    /// The store file's size after each variant's fill, by variant and size (fills.csv).
    public let storeBytes: [String: [Int: Double]]

    /// A run in memory: its cases in order, the fills of its stores, its environment.
    public init(scenario: String, cases: [RecordedCase], fills: [FillMeasurement], environment: EnvironmentFingerprint) {
        path = nil
        self.scenario = scenario
        self.cases = Dictionary(cases.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
        order = cases.map(\.key)
        self.environment = environment
        storeBytes = Self.storeBytes(fills)
    }

    /// The same run with `extra` repetitions of some cases added to their samples (a claim's
    /// cases measured again); every other field as it is.
    package func adding(samples extra: [CaseKey: [Sample]]) -> RunSnapshot {
        var cases = self.cases
        for (key, samples) in extra { cases[key]?.samples += samples }
        return RunSnapshot(path: path, scenario: scenario, cases: cases, order: order, environment: environment, storeBytes: storeBytes)
    }

    private init(
        path: String?, scenario: String, cases: [CaseKey: RecordedCase], order: [CaseKey], environment: EnvironmentFingerprint,
        storeBytes: [String: [Int: Double]]
    ) {
        self.path = path
        self.scenario = scenario
        self.cases = cases
        self.order = order
        self.environment = environment
        self.storeBytes = storeBytes
    }

    /// Reads the run directory at `path`: results.csv, samples.csv, plans.csv, the latency
    /// files, fills.csv when there is one, and env.json. An error names the file (and the row
    /// and column) that cannot be read.
    public init(path: String) throws(FileError) {
        self.path = path
        let summaries = try RunFiles.results.read(path: path + "/results.csv", blank: CaseSummary())
        var cases: [CaseKey: RecordedCase] = [:]
        var order: [CaseKey] = []
        for summary in summaries {
            if cases[summary.key] == nil { order.append(summary.key) }
            cases[summary.key] = RecordedCase(summary: summary, samples: [], plans: [])
        }
        for row in try RunFiles.samples.read(path: path + "/samples.csv", blank: RunFiles.blankSample) {
            cases[row.key]?.samples.append(row.value)
        }
        let planRows = try RunFiles.plans.read(path: path + "/plans.csv", blank: RunFiles.blankPlan)
        for (key, rows) in Dictionary(grouping: planRows, by: \.key) where cases[key] != nil {
            cases[key]!.plans = PlanRow.statements(rows.map(\.value))
        }
        for key in order where cases[key]?.summary.reads != nil {
            cases[key]!.latencies = try Self.latencies(directory: path, key)
        }
        let fills = path + "/fills.csv"
        storeBytes =
            FileManager.default.fileExists(atPath: fills)
            ? Self.storeBytes(try RunFiles.fills.read(path: fills, blank: RunFiles.blankFill).map(\.value)) : [:]
        self.cases = cases
        self.order = order
        scenario = summaries.first?.scenario ?? ""
        environment = try RunManifest.read(directory: path, purpose: "read").environment
    }

    /// Every read of a case that kept them (`latencies/<variant>-<workload>-<size>.csv`), in
    /// file order; empty when there is no such file.
    static func latencies(directory: String, _ key: CaseKey) throws(FileError) -> [ReadLatency] {
        let file = RunDirectory.latenciesPath(directory, key)
        guard FileManager.default.fileExists(atPath: file) else { return [] }
        return try RunFiles.latencies.read(path: file, blank: RunFiles.blankLatency).map(\.value)
    }

    /// The store sizes of `fills` by variant and size (those known: a size is -1 when it
    /// could not be read).
    static func storeBytes(_ fills: [FillMeasurement]) -> [String: [Int: Double]] {
        var bytes: [String: [Int: Double]] = [:]
        for fill in fills where fill.storeBytes >= 0 { bytes[fill.variant, default: [:]][fill.size] = Double(fill.storeBytes) }
        return bytes
    }
}
