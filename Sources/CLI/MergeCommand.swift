import ArgumentParser
import Foundation
import SchemaLab
import SchemaLabSQLite
import SchemaLabEngine

/// `schemalab merge OUT SHARD...`: joins the directories of `run --shard i/n` into one run.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Joins the shard directories of one scenario (run --shard I/N) into one run directory.",
        discussion: """
            Every shard must be complete, of the same scenario file (SHA-256) and settings, and \
            from the same environment (SQLite version and compile options, CPU count, build \
            configuration); shards 1 to N must all be there. The result checks (reference_check, \
            agreement_check) are computed again over every case.
            """
    )

    @Argument(help: "The merged run directory to write (it must not exist, unless --replace).")
    var out: String

    @Argument(help: "The shard directories.")
    var shards: [String]

    @Flag(name: .long, help: "Replace an existing output directory.")
    var replace = false

    func run() throws {
        guard !shards.isEmpty else { throw fail("give the shard directories to merge", code: 2) }
        var states: [RunState] = [], manifests: [RunManifest] = []
        for s in shards {
            let state: RunState
            do { state = try RunDirectory.readState(at: s, purpose: "merge") } catch let e as FileError { throw fail(e.message, code: 2) }
            guard state.state == .complete else { throw fail("\(s) is \(state.state.rawValue): finish it (run --resume) before merging", code: 2) }
            guard let data = FileManager.default.contents(atPath: s + "/env.json"), let m = try? JSONDecoder().decode(RunManifest.self, from: data) else {
                throw fail("cannot read \(s)/env.json", code: 2)
            }
            states.append(state)
            manifests.append(m)
        }
        let first = states[0]
        var unsharded = first.settings
        unsharded.shardIndex = nil
        unsharded.shardCount = nil
        for (s, state) in zip(shards, states).dropFirst() {
            if state.scenarioSHA256 != first.scenarioSHA256 { throw fail("\(s) ran another scenario file than \(shards[0]) (SHA-256 differs)", code: 2) }
            var settings = state.settings
            settings.shardIndex = nil
            settings.shardCount = nil
            if settings != unsharded || state.settings.shardCount != first.settings.shardCount {
                throw fail("\(s) ran with other settings than \(shards[0]) (sizes, repetitions, variants, workloads or shard count)", code: 2)
            }
        }
        for (s, m) in zip(shards, manifests).dropFirst() {
            let d = RunComparison.environmentDifferences(manifests[0].environment, m.environment)
            if !d.isEmpty { throw fail("\(s) ran in another environment than \(shards[0]): \(d.joined(separator: "; "))", code: 2) }
        }
        if let n = first.settings.shardCount {
            let have = states.compactMap(\.settings.shardIndex)
            let missing = (1...n).filter { !have.contains($0) }
            if !missing.isEmpty || have.count != Set(have).count {
                throw fail("shards of \(n): \(missing.isEmpty ? "a shard is given twice" : "missing shard(s) \(missing.map(String.init).joined(separator: ", "))")", code: 2)
            }
        }
        // The merged run: every shard's cases and failures, the first shard's manifest.
        let plan: ScenarioPlan
        do { plan = try ScenarioPlan(ScenarioDecoder.load(path: first.scenarioPath)) } catch let e as ScenarioError { throw fail(e.description, code: 2) } catch {
            throw fail("cannot read the scenario \(first.scenarioPath): \(error)", code: 2)
        }
        guard plan.scenario.sha256 == first.scenarioSHA256 else { throw fail("\(first.scenarioPath) has changed since the shards ran", code: 2) }
        var state = RunState(state: .running, scenarioName: first.scenarioName, scenarioFile: first.scenarioFile, scenarioPath: first.scenarioPath,
                             scenarioSHA256: first.scenarioSHA256, settings: unsharded, cases: states.flatMap(\.cases))
        state.startedAt = states.map(\.startedAt).min() ?? state.startedAt
        let dir: RunDirectory
        do {
            try RunDirectory.checkTarget(out, replace: replace)
            dir = try RunDirectory.create(path: out, replace: replace, state: state, manifest: manifests[0],
                                          reference: plan.scenario.reference, agreesWith: ResultChecks.agreements(plan.scenario.workloads))
            for (s, st) in zip(shards, states) {
                for record in try RunDirectory.readRecords(path: s, state: st) { try dir.commit(record) }
                for f in st.failed { try dir.recordFailure(f.key, error: SQLiteError(code: 1, message: f.error, sql: f.sql)) }
                // The raw latencies are files of their own.
                let latencies = s + "/latencies"
                if let files = try? FileManager.default.contentsOfDirectory(atPath: latencies) {
                    try FileManager.default.createDirectory(atPath: out + "/latencies", withIntermediateDirectories: true)
                    for f in files { try? FileManager.default.copyItem(atPath: latencies + "/" + f, toPath: out + "/latencies/" + f) }
                }
            }
            try dir.finish()
        } catch let e as FileError {
            throw fail(e.message, code: e.isBadInput ? 2 : 1)
        }
        print("\(out): \(dir.records.count) cases from \(shards.count) shard(s)")
    }
}
