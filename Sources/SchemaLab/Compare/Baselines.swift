import Foundation
import SchemaLabEngine

/// Stored runs to compare with: `results/baselines/NAME/` holds a run's results.csv,
/// samples.csv, plans.csv, env.json, run.json, fills.csv and claims.csv, small plain files a repository can commit
/// and diff.
package struct Baselines: Sendable {
    /// The directory that holds the baselines.
    package let directory: String
    /// The files a baseline keeps.
    package static let files = ["results.csv", "samples.csv", "plans.csv", "env.json", "run.json", "fills.csv", "claims.csv"]

    package init(directory: String = "results/baselines") { self.directory = directory }

    /// Copies the run in `run` to `NAME` (replacing an earlier one with `replace`).
    package func save(run: String, name: String, replace: Bool) throws(FileError) {
        guard Identifier.isPlainName(name.replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: ".", with: "_")) else {
            throw FileError(path: name, message: "a baseline name is letters, digits, -, _ and . ('\(name)')", isBadInput: true)
        }
        try RunDirectory.requireComplete(at: run, purpose: "save as a baseline")
        _ = try RunSnapshot(path: run)  // it must read back
        let target = directory + "/" + name
        let fm = FileManager.default
        let exists = fm.fileExists(atPath: target)
        if exists && !replace {
            throw FileError(path: target, message: "baseline '\(name)' exists at \(target)", isBadInput: true, remedy: .replace)
        }
        // Copied beside the target first: a failed copy leaves the old baseline as it was.
        let staging = directory + "/.\(name).new-\(getpid())"
        do {
            try? fm.removeItem(atPath: staging)
            try fm.createDirectory(atPath: staging, withIntermediateDirectories: true)
            for f in Self.files where fm.fileExists(atPath: run + "/" + f) {
                try fm.copyItem(atPath: run + "/" + f, toPath: staging + "/" + f)
            }
            if exists { try fm.removeItem(atPath: target) }
            try fm.moveItem(atPath: staging, toPath: target)
        } catch {
            try? fm.removeItem(atPath: staging)
            throw FileError(path: target, message: "cannot write baseline \(target): \(error.localizedDescription)", isBadInput: false)
        }
    }

    /// The saved baselines: name, scenario, cases, commit and when the run started.
    package func list() -> [(name: String, scenario: String, cases: Int, commit: String, started: String)] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        return names.compactMap { name in
            guard let snapshot = try? RunSnapshot(path: directory + "/" + name) else { return nil }
            return (
                name, snapshot.scenario, snapshot.order.count, String(snapshot.environment.gitCommit.prefix(12)),
                snapshot.environment.startedAt
            )
        }
    }

    /// The directory of a baseline given as a run directory or a name; nil when neither exists.
    package func resolve(_ nameOrPath: String) -> String? {
        let fm = FileManager.default
        if fm.fileExists(atPath: nameOrPath + "/results.csv") { return nameOrPath }
        if fm.fileExists(atPath: directory + "/" + nameOrPath + "/results.csv") { return directory + "/" + nameOrPath }
        return nil
    }
}
