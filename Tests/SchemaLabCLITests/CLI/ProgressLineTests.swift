import Foundation
import Testing
@testable import SchemaLab
import SchemaLabTestSupport

/// A run's progress: on a terminal one line rewritten in place; without one, a line per
/// finished case and a progress line every `--progress-every` seconds, no control characters;
/// `--quiet` neither.
@Suite("Progress on a terminal, in a log, and quiet")
struct ProgressLineTests {
    @Test("A pseudo-terminal gets the rewritten line; a pipe gets case lines only; --quiet gets the summary only")
    func progress() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let binary = TestSupport.executable
        let args = "run \(TestSupport.tinyScenario) --workloads insert,sections --size 2000"
        // `script` gives the run a pseudo-terminal (util-linux, in every Debian).
        let tty = try TestSupport.runProcess(
            "/usr/bin/script", ["-qec", "\(binary) \(args) --out \(dir)/tty", "/dev/null"], environment: ["TMPDIR": dir])
        #expect(tty.status == 0, "\(tty.out)\(tty.err)")
        #expect(tty.out.contains("\r\u{1B}[K[0/6 cases · 0%]"), "\(tty.out.prefix(300))")
        #expect(tty.out.contains("elapsed"))
        #expect(tty.out.contains("  flat insert n=2000: median "))

        let piped = try TestSupport.runCLI(
            args.split(separator: " ").map(String.init) + ["--out", dir + "/pipe"], environment: ["TMPDIR": dir])
        #expect(piped.status == 0)
        #expect(!piped.err.contains("\u{1B}[K") && !piped.err.contains("elapsed"))
        #expect(piped.err.contains("  flat insert n=2000: median "))

        let quiet = try TestSupport.runCLI(
            args.split(separator: " ").map(String.init) + ["--out", dir + "/quiet", "--quiet"], environment: ["TMPDIR": dir])
        #expect(quiet.status == 0)
        #expect(!quiet.err.contains("n=2000: median"), "\(quiet.err)")
        #expect(quiet.out.contains("median ms"), "the summary table is still printed")
    }

    @Test(
        "Without a terminal, a progress line comes at least every --progress-every seconds, even while no case finishes; --quiet prints none"
    )
    func progressLog() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let args = [
            "run", TestSupport.tinyScenario, "--workloads", "insert,sections", "--size", "2000", "--reps", "8", "--progress-every", "0.2",
        ]
        let piped = try TestSupport.runCLI(args + ["--out", dir + "/pipe"], environment: ["TMPDIR": dir])
        #expect(piped.status == 0, "\(piped.err)")
        let lines = piped.err.split(separator: "\n").filter { $0.hasPrefix("schemalab: progress: ") }
        #expect(lines.count >= 2, "\(piped.err)")
        #expect(lines.allSatisfy { $0.contains(" of 6 cases done, ") && $0.contains(" left, ") && $0.contains(" elapsed") }, "\(lines)")
        // The first lines come before any case's line: the repetitions of a size interleave.
        let firstCase = piped.err.range(of: "n=2000: median")?.lowerBound
        #expect(firstCase.map { piped.err.range(of: "schemalab: progress: ")!.lowerBound < $0 } ?? false)
        #expect(!piped.err.contains("\u{1B}["))
        let quiet = try TestSupport.runCLI(args + ["--out", dir + "/quiet", "--quiet"], environment: ["TMPDIR": dir])
        #expect(quiet.status == 0)
        #expect(!quiet.err.contains("progress:"), "\(quiet.err)")
        // A negative or not-a-number interval is refused before anything is written.
        for bad in ["-3", "nan"] {
            let refused = try TestSupport.runCLI(
                ["run", TestSupport.tinyScenario, "--out", dir + "/bad", "--progress-every=\(bad)"], environment: ["TMPDIR": dir])
            #expect(refused.status == 2 && refused.err.contains("--progress-every is 0 (never) or a number of seconds"), "\(refused.err)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/bad"))
        }
    }
}
