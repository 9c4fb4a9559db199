import Foundation
import Synchronization

/// Every temporary directory the tests made, removed when the test process exits: a
/// safety net for helpers whose store outlives the function that made it (tests also
/// remove their own directories as they finish).
private let createdDirectories = Mutex<[String]>([])

private func removeCreatedDirectories() {
    for path in createdDirectories.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    try? FileManager.default.removeItem(atPath: TestSupport.processDirectory)
}

/// Removes what test processes that died (a crash, a kill: no exit handler ran) left in the
/// temporary folder: their `schemalab-tests-<pid>` folders whose process is gone, and the
/// `schemalab-test-<UUID>` folders earlier versions made directly there.
private func removeStaleTestDirectories(in base: String) {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] {
        if name.hasPrefix("schemalab-test-") {
            try? FileManager.default.removeItem(atPath: base + "/" + name)
        } else if name.hasPrefix("schemalab-tests-"), let pid = Int32(name.dropFirst("schemalab-tests-".count)), pid != getpid(),
            kill(pid, 0) != 0 && errno == ESRCH
        {
            try? FileManager.default.removeItem(atPath: base + "/" + name)
        }
    }
}

/// Paths and helpers shared by the tests of every layer (Foundation only: no lab target, so
/// that any test target can use it). Each test gets its own temporary directory.
package enum TestSupport {
    /// The package root (two levels above this file's folder).
    package static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The photo matrix, the shipped scenario most tests build their models from.
    package static let photosScenario = packageRoot + "/scenarios/photos-matrix.json"
    /// Small scenarios of the shared fixtures (Tests/Fixtures): `tiny` runs in a second,
    /// `library` is Author -< Book >-< Tag.
    package static let tinyScenario = packageRoot + "/Tests/Fixtures/tiny.json"
    package static let libraryScenario = packageRoot + "/Tests/Fixtures/library.json"

    /// This test process's folder for temporary directories, `$TMPDIR/schemalab-tests-<pid>`:
    /// removed when the process exits, and by the next test process if this one dies first.
    package static let processDirectory = FileManager.default.temporaryDirectory.path + "/schemalab-tests-\(getpid())"

    /// The sanitizer the tests run under (`make test-sanitize` sets SCHEMALAB_SANITIZER), or nil:
    /// tests of instruction counts, memory bounds and time budgets do not apply under one.
    package static let sanitizer = ProcessInfo.processInfo.environment["SCHEMALAB_SANITIZER"]

    /// A new empty temporary directory, unique to the caller.
    package static func temporaryDirectory() throws -> String {
        let path = processDirectory + "/" + UUID().uuidString
        createdDirectories.withLock { list in
            if list.isEmpty {
                removeStaleTestDirectories(in: FileManager.default.temporaryDirectory.path)
                atexit { removeCreatedDirectories() }
            }
            list.append(path)
        }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs any program to its end; returns exit status, standard output and standard error.
    package static func runProcess(
        _ program: String, _ arguments: [String], in directory: String? = nil,
        environment: [String: String] = [:]
    ) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = arguments
        if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if !environment.isEmpty {
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    /// A minimal valid scenario as a JSON object, for tests that break one part of it.
    package static func minimalScenario() -> [String: Any] {
        [
            "format": 1, "name": "m",
            "variants": [["name": "A", "entities": [["name": "Item", "attributes": [["name": "rank", "type": "integer32"]]]]]],
            "dataset": [
                "seed": 1, "entity": "Item", "counts": [10],
                "fields": [["field": "rank", "generator": ["kind": "uniformInt", "min": 0, "max": 9]]],
            ],
            "workloads": [["name": "f", "kind": "fetch", "sort": ["rank"]]],
        ]
    }

    /// `object` as JSON text with sorted keys (a scenario built as a dictionary, say).
    package static func json(_ object: Any) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}
