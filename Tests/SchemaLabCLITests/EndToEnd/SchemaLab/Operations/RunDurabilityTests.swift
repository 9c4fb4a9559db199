import Foundation
import Testing
@testable import SchemaLabEngine
@testable import SchemaLab
#if canImport(Glibc)
import Glibc
import SchemaLabTestSupport
#endif

/// The CLI when things go wrong: killed runs, signals, failed cases, full or read-only
/// output, data that would not fit, resumed runs.
@Suite("Runs that stop early lose nothing", .serialized)
struct RunDurabilityTests {
    /// A started `schemalab run`, its output thrown away.
    static func start(_ arguments: [String], tmp: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestSupport.executable)
        p.arguments = arguments
        p.currentDirectoryURL = URL(fileURLWithPath: TestSupport.packageRoot)
        p.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmp]) { _, new in new }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    static func runCLI(_ arguments: [String], tmp: String) throws -> (status: Int32, out: String, err: String) {
        try TestSupport.runCLI(arguments, environment: ["TMPDIR": tmp])
    }

    /// A test directory and, inside it, the TMPDIR its runs keep their stores in.
    static func scratch() throws -> (dir: String, tmp: String) {
        let dir = try TestSupport.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/tmp", withIntermediateDirectories: true)
        return (dir, dir + "/tmp")
    }

    static func csv(_ path: String) throws -> [[String]] {
        CSVWriter.parse(try String(contentsOfFile: path, encoding: .utf8))
    }

    static func state(_ dir: String) throws -> RunState {
        try JSONDecoder().decode(RunState.self, from: Data(contentsOf: URL(fileURLWithPath: dir + "/run.json")))
    }

    /// The temporary store directories in `tmp`.
    static func stores(_ tmp: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).filter { $0.hasPrefix("schemalab-") }
    }

    /// Every file of a run directory holds whole rows: the header's field count, each row of a planned case.
    static func checkWhole(_ out: String, planned: Set<CaseKey>, _ note: String) throws {
        let state = try Self.state(out)
        for (file, header) in [
            ("results.csv", RunFiles.results.header), ("samples.csv", RunFiles.samples.header),
            ("plans.csv", RunFiles.plans.header), ("failures.csv", RunFiles.failures.header),
        ] {
            let text = try String(contentsOfFile: out + "/" + file, encoding: .utf8)
            #expect(text.hasSuffix("\n"), "\(note): \(file) ends inside a row")
            let rows = CSVWriter.parse(text)
            #expect(rows.first == header, "\(note): \(file)")
            for r in rows.dropFirst() {
                #expect(r.count == header.count, "\(note): \(file) has a partial row")
                #expect(planned.contains(CaseKey(variant: r[1], workload: r[2], size: Int(r[3]) ?? -1)), "\(note): \(file): \(r.prefix(4))")
            }
        }
        let results = try csv(out + "/results.csv").dropFirst().map { CaseKey(variant: $0[1], workload: $0[2], size: Int($0[3])!) }
        #expect(Set(results).count == results.count, "\(note): a case twice in results.csv")
        #expect(Set(state.done).isSubset(of: Set(results)), "\(note): run.json lists a case results.csv lacks")
        #expect(Set(results).subtracting(state.done).count <= 1, "\(note): more than the case being committed is unlisted")
    }

    @Test("A run SIGKILLed at 20 random moments leaves whole rows, and resumes to the uninterrupted run's cases and results")
    func sigkillAndResume() throws {
        let (dir, tmp) = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let args = ["run", TestSupport.tinyScenario, "--size", "1500", "--reps", "2", "--warmup", "0", "--quiet"]
        let t0 = Date()
        let whole = try Self.runCLI(args + ["--out", dir + "/whole"], tmp: tmp)
        let duration = Date().timeIntervalSince(t0)
        #expect(whole.status == 0, "\(whole.err)")
        let expected = try Self.csv(dir + "/whole/results.csv").dropFirst().map { row in
            (
                CaseKey(variant: row[1], workload: row[2], size: Int(row[3])!),
                row[RunFiles.results.header.firstIndex(of: "result_digest")!]
            )
        }
        let planned = Set(expected.map(\.0))
        #expect(planned.count == 12)
        var rng = SplitMix64(seed: 20261123)
        var resumedFromPartial = 0
        for i in 0..<20 {
            let out = dir + "/killed-\(i)"
            let p = try Self.start(args + ["--out", out], tmp: tmp)
            let delay = 0.02 + Double(rng.next() % 1000) / 1000 * duration
            usleep(useconds_t(delay * 1e6))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            #expect(p.terminationReason == .uncaughtSignal || p.terminationStatus == 0)
            guard FileManager.default.fileExists(atPath: out) else {
                // Killed before the directory was renamed into place: nothing but a staging directory.
                #expect(!FileManager.default.fileExists(atPath: out + "/run.json"))
                continue
            }
            try Self.checkWhole(out, planned: planned, "kill \(i) after \(delay) s")
            if try Self.state(out).state != .complete {
                resumedFromPartial += 1
                let r = try Self.runCLI(["run", "--resume", out, "--quiet"], tmp: tmp)
                #expect(r.status == 0, "kill \(i): \(r.err)")
            }
            try Self.checkWhole(out, planned: planned, "kill \(i), resumed")
            let rows = try Self.csv(out + "/results.csv")
            let got = Dictionary(
                uniqueKeysWithValues: rows.dropFirst().map { row in
                    (CaseKey(variant: row[1], workload: row[2], size: Int(row[3])!), row)
                })
            #expect(Set(got.keys) == planned, "kill \(i): the resumed run's cases")
            for (key, digest) in expected {
                #expect(got[key]?[RunFiles.results.header.firstIndex(of: "result_digest")!] == digest, "kill \(i): \(key)")
                #expect(["reference", "same"].contains(got[key]?[RunFiles.results.header.firstIndex(of: "reference_check")!] ?? ""))
            }
            #expect(try Self.state(out).state == .complete)
            #expect(try Self.csv(out + "/samples.csv").count == 1 + 12 * 2, "kill \(i): every repetition once")
            #expect(Self.stores(tmp).isEmpty, "kill \(i): the killed run's stores were not removed by the next run")
        }
        #expect(resumedFromPartial >= 5, "too few kills landed inside the run to test resuming")
    }

    @Test("SIGTERM and SIGINT stop the run: stores removed, run.json interrupted, exit 143 and 130; it resumes")
    func stopSignals() throws {
        let (dir, tmp) = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (sig, status) in [(SIGTERM, Int32(143)), (SIGINT, Int32(130))] {
            let out = dir + "/out-\(sig)"
            let p = try Self.start(["run", TestSupport.tinyScenario, "--out", out, "--size", "8000", "--reps", "3", "--quiet"], tmp: tmp)
            let deadline = Date().addingTimeInterval(120)
            while (try? Self.state(out).done.count) ?? 0 < 1 && p.isRunning && Date() < deadline { usleep(10_000) }
            #expect(!Self.stores(tmp).isEmpty, "the run keeps its stores in TMPDIR")
            kill(p.processIdentifier, sig)
            p.waitUntilExit()
            #expect(p.terminationReason == .exit && p.terminationStatus == status)
            #expect(Self.stores(tmp).isEmpty, "signal \(sig) left stores behind: \(Self.stores(tmp))")
            let state = try Self.state(out)
            #expect(state.state == .interrupted)
            #expect(state.done.count >= 1 && state.done.count < 12)
            try Self.checkWhole(out, planned: Set(state.cases), "signal \(sig)")
            let r = try Self.runCLI(["run", "--resume", out, "--quiet"], tmp: tmp)
            #expect(r.status == 0, "\(r.err)")
            #expect(r.err.contains("resuming \(out): \(state.done.count) of 12 cases are done"))
            #expect(try Self.csv(out + "/results.csv").count == 13)
        }
    }

    /// A scenario whose variant B has a unique index on a field with repeated values: its insert and its fill fail.
    static func failingScenario(_ dir: String) throws -> String {
        var s = TestSupport.minimalScenario()
        s["variants"] = [
            ["name": "A", "entities": [["name": "Item", "attributes": [["name": "rank", "type": "integer32"]]]]],
            ["name": "B", "extends": "A", "addIndexes": [["name": "byRank", "entity": "Item", "elements": ["rank"], "unique": true]]],
            ["name": "C", "extends": "A"],
        ]
        s["workloads"] = [["name": "insert", "kind": "insert"], ["name": "f", "kind": "fetch", "sort": ["rank"]]]
        s["measurement"] = ["warmup": 0, "repetitions": 1]
        let file = dir + "/failing.json"
        try Data(TestSupport.json(s).utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    @Test("Merged shards keep each failure's message and SQL as the shard wrote them (no second 'SQLite error' prefix)")
    func mergedFailures() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = try Self.failingScenario(dir)
        for shard in 1...2 {
            let r = try Self.runCLI(["run", file, "--out", dir + "/s\(shard)", "--shard", "\(shard)/2", "--quiet"], tmp: dir)
            #expect(r.status == 1, "each shard has one of B's failing cases: \(r.err)")
        }
        let merged = try Self.runCLI(["merge", dir + "/s1", dir + "/s2", "--out", dir + "/m"], tmp: dir)
        #expect(merged.status == 0, "\(merged.err)")
        let shardFailures = try (1...2).flatMap { try Self.csv(dir + "/s\($0)/failures.csv").dropFirst() }
        let mergedFailures = try Self.csv(dir + "/m/failures.csv").dropFirst()
        #expect(mergedFailures.count == 2)
        #expect(Set(mergedFailures.map { $0.joined(separator: "|") }) == Set(shardFailures.map { $0.joined(separator: "|") }))
        for failure in mergedFailures {
            #expect(failure[4].hasPrefix("SQLite error 2067: UNIQUE constraint failed: ZITEM.ZRANK"), "\(failure[4])")
            #expect(failure[4].components(separatedBy: "SQLite error").count == 2, "one prefix: \(failure[4])")
            #expect(failure[5].hasPrefix("INSERT INTO ZITEM"), "the SQL is kept in its own column")
        }
    }

    @Test("A case that fails fails alone, with SQLite's message and the SQL; --fail-fast stops at it; exit 1")
    func failingCase() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = try Self.failingScenario(dir)
        let r = try Self.runCLI(["run", file, "--out", dir + "/out", "--quiet"], tmp: dir)
        #expect(r.status == 1)
        #expect(
            r.err.contains("case B insert n=10 failed: SQLite error 2067: UNIQUE constraint failed: ZITEM.ZRANK (Item object "), "\(r.err)")
        #expect(r.err.contains(" of 10 inserted) - while executing `INSERT INTO ZITEM"), "\(r.err)")
        #expect(r.err.contains("2 case(s) failed"))
        let results = try Self.csv(dir + "/out/results.csv").dropFirst().map { "\($0[1]) \($0[2])" }
        // A workload's variants are measured together (interleaved), so the cases come workload by workload.
        #expect(results == ["A insert", "C insert", "A f", "C f"])
        let failures = try Self.csv(dir + "/out/failures.csv")
        // B's fetch fails first (its filled store cannot be made), before the cases are measured together.
        #expect(failures.dropFirst().map { "\($0[1]) \($0[2])" } == ["B f", "B insert"])
        #expect(
            failures.dropFirst().allSatisfy {
                $0[4].contains("UNIQUE constraint failed: ZITEM.ZRANK") && $0[5].hasPrefix("INSERT INTO ZITEM")
            })
        #expect(try Self.state(dir + "/out").state == .complete)

        let ff = try Self.runCLI(["run", file, "--out", dir + "/ff", "--quiet", "--fail-fast"], tmp: dir)
        #expect(ff.status == 1)
        #expect(ff.err.contains("stopped at the first failed case (--fail-fast): B f n=10"), "\(ff.err)")
        let state = try Self.state(dir + "/ff")
        #expect(state.state == .failed)
        #expect(state.done.isEmpty, "B's insert failed while its group (A, B, C insert) was being measured")
        // Resuming tries the failed case again, and runs the rest.
        let again = try Self.runCLI(["run", "--resume", dir + "/ff", "--quiet"], tmp: dir)
        #expect(again.status == 1)
        #expect(try Self.state(dir + "/ff").done.count == 4)
        #expect(try Self.state(dir + "/ff").failed.map(\.workload) == ["f", "insert"])
    }

    @Test("Resume refuses a changed scenario, other settings, a complete run, and a directory that is not a run")
    func resumeRefusals() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = try Self.failingScenario(dir)
        #expect(try Self.runCLI(["run", file, "--out", dir + "/ff", "--quiet", "--fail-fast"], tmp: dir).status == 1)
        let withSize = try Self.runCLI(["run", "--resume", dir + "/ff", "--size", "5"], tmp: dir)
        #expect(withSize.status == 2 && withSize.err.contains("leave out --size"))
        try (try String(contentsOfFile: file, encoding: .utf8) + " ").write(toFile: file, atomically: true, encoding: .utf8)
        let changed = try Self.runCLI(["run", "--resume", dir + "/ff"], tmp: dir)
        #expect(changed.status == 2)
        #expect(changed.err.contains("cannot resume \(dir)/ff: \(file) has changed since the run started"), "\(changed.err)")
        #expect(try Self.state(dir + "/ff").state == .failed, "a refused resume changes nothing")

        #expect(
            try Self.runCLI(["run", TestSupport.tinyScenario, "--out", dir + "/done", "--quiet", "--workloads", "insert"], tmp: dir).status
                == 0)
        let complete = try Self.runCLI(["run", "--resume", dir + "/done"], tmp: dir)
        #expect(complete.status == 2 && complete.err.contains("is complete: there is nothing to resume"))
        let notRun = try Self.runCLI(["run", "--resume", dir + "/tmp-nothing"], tmp: dir)
        #expect(notRun.status == 2 && notRun.err.contains("cannot resume \(dir)/tmp-nothing: it does not exist"))
    }

    @Test("An --out that is a file or in a read-only directory exits 1 naming the path, and creates nothing")
    func unwritableOutput() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer {
            chmod(dir + "/ro", 0o755)
            try? FileManager.default.removeItem(atPath: dir)
        }
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/file"))
        let file = try Self.runCLI(["run", TestSupport.tinyScenario, "--out", dir + "/file"], tmp: dir)
        #expect(file.status == 1)
        #expect(file.err.contains("\(dir)/file exists and is a file, not a directory"), "\(file.err)")

        try FileManager.default.createDirectory(atPath: dir + "/ro", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/tmp", withIntermediateDirectories: true)
        chmod(dir + "/tmp", 0o1777)
        chmod(dir + "/ro", 0o555)
        // root may write anywhere: run the CLI as nobody, for whom 0555 means read-only.
        var command = [TestSupport.executable, "run", TestSupport.tinyScenario, "--out", dir + "/ro/out"]
        if geteuid() == 0 { command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: command[0])
        p.arguments = Array(command.dropFirst())
        p.environment = ["TMPDIR": dir + "/tmp", "PATH": "/usr/bin:/bin"]
        p.currentDirectoryURL = URL(fileURLWithPath: "/")
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 1, "\(text)")
        #expect(text.contains("cannot write in \(dir)/ro: Permission denied"), "\(text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/ro").isEmpty)
        #expect(Self.stores(dir + "/tmp").isEmpty)
    }

    @Test("A data set that would not fit is refused before anything runs, with the estimate")
    func fitCheck() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try Self.runCLI(["run", TestSupport.tinyScenario, "--out", dir + "/out", "--size", "900000000000"], tmp: dir)
        #expect(r.status == 1)
        #expect(r.err.contains("the data set does not fit:"), "\(r.err)")
        #expect(r.err.contains("measured on a 200-row sample"))
        #expect(r.err.contains("--skip-fit-check"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
        #expect(Self.stores(dir).isEmpty)
    }

    @Test("--replace keeps one previous run and deletes an older one; a directory that is not a run is never replaced")
    func replaceKeepsOnePrevious() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/res"
        let args = ["run", TestSupport.tinyScenario, "--out", out, "--workloads", "insert", "--quiet", "--replace"]
        for _ in 0..<3 { #expect(try Self.runCLI(args, tmp: dir).status == 0) }
        #expect(FileManager.default.fileExists(atPath: out + ".previous/run.json"))
        #expect(!FileManager.default.fileExists(atPath: out + ".previous.previous"))
        try FileManager.default.createDirectory(atPath: dir + "/mine", withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: dir + "/mine/notes.txt"))
        let r = try Self.runCLI(["run", TestSupport.tinyScenario, "--out", dir + "/mine", "--replace"], tmp: dir)
        #expect(r.status == 2)
        #expect(r.err.contains("is not a SchemaLab run directory"))
        #expect(FileManager.default.fileExists(atPath: dir + "/mine/notes.txt"))
    }
}

