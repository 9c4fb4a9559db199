import Foundation
import Synchronization
import Testing
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// The seeded fuzz pass: every shipped scenario (except `scenarios/schema.json`), mutated a
/// few ways at once, must end in a clear error (file and JSON path named) or a valid plan
/// whose stores build, fill and answer every workload: never a crash, a hang or a SQL error.
///
/// `SCHEMALAB_FUZZ_SEED` (decimal or 0x-hex) and `SCHEMALAB_FUZZ_COUNT` override the seed and
/// the number of documents; `SCHEMALAB_FUZZ_TRACE=1` prints each document before it runs
/// (to name the one that crashes the process).
@Suite("Fuzz: mutated scenarios end in a clear error or a valid plan")
struct ScenarioFuzzTests {
    static let defaultSeed: UInt64 = 0x5CE7_A210_F022_0001
    static let defaultCount = 2_000
    /// Threads running documents in process (the CLI runs beside them).
    static let workers = 2

    static var seed: UInt64 {
        guard let s = ProcessInfo.processInfo.environment["SCHEMALAB_FUZZ_SEED"] else { return defaultSeed }
        return s.hasPrefix("0x") ? UInt64(s.dropFirst(2), radix: 16) ?? defaultSeed : UInt64(s) ?? defaultSeed
    }

    static var count: Int {
        ProcessInfo.processInfo.environment["SCHEMALAB_FUZZ_COUNT"].flatMap { Int($0) } ?? defaultCount
    }

    /// One document, written to a file.
    struct Document: Sendable {
        let index: Int
        let file: String
        let source: String
        let mutations: [String]

        func describe(seed: UInt64) -> String {
            "document #\(index) of seed 0x\(String(seed, radix: 16)) (from \(source)): "
                + (mutations.isEmpty ? "unmutated" : mutations.joined(separator: "; "))
        }
    }

    /// The shipped scenarios, parsed.
    static func sources() throws -> [(name: String, doc: FuzzJSON)] {
        let dir = TestSupport.packageRoot + "/scenarios"
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
            .filter { $0.hasSuffix(".json") && $0 != "schema.json" }.sorted()
        return try names.map { name in
            let text = try String(contentsOfFile: dir + "/" + name, encoding: .utf8)
            return (name, FuzzJSON(try JSONParser.parse(text)))
        }
    }

