import Foundation
import SchemaLabEngine
#if canImport(Glibc)
import Glibc
#endif

/// A run's output directory, written so that nothing is lost: after every case the
/// CSV files and run.json are rewritten whole and atomically (`FileWriting`), so a
/// run stopped at any instant (SIGKILL included) leaves complete rows for exactly the
/// cases run.json lists as done, and `--resume` finishes the others.
///
/// Contents: `results.csv`, `samples.csv`, `plans.csv` (rows of finished cases),
/// `failures.csv` (cases that failed, with the error and the SQL), `fills.csv` (what
/// filling each variant's store cost: time and the process's memory), `env.json` (the
/// environment), `run.json` (`RunState`), `signatures/` (each finished case's result
/// signature, for the checks of a resumed run) and `run.lock`, held by the process that
/// writes the directory.
///
/// Each case is committed in this order: its signature, samples.csv, plans.csv,
/// failures.csv, results.csv, run.json. A file can hold rows of a case that run.json
/// does not list yet (the process died between two renames); a resumed run drops
/// them and measures that case again.
package final class RunDirectory: @unchecked Sendable {
    package let path: String
    /// The run's state, as last written to run.json.
    package private(set) var state: RunState
    /// The finished cases, in the order they finished.
    package private(set) var records: [RecordedCase]
    private let writer: FileWriting
    private let lock: FileLock
    /// Marks each row's reference_check and agreement_check when results.csv is rewritten.
    private let checker: ResultChecker
    private let mutex = NSLock()
    /// Set once the run is stopped by a signal: later commits write nothing.
    private var closed = false
    private var samplesText: String
    private var plansText: String
    /// fills.csv: what filling each variant's store cost, per size (kept across a resume).
    private var fillsText: String

    private init(
        path: String, state: RunState, records: [RecordedCase], writer: FileWriting, lock: FileLock,
        checker: ResultChecker
    ) {
        self.path = path
        self.state = state
        self.records = records
        self.writer = writer
        self.lock = lock
        self.checker = checker
        samplesText = RunFiles.samples.text(records.flatMap(\.sampleRows))
        plansText = RunFiles.plans.text(records.flatMap(\.planRows))
        fillsText = (try? String(contentsOfFile: path + "/fills.csv", encoding: .utf8)) ?? RunFiles.fills.text([])
    }

    // MARK: Creating

    /// Checks, changing nothing, that a new run can be written at `path`: it does not
    /// exist, or `replace` is set and it is a run directory no process is writing; its
    /// parent is a directory this process can write in.
    package static func checkTarget(_ path: String, replace: Bool) throws {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDir) {
            guard isDir.boolValue else {
                throw FileError(path: path, message: "\(path) exists and is a file, not a directory", remedy: .chooseAnotherOutput)
            }
            guard replace else {
                throw FileError(
                    path: path,
                    message: "\(path) already exists", isBadInput: true, remedy: .replaceOrResume(path))
            }
            let entries = (try? fm.contentsOfDirectory(atPath: path)) ?? []
            guard entries.isEmpty || entries.contains("run.json") || entries.contains("results.csv") else {
                throw FileError(
                    path: path, message: "\(path) is not a SchemaLab run directory (no run.json or results.csv): refusing to replace it",
                    isBadInput: true)
            }
            if fm.fileExists(atPath: path + "/run.lock") {
                guard let held = try? FileLock.tryLock(path + "/run.lock") else {
                    throw FileError(
                        path: path, message: "\(path) is being written by a running schemalab: wait for it, or stop it first",
                        isBadInput: true)
                }
                held.release()
            }
        }
        let parent = Self.parent(of: path)
        if !fm.fileExists(atPath: parent, isDirectory: &isDir) {
            do { try fm.createDirectory(atPath: parent, withIntermediateDirectories: true) } catch {
                throw FileError(path: parent, message: "cannot create \(parent): \(FileError.reason(error))")
            }
        } else if !isDir.boolValue {
            throw FileError(path: parent, message: "\(parent) is a file, not a directory", remedy: .chooseAnotherOutput)
        }
        let probe = parent + "/.schemalab-probe-\(getpid())"
        let fd = Glibc.open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: parent, doing: "write in", errno: errno) }
        close(fd)
        unlink(probe)
    }

    /// Creates the run directory at `path` (after ``checkTarget(_:replace:)``): run.json,
    /// env.json and the CSV headers are written in a staging directory that is then
    /// renamed to `path`, so `path` either does not exist or is a valid run. With
    /// `replace`, an existing `path` becomes `<path>.previous`, and an older
    /// `<path>.previous` is deleted.
    package static func create(
        path: String, replace: Bool, state: RunState, manifest: RunManifest,
        checker: ResultChecker,
        writer: FileWriting = AtomicFile()
    ) throws -> RunDirectory {
        try checkTarget(path, replace: replace)
        let fm = FileManager.default
        removeStaleStaging(for: path)
        let staging = path + ".partial-\(getpid())"
        try? fm.removeItem(atPath: staging)
        do { try fm.createDirectory(atPath: staging + "/signatures", withIntermediateDirectories: true) } catch {
            throw FileError(path: staging, message: "cannot create \(staging): \(FileError.reason(error))")
        }
        guard let lock = try FileLock.tryLock(staging + "/run.lock") else {
            throw FileError(path: staging, message: "cannot lock \(staging)/run.lock")
        }
        let dir = RunDirectory(
            path: staging, state: state, records: [], writer: writer, lock: lock,
            checker: checker)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try writer.write(Array(try encoder.encode(manifest)) + [10], to: staging + "/env.json")
            try dir.writeFiles()
            if replace && fm.fileExists(atPath: path) {
                let previous = path + ".previous"
                if fm.fileExists(atPath: previous) {
                    do { try fm.removeItem(atPath: previous) } catch {
                        throw FileError(path: previous, message: "cannot remove the older \(previous): \(FileError.reason(error))")
                    }
                }
                guard rename(path, previous) == 0 else { throw FileError(path: path, doing: "move aside", errno: errno) }
            }
            guard rename(staging, path) == 0 else { throw FileError(path: path, doing: "create", errno: errno) }
        } catch {
            try? fm.removeItem(atPath: staging)
            throw error
        }
        return RunDirectory(
            path: path, state: state, records: [], writer: writer, lock: lock,
            checker: checker)
    }

    /// Staging directories of creations that died before their rename (`<path>.partial-<pid>`,
    /// whose lock no process holds).
    static func removeStaleStaging(for path: String) {
        let parent = Self.parent(of: path), prefix = (path as NSString).lastPathComponent + ".partial-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [] where name.hasPrefix(prefix) {
            let dir = parent + "/" + name
            if let held = try? FileLock.tryLock(dir + "/run.lock") {
                held.release()
                try? FileManager.default.removeItem(atPath: dir)
            }
        }
    }

    // MARK: Resuming

    /// Opens a run directory to finish it: refuses one that a live process is writing,
    /// one that is complete, and one this build cannot read. Keeps the finished cases
    /// that run.json lists; rows of any other case are dropped.
    package static func open(
        path: String, checker: ResultChecker,
        writer: FileWriting = AtomicFile()
    ) throws -> (RunDirectory, RunManifest) {
        let state = try readState(at: path)
        let manifest = try RunManifest.read(directory: path, purpose: "resume")
        guard let lock = try FileLock.tryLock(path + "/run.lock") else {
            throw FileError(
                path: path, message: "cannot resume \(path): a running schemalab (pid \(state.pid)) is writing it", isBadInput: true)
        }
        if state.state == .complete {
            throw FileError(path: path, message: "\(path) is complete: there is nothing to resume", isBadInput: true)
        }
        let records = try readRecords(path: path, state: state)
        let dir = RunDirectory(
            path: path, state: state, records: records, writer: writer, lock: lock,
            checker: checker)
        return (dir, manifest)
    }

    /// The finished cases of a run directory (those run.json lists as done), with their
    /// rows and result signatures; for resuming a run and for merging shards. Rows of cases
    /// run.json does not list (the process died between two renames) are dropped.
    package static func readRecords(path: String, state: RunState) throws -> [RecordedCase] {
        let fm = FileManager.default
        let done = Set(state.done)
        func read<Row>(_ table: CSVTable<Row>, _ name: String, blank: Row) throws -> [Row] {
            do { return try table.read(path: path + "/" + name, blank: blank) } catch {
                throw FileError(path: error.path, message: "cannot read the run in \(path): \(error.message)")
            }
        }
        let summaries = Dictionary(
            try read(RunFiles.results, "results.csv", blank: CaseSummary()).filter { done.contains($0.key) }.map { ($0.key, $0) },
            uniquingKeysWith: { _, last in last })
        let samples = Dictionary(
            grouping: try read(RunFiles.samples, "samples.csv", blank: RunFiles.blankSample).filter { done.contains($0.key) }, by: \.key)
        let plans = Dictionary(
            grouping: try read(RunFiles.plans, "plans.csv", blank: RunFiles.blankPlan).filter { done.contains($0.key) }, by: \.key)
        var records: [RecordedCase] = []
        for key in state.done {
            guard let summary = summaries[key], let index = state.cases.firstIndex(of: key) else {
                throw FileError(
                    path: path, message: "cannot read the run in \(path): results.csv has no row for \(key), which run.json lists as done")
            }
            let sigPath = signaturePath(path, index)
            guard let sig = fm.contents(atPath: sigPath) else {
                throw FileError(path: sigPath, message: "cannot read the run in \(path): \(sigPath) is missing")
            }
            records.append(
                RecordedCase(
                    summary: summary, samples: (samples[key] ?? []).map(\.value),
                    plans: PlanRow.statements((plans[key] ?? []).map(\.value)),
                    signature: try StoredSignature.decode(sig, path: sigPath)))
        }
        return records
    }

    /// Reads a run directory's run.json; a message says what could not be done (`purpose`).
    package static func readState(at path: String, purpose: String = "resume") throws -> RunState {
        let fm = FileManager.default
        guard let data = fm.contents(atPath: path + "/run.json") else {
            let why =
                fm.fileExists(atPath: path)
                ? "has no run.json: it is not a run directory this version of schemalab wrote" : "does not exist"
            throw FileError(path: path, message: "cannot \(purpose) \(path): it \(why)", isBadInput: true)
        }
        guard let state = try? JSONDecoder().decode(RunState.self, from: data), state.format == RunState.currentFormat else {
            throw FileError(
                path: path,
                message: "cannot \(purpose) \(path): its run.json is not one this build reads (format \(RunState.currentFormat))",
                isBadInput: true)
        }
        return state
    }

    /// Reads a run directory's run.json and throws unless the run is complete (a baseline or
    /// a comparison of a half-finished run would miss cases silently).
    package static func requireComplete(at path: String, purpose: String) throws(FileError) {
        let state: RunState
        do { state = try readState(at: path, purpose: purpose) } catch let e as FileError { throw e } catch {
            throw FileError(path: path, message: "cannot \(purpose) \(path): \(error)", isBadInput: true)
        }
        guard state.state == .complete else {
            throw FileError(
                path: path,
                message:
                    "cannot \(purpose) \(path): the run is \(state.state.rawValue) (\(state.done.count) of \(state.cases.count) cases done); finish it first",
                isBadInput: true, remedy: .resume(path))
        }
    }

    /// Marks the run as running again in this process: failed cases will be tried again.
    package func beginResume() throws {
        try locked {
            state.state = .running
            state.pid = getpid()
            state.resumes += 1
            state.failed = []
            state.stopReason = nil
            try writeFiles()
        }
    }

    // MARK: Recording

    /// The fills fills.csv holds (of this process and of earlier ones of the run).
    package var fills: [FillMeasurement] {
        let text = mutex.withLock { fillsText }
        return ((try? RunFiles.fills.rows(in: text, file: path + "/fills.csv", blank: RunFiles.blankFill)) ?? []).map(\.value)
    }

    /// True when `key`'s rows are in the files.
    package func isDone(_ key: CaseKey) -> Bool {
        mutex.withLock { state.done.contains(key) }
    }

    /// Adds a finished case and rewrites the files.
    package func commit(_ record: RecordedCase) throws {
        try locked {
            guard let index = state.cases.firstIndex(of: record.key) else {
                throw FileError(path: path, message: "\(record.key) is not a case of this run")
            }
            guard let signature = record.signature else {
                throw FileError(path: path, message: "\(record.key) has no result signature to keep")
            }
            if !record.latencies.isEmpty {
                // A reader's raw latencies, one file per case (rewritten when a resume measures it again).
                try? FileManager.default.createDirectory(atPath: path + "/latencies", withIntermediateDirectories: true)
                try writer.write(Array(RunFiles.latencies.text(record.latencyRows).utf8), to: Self.latenciesPath(path, record.key))
            }
            try writer.write(try StoredSignature.encode(signature), to: Self.signaturePath(path, index))
            records.removeAll { $0.key == record.key }
            records.append(record)
            let samples = samplesText + record.sampleRows.map(RunFiles.samples.record).joined()
            let plans = plansText + record.planRows.map(RunFiles.plans.record).joined()
            let failedBefore = state.failed
            state.done.append(record.key)
            state.failed.removeAll { $0.key == record.key }
            do {
                try writeFiles(samples: samples, plans: plans)
            } catch {
                state.failed = failedBefore
                state.done.removeLast()
                records.removeLast()
                throw error
            }
            samplesText = samples
            plansText = plans
        }
    }

    /// Adds a store fill's cost to fills.csv (written at once, atomically).
    package func recordFill(_ fill: FillMeasurement) throws {
        try locked {
            let text = fillsText + RunFiles.fills.record(ScenarioRow(scenario: state.scenarioName, value: fill))
            try writer.write(Array(text.utf8), to: path + "/fills.csv")
            fillsText = text
        }
    }

    /// Records a case that failed (it has no rows in the CSV files).
    package func recordFailure(_ key: CaseKey, _ failure: CaseFailure) throws {
        try locked {
            state.failed.removeAll { $0.key == key }
            state.failed.append(
                RunState.Failure(
                    variant: key.variant, workload: key.workload, size: key.size, error: failure.message,
                    sql: failure.sql))
            try writeFiles()
        }
    }

    /// Marks the run complete (every case finished or failed).
    package func finish() throws {
        try locked {
            state.state = .complete
            try writeFiles()
        }
    }

    /// Marks the run stopped (`interrupted` by a signal, `failed` by an error) and
    /// writes nothing more after it. Safe to call from a signal-handling thread: it
    /// waits for a commit in progress to end. Best effort: it reports nothing.
    package func stop(_ phase: RunState.Phase, reason: String) {
        mutex.withLock {
            guard !closed else { return }
            state.state = phase
            state.stopReason = reason
            try? writeRunState()
            closed = true
        }
    }

    // MARK: Writing

    private func locked(_ body: () throws -> Void) throws {
        try mutex.withLock {
            guard !closed else { return }
            try body()
        }
    }

    private func writeFiles(samples: String? = nil, plans: String? = nil) throws {
        try writer.write(Array((samples ?? samplesText).utf8), to: path + "/samples.csv")
        try writer.write(Array((plans ?? plansText).utf8), to: path + "/plans.csv")
        let failures = state.failed.map {
            CaseRow(scenario: state.scenarioName, key: $0.key, value: CaseFailure(message: $0.error, sql: $0.sql))
        }
        try writer.write(Array(RunFiles.failures.text(failures).utf8), to: path + "/failures.csv")
        // Every record here has its signature: commit refuses one without, readRecords reads it.
        let checks = checker.checks(records.map { ($0.key, $0.signature!) })
        for i in records.indices {
            records[i].summary.referenceCheck = checks[i].reference
            records[i].summary.agreementCheck = checks[i].agreement
        }
        try writer.write(Array(RunFiles.results.text(records.map(\.summary)).utf8), to: path + "/results.csv")
        try writeRunState()
    }

    private func writeRunState() throws {
        state.updatedAt = RunState.now()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try writer.write(Array(try encoder.encode(state)) + [10], to: path + "/run.json")
    }

    /// `latencies/<schema>-<workload>-<size>.csv`: the reads of a reader-under-writer case.
    package static func latenciesPath(_ dir: String, _ key: CaseKey) -> String {
        dir + "/latencies/\(key.variant)-\(key.workload)-\(key.size).csv"
    }

    static func signaturePath(_ dir: String, _ index: Int) -> String {
        dir + "/signatures/case-" + String(index).leftPadded(to: 5) + ".json"
    }

    /// The directory that holds `path` (`.` for a bare name). Foundation's
    /// `deletingLastPathComponent` stopped the process on a one-character relative path (`q`).
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}