/// Statements that never end: a repetition past its statement timeout is interrupted and fails
/// its case, naming the statement, while the run goes on; SIGINT interrupts a running statement.
@Suite("Statements that never end")
struct StatementTimeoutTests {
    /// 200 rows of 30 a's and a MATCHES that backtracks: tens of milliseconds a row, far past a 2 s timeout.
    static func scenario(in dir: String, timeout: Double) throws -> String {
        let s: [String: Any] = [
            "format": 1, "name": "catastrophic",
            "variants": [
                [
                    "name": "plain",
                    "entities": [
                        ["name": "Item", "attributes": [["name": "name", "type": "string"], ["name": "rank", "type": "integer32"]]]
                    ],
                ]
            ],
            "dataset": [
                "seed": 1, "entity": "Item", "counts": [200],
                "fields": [
                    ["field": "name", "generator": ["kind": "constant", "value": String(repeating: "a", count: 30)]],
                    ["field": "rank", "generator": ["kind": "uniformInt", "min": 0, "max": 9]],
                ],
            ],
            "workloads": [
                [
                    "name": "backtracking", "kind": "fetch", "predicate": "name MATCHES %@", "arguments": ["(a|aa)+b"],
                    "resultType": "objectIDs",
                ],
                ["name": "quick", "kind": "fetch", "predicate": "rank == 3", "resultType": "objectIDs"],
            ],
            "measurement": ["warmup": 1, "repetitions": 2, "maxSeconds": 1, "timeout": timeout],
        ]
        let file = dir + "/catastrophic.json"
        try Data(TestSupport.json(s).utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    @Test("A statement past the timeout is interrupted: its case fails naming the statement, the other case runs")
    func timeout() throws {
        let (dir, tmp) = try RunDurabilityTests.scratch()
        let out = dir + "/run"
        let r = try RunDurabilityTests.runCLI(["run", try Self.scenario(in: dir, timeout: 1), "--out", out, "--quiet"], tmp: tmp)
        #expect(r.status == 1, "\(r.err)")
        let failures = try RunDurabilityTests.csv(out + "/failures.csv")
        #expect(failures.count == 2, "\(failures)")
        let row = failures.last ?? []
        #expect(row.count == 6 && row[2] == "backtracking")
        #expect(row.count == 6 && row[4].contains("interrupted: it ran past the statement timeout of 1.000 s a run"), "\(row)")
        #expect(row.count == 6 && row[5].contains("NSCoreDataMatches(t0.ZNAME, ?, 0)"), "\(row)")
        let results = try RunDurabilityTests.csv(out + "/results.csv")
        #expect(results.dropFirst().contains { $0[2] == "quick" }, "the other case ran")
    }

    @Test("SIGINT interrupts a running statement: exit 130 at once, run.json interrupted")
    func sigint() throws {
        let (dir, tmp) = try RunDurabilityTests.scratch()
        let out = dir + "/run"
        let p = try RunDurabilityTests.start(["run", try Self.scenario(in: dir, timeout: 600), "--out", out, "--quiet"], tmp: tmp)
        // Let it reach the backtracking statement (the data set and the fill take well under a second).
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: out + "/run.json") && p.isRunning && Date() < deadline { usleep(10_000) }
        usleep(1_500_000)
        let sent = Date()
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 130)
        #expect(Date().timeIntervalSince(sent) < 10, "it did not wait for the statement")
        #expect(try RunDurabilityTests.state(out).state == .interrupted)
    }
}
