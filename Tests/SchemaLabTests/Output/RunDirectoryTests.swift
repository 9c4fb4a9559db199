import Foundation
import Synchronization
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabEngine
@testable import SchemaLab
#if canImport(Glibc)
import Glibc
import SchemaLabTestSupport
import SchemaLabEngineTestSupport
#endif

/// A file system whose k-th next write fails with "No space left on device", as a full disk does.
final class FullDiskWriter: FileWriting, Sendable {
    private let countdown = Mutex<Int?>(nil)

    func failWrite(_ k: Int?) { countdown.withLock { $0 = k } }

    func write(_ bytes: [UInt8], to path: String) throws {
        let fails = countdown.withLock { c -> Bool in
            guard let n = c else { return false }
            c = n - 1
            return n == 1
        }
        if fails { throw FileError(path: path, doing: "write", errno: ENOSPC) }
        try AtomicFile().write(bytes, to: path)
    }
}

@Suite("The run directory: durable cases, failures, resume")
struct RunDirectoryTests {
    static let keys = [CaseKey(variant: "A", workload: "w", size: 10), CaseKey(variant: "B", workload: "w", size: 10)]

    static func record(_ key: CaseKey, digest: String, values: [[SQLValue]]? = nil) -> RecordedCase {
        var summary = CaseSummary()
        summary.scenario = "s"
        summary.variant = key.variant
        summary.workload = key.workload
        summary.size = key.size
        summary.resultDigest = digest
        let sample = Sample(repetition: 1, wallMs: 1, cpuMs: 1, rows: 3, statements: 1, heapRetainedKB: 0)
        let plan = StatementPlan(number: 1, sql: "SELECT 1, \"x\"\nFROM t", plan: [QueryPlanNode(id: 2, parent: 0, detail: "SCAN t")])
        return RecordedCase(
            summary: summary, samples: [sample], plans: [plan], signature: ResultSignature(digest: digest, values: values))
    }

    static func make(_ dir: String, writer: FileWriting = AtomicFile()) throws -> RunDirectory {
        let plan = try TestSupport.photosPlan()
        let options = RunOptions()
        let state = RunState(
            state: .running, scenarioName: "s", scenarioFile: "s.json", scenarioPath: "/s.json",
            scenarioSHA256: "abc", settings: options.settings, cases: keys)
        return try RunDirectory.create(
            path: dir + "/run", replace: false, state: state, manifest: RunManifest(plan: plan, options: options),
            checker: ResultChecker(reference: "A", workloads: []), writer: writer)
    }

    static func csv(_ path: String) throws -> [[String]] {
        CSVWriter.parse(try String(contentsOfFile: path, encoding: .utf8))
    }

