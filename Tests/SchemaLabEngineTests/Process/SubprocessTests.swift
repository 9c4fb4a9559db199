import Foundation
import Testing
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// The one way the lab runs a program: output captured from both pipes at once, input written
/// beside them, the environment exactly as given, and a missing program told apart from one
/// that fails.
@Suite("Subprocess: run a program, capture its output")
struct SubprocessTests {
    @Test("A child that writes far more than a pipe holds to both streams, in turns, does not stall")
    func bothPipesFull() throws {
        // 300,000 bytes to standard output, then 300,000 to standard error (blocking on a full
        // pipe unless it is read), then 300,000 more to standard output.
        let script = """
            head -c 300000 /dev/zero | tr '\\0' o; head -c 300000 /dev/zero | tr '\\0' e >&2; head -c 300000 /dev/zero | tr '\\0' o
            """
        let result = try Subprocess("sh", ["-c", script]).run()
        #expect(result.succeeded)
        #expect(result.standardOutput.utf8.count == 600_000 && result.standardOutput.allSatisfy { $0 == "o" })
        #expect(result.standardError.utf8.count == 300_000 && result.standardError.allSatisfy { $0 == "e" })
    }

    @Test("Input larger than a pipe is written while the output is read")
    func largeInput() throws {
        let input = String(repeating: "line of input\n", count: 100_000)
        let result = try Subprocess("cat", input: input).run()
        #expect(result.succeeded && result.standardOutput == input)
    }

    @Test("A program that is not there is an error that names it; one that fails is a result with its status")
    func missingAndFailing() throws {
        #expect(throws: SubprocessError.notFound("schemalab-no-such-program")) { try Subprocess("schemalab-no-such-program").run() }
        #expect(throws: SubprocessError.notFound("/nonexistent/sqlite3")) { try Subprocess("/nonexistent/sqlite3").run() }
        #expect(SubprocessError.notFound("gnuplot").description == "no gnuplot on the PATH")
        let failed = try Subprocess("sh", ["-c", "echo partial; echo 'it went wrong' >&2; exit 3"]).run()
        #expect(failed.status == 3 && !failed.endedBySignal && !failed.succeeded)
        #expect(failed.standardOutput == "partial\n" && failed.standardError == "it went wrong\n")
        let killed = try Subprocess("sh", ["-c", "kill -9 $$"]).run()
        #expect(killed.endedBySignal && killed.status == 9 && !killed.succeeded)
    }

    @Test("The environment and working directory are exactly those given; a discarded stream is not captured")
    func exactEnvironment() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let env = try Subprocess("/usr/bin/env", environment: ["SCHEMALAB_ONE": "1", "LC_ALL": "C"]).run()
        #expect(Set(env.standardOutput.split(separator: "\n")) == ["SCHEMALAB_ONE=1", "LC_ALL=C"])
        let pwd = try Subprocess("/bin/pwd", workingDirectory: dir).run()
        #expect(pwd.standardOutput == URL(fileURLWithPath: dir).resolvingSymlinksInPath().path + "\n")
        let quiet = try Subprocess("sh", ["-c", "echo out; echo err >&2"], standardOutput: .discard).run()
        #expect(quiet.standardOutput.isEmpty && quiet.standardError == "err\n")
    }

    @Test("An executable is found on a PATH, first directory first; a path is itself")
    func executablePath() {
        #expect(Subprocess.executablePath(named: "sh", searchPath: "/nonexistent:/bin:/usr/bin") == "/bin/sh")
        #expect(Subprocess.executablePath(named: "schemalab-no-such-program", searchPath: "/bin:/usr/bin") == nil)
        #expect(Subprocess.executablePath(named: "/bin/sh") == "/bin/sh")
        #expect(Subprocess.executablePath(named: "/nonexistent/sh") == nil)
    }
}
