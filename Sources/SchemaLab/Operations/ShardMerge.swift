import Foundation
import SchemaLabEngine

/// `schemalab merge OUT SHARD...`: the directories of `run --shard I/N` joined into one run.
///
/// Every shard must be complete, of the same scenario file (SHA-256) and settings, and from
/// the same environment (SQLite version and compile options, CPU count, build configuration);
/// shards 1 to N must all be there. The merged run has every shard's cases and failures and
/// the first shard's manifest; its result checks are computed again over every case.
package enum ShardMerge {
    /// Writes the merged run to `out` (which must not exist unless `replace`); returns it.
    /// Every problem with the shards is bad input.
    @discardableResult
    package static func merge(shards: [String], into out: String, replace: Bool) throws(OperationError) -> RunDirectory {
        guard !shards.isEmpty else { throw OperationError(.badInput, "give the shard directories to merge") }
        var states: [RunState] = [], manifests: [RunManifest] = []
        for shard in shards {
            let state: RunState
            do { state = try RunDirectory.readState(at: shard, purpose: "merge") } catch {
                throw OperationError.from(error, status: .badInput)
            }
            guard state.state == .complete else {
                throw OperationError(.badInput, "\(shard) is \(state.state.rawValue): finish it before merging", remedy: .resume(shard))
            }
            states.append(state)
            do { manifests.append(try RunManifest.read(directory: shard, purpose: "merge")) } catch {
                throw OperationError(.badInput, error.message)
            }
        }
        let first = states[0]
        var unsharded = first.settings
        unsharded.shardIndex = nil
        unsharded.shardCount = nil
        for (shard, state) in zip(shards, states).dropFirst() {
            if state.scenarioSHA256 != first.scenarioSHA256 {
                throw OperationError(.badInput, "\(shard) ran another scenario file than \(shards[0]) (SHA-256 differs)")
            }
            var settings = state.settings
            settings.shardIndex = nil
            settings.shardCount = nil
            if settings != unsharded || state.settings.shardCount != first.settings.shardCount {
                throw OperationError(
                    .badInput, "\(shard) ran with other settings than \(shards[0]) (sizes, repetitions, variants, workloads or shard count)"
                )
            }
        }
        for (shard, manifest) in zip(shards, manifests).dropFirst() {
            let differences = RunComparison.environmentDifferences(manifests[0].environment, manifest.environment)
            if !differences.isEmpty {
                throw OperationError(
                    .badInput, "\(shard) ran in another environment than \(shards[0]): \(differences.joined(separator: "; "))")
            }
        }
        if let count = first.settings.shardCount {
            let have = states.compactMap(\.settings.shardIndex)
            let missing = (1...count).filter { !have.contains($0) }
            if !missing.isEmpty || have.count != Set(have).count {
                let what =
                    missing.isEmpty ? "a shard is given twice" : "missing shard(s) \(missing.map(String.init).joined(separator: ", "))"
                throw OperationError(.badInput, "shards of \(count): \(what)")
            }
        }
        // The merged run: every shard's cases and failures, the first shard's manifest.
        let plan: ScenarioPlan
        do { plan = try ScenarioPlan(ScenarioDecoder.load(path: first.scenarioPath)) } catch let error as ScenarioError {
            throw OperationError(.badInput, error.description)
        } catch {
            throw OperationError(.badInput, "cannot read the scenario \(first.scenarioPath): \(error)")
        }
        guard plan.scenario.sha256 == first.scenarioSHA256 else {
            throw OperationError(.badInput, "\(first.scenarioPath) has changed since the shards ran")
        }
        var state = RunState(
            state: .running, scenarioName: first.scenarioName, scenarioFile: first.scenarioFile,
            scenarioPath: first.scenarioPath, scenarioSHA256: first.scenarioSHA256, settings: unsharded,
            cases: states.flatMap(\.cases))
        state.startedAt = states.map(\.startedAt).min() ?? state.startedAt
        do {
            try RunDirectory.checkTarget(out, replace: replace)
            let directory = try RunDirectory.create(
                path: out, replace: replace, state: state, manifest: manifests[0],
                checker: ResultChecker(scenario: plan.scenario))
            for (shard, shardState) in zip(shards, states) {
                for record in try RunDirectory.readRecords(path: shard, state: shardState) { try directory.commit(record) }
                // A failure keeps the message and SQL its shard recorded.
                for failure in shardState.failed {
                    try directory.recordFailure(failure.key, CaseFailure(message: failure.error, sql: failure.sql))
                }
                // The raw latencies are files of their own.
                let latencies = shard + "/latencies"
                if let files = try? FileManager.default.contentsOfDirectory(atPath: latencies) {
                    try FileManager.default.createDirectory(atPath: out + "/latencies", withIntermediateDirectories: true)
                    for file in files {
                        try? FileManager.default.copyItem(atPath: latencies + "/" + file, toPath: out + "/latencies/" + file)
                    }
                }
            }
            try directory.finish()
            try ClaimsFile.write(scenario: plan.scenario, directory: out)
            return directory
        } catch {
            throw OperationError.from(error)
        }
    }
}