    @Test("A full disk fails the commit with the path and the system's reason, and the files keep the earlier cases")
    func fullDisk() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = FullDiskWriter()
        let run = try Self.make(dir, writer: writer)
        try run.commit(Self.record(Self.keys[0], digest: "d0"))
        // Each commit writes: signature, samples, plans, failures, results, run.json. Fail each step in turn:
        // run.json still lists only the first case, and every file holds whole rows of finished cases.
        for step in 1...6 {
            writer.failWrite(step)
            #expect(throws: FileError.self) { try run.commit(Self.record(Self.keys[1], digest: "d1")) }
            let state = try JSONDecoder().decode(RunState.self, from: Data(contentsOf: URL(fileURLWithPath: run.path + "/run.json")))
            #expect(state.done == [Self.keys[0]], "step \(step)")
            #expect(run.records.count == 1)
            for (file, header) in [
                ("results.csv", RunFiles.results.header), ("samples.csv", RunFiles.samples.header),
                ("plans.csv", RunFiles.plans.header),
            ] {
                let rows = try Self.csv(run.path + "/" + file)
                #expect(rows.first == header && rows.allSatisfy { $0.count == header.count }, "step \(step): \(file)")
                #expect(Set(rows.dropFirst().map { $0[1] }).isSubset(of: ["A", "B"]))
                #expect(rows.dropFirst().filter { $0[1] == "A" }.count == 1, "step \(step): \(file) lost or doubled a row")
            }
        }
        do {
            writer.failWrite(2)
            try run.commit(Self.record(Self.keys[1], digest: "d1"))
            Issue.record("the commit should have failed")
        } catch let e as FileError {
            #expect(e.message == "cannot write \(run.path)/samples.csv: No space left on device")
            #expect(!e.isBadInput)
        }
        #expect(!FileManager.default.fileExists(atPath: run.path + "/samples.csv.tmp"))
        // Space again: the same case commits.
        writer.failWrite(nil)
        try run.commit(Self.record(Self.keys[1], digest: "d1"))
        #expect(try Self.csv(run.path + "/results.csv").count == 3)
        #expect(try Self.csv(run.path + "/samples.csv").count == 3, "no row twice after the failed commits")
    }

    @Test("Checks are recomputed as cases arrive; a resumed directory keeps only the cases run.json lists")
    func resumeKeepsListedCases() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let values: [[SQLValue]] = [
            [.real(.infinity), .real(-0.0), .real(1.0 / 3), .integer(-7), .null, .text("a,\"b\"\nc é"), .blob([0, 255, 16])]
        ]
        do {
            let run = try Self.make(dir)
            try run.commit(Self.record(Self.keys[0], digest: "d0", values: values))
            #expect(run.records[0].summary.referenceCheck == .reference)
            run.stop(.interrupted, reason: "test")
            try run.commit(Self.record(Self.keys[1], digest: "d1"))  // after stop: writes nothing
            #expect(try Self.csv(run.path + "/results.csv").count == 2)
        }
        // A row of a case run.json does not list (the process died between two renames).
        let results = dir + "/run/results.csv"
        var text = try String(contentsOfFile: results, encoding: .utf8)
        text += RunFiles.results.record(Self.record(Self.keys[1], digest: "stray").summary)
        try text.write(toFile: results, atomically: true, encoding: .utf8)

        let (run, _) = try RunDirectory.open(path: dir + "/run", checker: ResultChecker(reference: "A", workloads: []))
        #expect(run.records.map(\.key) == [Self.keys[0]])
        #expect(run.state.state == .interrupted)
        let kept = try #require(run.records[0].signature)
        #expect(kept.digest == "d0")
        #expect(kept.matches(ResultSignature(digest: "other", values: values)), "values survive the round trip")
        #expect(kept.values?[0][0] == .real(.infinity))
        #expect(StoredSignature.decode(StoredSignature.encode(.real(.nan)))?.doubleValue?.isNaN == true)
        #expect(kept.values?[0][1] == .real(-0.0) && kept.values?[0][1].doubleValue?.sign == .minus)
        #expect(run.records[0].plans[0].sql == "SELECT 1, \"x\"\nFROM t")
        #expect(run.records[0].plans[0].plan == [QueryPlanNode(id: 2, parent: 0, detail: "SCAN t")])
        try run.beginResume()
        try run.commit(Self.record(Self.keys[1], digest: "d0", values: values))
        let rows = try Self.csv(dir + "/run/results.csv")
        #expect(rows.count == 3, "the stray row is gone")
        #expect(rows[2][RunFiles.results.header.firstIndex(of: "reference_check")!] == "same")
        #expect(try Self.csv(dir + "/run/samples.csv").count == 3)
        try run.finish()
        #expect(throws: FileError.self) {
            _ = try RunDirectory.open(path: dir + "/run", checker: ResultChecker(reference: "A", workloads: []))
        }
    }

    @Test("A directory a live process writes cannot be resumed or replaced")
    func lockedDirectory() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try Self.make(dir)
        do {
            _ = try RunDirectory.open(path: run.path, checker: ResultChecker(reference: "A", workloads: []))
            Issue.record("opened a directory that is being written")
        } catch let e as FileError {
            #expect(e.message.contains("a running schemalab (pid \(getpid())) is writing it"))
        }
        #expect(throws: FileError.self) { try RunDirectory.checkTarget(run.path, replace: true) }
        withExtendedLifetime(run) {}
    }

    @Test("checkTarget: a file, an existing run without --replace, a directory that is not a run")
    func targets() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/file"))
        let cases: [(String, Bool, String, Bool)] = [
            (dir + "/file", true, "exists and is a file, not a directory", false),
            (dir + "/file/sub", false, "is a file, not a directory", false),
            (dir, false, "already exists", true),
            (dir, true, "is not a SchemaLab run directory", true),
        ]
        for (path, replace, message, badInput) in cases {
            do {
                try RunDirectory.checkTarget(path, replace: replace)
                Issue.record("\(path) was accepted")
            } catch let e as FileError {
                #expect(e.message.contains(message), "\(e.message)")
                #expect(e.isBadInput == badInput, "\(path)")
            }
        }
        try RunDirectory.checkTarget(dir + "/new/deeper", replace: false)
        #expect(FileManager.default.fileExists(atPath: dir + "/new"), "the parent is created")
    }

    @Test("Stale work directories: a free lock or a dead process is removed, a held lock or a live process is kept")
    func staleWorkDirectories() throws {
        let base = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        var dead: Int32 = 4_000_000
        while kill(dead, 0) == 0 || errno != ESRCH { dead -= 1 }
        let fm = FileManager.default
        for name in ["schemalab-\(dead)", "schemalab-\(dead - 1)", "schemalab-1", "schemalab-\(dead - 2)", "schemalab-notapid"] {
            try fm.createDirectory(atPath: base + "/" + name, withIntermediateDirectories: true)
            try Data(count: 4096).write(to: URL(fileURLWithPath: base + "/" + name + "/V1-100.sqlite"))
        }
        _ = try FileLock.tryLock(base + "/schemalab-\(dead)/lock")  // taken and released: free
        let held = try #require(try FileLock.tryLock(base + "/schemalab-\(dead - 2)/lock"))  // a live run's
        let removed = WorkDirectory.removeStale(in: base)
        #expect(Set(removed) == [base + "/schemalab-\(dead)", base + "/schemalab-\(dead - 1)"])
        #expect(fm.fileExists(atPath: base + "/schemalab-1"), "pid 1 is alive")
        #expect(fm.fileExists(atPath: base + "/schemalab-\(dead - 2)"), "its lock is held")
        #expect(fm.fileExists(atPath: base + "/schemalab-notapid"))
        held.release()
        let work = try WorkDirectory.create(in: base)
        #expect(!fm.fileExists(atPath: base + "/schemalab-\(dead - 2)"))
        #expect(work.path.hasPrefix(base + "/schemalab-\(getpid())-"))
        work.remove()
        #expect(!fm.fileExists(atPath: work.path))
    }
}