    /// The corpus: each source once unmutated, then `count` mutated documents, each from its own
    /// stream (seed and index), so one document reproduces without the others.
    static func corpus(seed: UInt64, count: Int, in dir: String) throws -> [Document] {
        let sources = try sources()
        #expect(sources.count >= 6, "the shipped scenarios")
        let total = sources.count + count
        let made = Mutex<[Document?]>(Array(repeating: nil, count: total))
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            for i in stride(from: w, to: total, by: workers) {
                let (name, doc) = sources[i % sources.count]
                var bytes = Array(doc.text.utf8)
                var log: [String] = []
                if i >= sources.count {
                    var m = ScenarioMutator(seed: FieldGenerator.streamSeed(seed, key: "fuzz:\(i)"))
                    bytes = m.mutate(doc)
                    log = m.log
                }
                let file = dir + "/doc-\(String(i).leftPadded(to: 5))-\(name)"
                FileManager.default.createFile(atPath: file, contents: Data(bytes))
                made.withLock { $0[i] = Document(index: i, file: file, source: name, mutations: log) }
            }
        }
        return made.withLock { $0.compactMap { $0 } }
    }

    /// Keeps a failing document where it outlives the test run; returns its path.
    static func keep(_ d: Document) -> String {
        let dir = FileManager.default.temporaryDirectory.path + "/schemalab-fuzz-failures"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/" + URL(fileURLWithPath: d.file).lastPathComponent
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.copyItem(atPath: d.file, toPath: path)
        return path
    }

    /// Scratch space for the stores: memory-backed when the system has it (no fsync cost).
    static func scratchRoot() throws -> String {
        let shm = "/dev/shm"
        guard FileManager.default.isWritableFile(atPath: shm) else { return try TestSupport.temporaryDirectory() }
        let path = shm + "/schemalab-fuzz-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test(
        "At least 2,000 mutated documents, in process and through schemalab validate, in under a minute",
        .disabled(if: TestSupport.sanitizer != nil, "a sanitized build is several times slower than this test's one-minute budget"))
    func fuzzPass() throws {
        let seed = Self.seed, count = Self.count
        let start = Date()
        let dir = try Self.scratchRoot()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let docsDir = dir + "/docs"
        try FileManager.default.createDirectory(atPath: docsDir, withIntermediateDirectories: true)
        let docs = try Self.corpus(seed: seed, count: count, in: docsDir)
        let generated = Date()

        // The CLI over the files, beside the in-process pass.
        let cliRuns = Mutex<[(chunk: [Document], result: Result<TimedProcess.Result, any Error>)]>([])
        let cliDone = Mutex(false)
        let cliMerged = Mutex<(chunk: [Document], result: Result<TimedProcess.Result, any Error>)?>(nil)
        let cliThread = Thread {
            for chunkStart in stride(from: 0, to: docs.count, by: 500) {
                let chunk = Array(docs[chunkStart..<min(chunkStart + 500, docs.count)])
                let r = Result { try TimedProcess.run(TestSupport.executable, ["validate"] + chunk.map(\.file), in: dir, limit: 60) }
                cliRuns.withLock { $0.append((chunk, r)) }
            }
            // Both streams into one file, as `2>&1` does: every line must still be whole.
            let first = Array(docs.prefix(500))
            let r = Result {
                try TimedProcess.run(TestSupport.executable, ["validate"] + first.map(\.file), in: dir, limit: 60, merged: true)
            }
            cliMerged.withLock { $0 = (first, r) }
            cliDone.withLock { $0 = true }
        }
        cliThread.start()
        let inProcess = try runInProcess(docs, seed: seed, scratch: dir)
        let inProcessDone = Date()
        while !cliDone.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.05) }
        checkCLI(cliRuns.withLock { $0 }, seed: seed, planErrors: inProcess.planErrors)
        if let (chunk, result) = cliMerged.withLock({ $0 }) {
            let out = (try? result.get())?.out ?? ""
            let broken = out.split(separator: "\n").filter { line in !chunk.contains { line.hasPrefix($0.file + ": ") } }
            #expect(
                broken.isEmpty,
                "validate with 2>&1: \(broken.count) lines name no file, such as \(broken.first.map { String($0.prefix(200)) } ?? "")")
            // One line per file, and a line per warning (unused arguments a mutation added, say).
            let verdicts = out.split(separator: "\n").filter { !$0.contains(": warning: ") }
            #expect(verdicts.count == chunk.count, "validate with 2>&1: one line per file, besides warnings")
        }
        let end = Date()

        let seconds = end.timeIntervalSince(start)
        func s(_ t: TimeInterval) -> String { String(format: "%.1f s", t) }
        print(
            """
            fuzz: seed 0x\(String(seed, radix: 16)), \(docs.count) documents (\(count) mutated): \
            \(inProcess.refused) clear errors, \(inProcess.valid) valid plans (\(inProcess.ran) run on data, \
            \(inProcess.valid - inProcess.ran) over the data budget), \(inProcess.failures) failures; \
            generate \(s(generated.timeIntervalSince(start))), in process \(s(inProcessDone.timeIntervalSince(generated))), \
            CLI beside it, done after \(s(end.timeIntervalSince(generated))); total \(s(seconds))
            """)
        #expect(count < 2_000 || seconds < 60, "the fuzz pass took \(seconds) s; the budget is 60 s")
        #expect(inProcess.refused + inProcess.valid + inProcess.failures == docs.count)
        // A pass where nothing gets through to a store tests nothing past the decoder.
        #expect(inProcess.ran >= docs.count / 50, "only \(inProcess.ran) documents ran on data")
        #expect(inProcess.refused >= docs.count / 2, "only \(inProcess.refused) documents were refused")
    }

    struct InProcessTally {
        var refused = 0, valid = 0, ran = 0, failures = 0
        /// The documents refused while decoding or resolving the plan (what `validate` refuses).
        var planErrors = Set<Int>()
    }

    /// Runs the documents on ``workers`` threads with the main thread's stack size, watched:
    /// a document that takes more than 20 s is a hang.
    func runInProcess(_ docs: [Document], seed: UInt64, scratch: String) throws -> InProcessTally {
        struct State {
            var next = 0
            var tally = InProcessTally()
            var failures: [String] = []
            var running: [(index: Int, since: Date)?] = Array(repeating: nil, count: ScenarioFuzzTests.workers)
            var finished = 0
        }
        let state = Mutex(State())
        let trace = ProcessInfo.processInfo.environment["SCHEMALAB_FUZZ_TRACE"] == "1"
        for w in 0..<Self.workers {
            let work = scratch + "/work\(w)"
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            let thread = Thread {
                while true {
                    let i = state.withLock { s -> Int in
                        let i = s.next
                        s.next += 1
                        if i < docs.count { s.running[w] = (i, Date()) }
                        return i
                    }
                    guard i < docs.count else { break }
                    let d = docs[i]
                    if trace { FileHandle.standardError.write(Data("fuzz: \(d.describe(seed: seed))\n".utf8)) }
                    let outcome = FuzzHarness.run(file: d.file, workDirectory: work)
                    state.withLock { s in
                        switch outcome {
                        case .refused(_, let planning):
                            s.tally.refused += 1
                            if planning { s.tally.planErrors.insert(d.index) }
                        case .valid(let ran):
                            s.tally.valid += 1
                            if ran { s.tally.ran += 1 }
                        case .failure(let why):
                            s.tally.failures += 1
                            s.failures.append("\(why)\n  \(d.describe(seed: seed))\n  kept at \(Self.keep(d))")
                        }
                        s.running[w] = nil
                    }
                }
                state.withLock { $0.finished += 1 }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        while true {
            Thread.sleep(forTimeInterval: 0.05)
            let (finished, running) = state.withLock { ($0.finished, $0.running) }
            if finished == Self.workers { break }
            if let stuck = running.compactMap({ $0 }).first(where: { Date().timeIntervalSince($0.since) > 20 }) {
                let d = docs[stuck.index]
                Issue.record("hang: no result after 20 s for \(d.describe(seed: seed)); kept at \(Self.keep(d))")
                return state.withLock { $0.tally }
            }
        }
        let all = state.withLock { $0.failures }
        for f in all.prefix(25) { Issue.record(Comment(rawValue: f)) }
        if all.count > 25 { Issue.record("... and \(all.count - 25) more failures") }
        return state.withLock { $0.tally }
    }

    /// `schemalab validate` over the documents, 500 files an invocation, each killed after 60 s:
    /// exit 0 or 2, one line per file starting with its path, `file: $...: message` for a refused one.
    func checkCLI(_ runs: [(chunk: [Document], result: Result<TimedProcess.Result, any Error>)], seed: UInt64, planErrors: Set<Int>) {
        var problems: [String] = []
        for (chunk, result) in runs {
            let range = "documents #\(chunk.first!.index)...#\(chunk.last!.index)"
            let r: TimedProcess.Result
            switch result {
            case .success(let x): r = x
            case .failure(let e): problems.append("validate did not start over \(range): \(e)"); continue
            }
            if r.timedOut { problems.append("validate hung over \(range): killed after 60 s"); continue }
            guard let status = r.status else { problems.append("validate died of signal \(r.signal ?? -1) over \(range)"); continue }
            let anyBad = chunk.contains { planErrors.contains($0.index) }
            if status != (anyBad ? 2 : 0) {
                problems.append("validate exited \(status) over \(range), expected \(anyBad ? 2 : 0): \(r.err.prefix(500))")
            }
            var lines: [String: [(line: String, isError: Bool)]] = [:]
            let all = r.out.split(separator: "\n").map { (String($0), false) } + r.err.split(separator: "\n").map { (String($0), true) }
            for (line, isError) in all {
                guard let d = chunk.first(where: { line.hasPrefix($0.file + ": ") }) else {
                    problems.append("a validate line names no file of \(range): \(line.prefix(300).debugDescription)")
                    continue
                }
                lines[d.file, default: []].append((line, isError))
            }
            for d in chunk {
                // Warnings (FILE: PATH: warning: ...) come beside a file's verdict line.
                let mine = (lines[d.file] ?? []).filter { !$0.line.hasPrefix(d.file + ": $") || !$0.line.contains(": warning: ") }
                guard mine.count == 1 else {
                    problems.append(
                        "\(mine.count) lines for \(d.describe(seed: seed)): \(mine.map(\.line).joined(separator: " | ").prefix(500))")
                    continue
                }
                let (line, isError) = mine[0]
                if isError != planErrors.contains(d.index) {
                    problems.append(
                        "validate says \(isError ? "error" : "ok") but the plan was \(planErrors.contains(d.index) ? "refused" : "valid") in process: \(line.prefix(300)) (\(d.describe(seed: seed)))"
                    )
                } else if isError && !line.hasPrefix(d.file + ": $") {
                    problems.append("an error line without the JSON path: \(line.prefix(300)) (\(d.describe(seed: seed)))")
                }
            }
        }
        for p in problems.prefix(25) { Issue.record(Comment(rawValue: p)) }
        if problems.count > 25 { Issue.record("... and \(problems.count - 25) more CLI problems") }
    }
}
