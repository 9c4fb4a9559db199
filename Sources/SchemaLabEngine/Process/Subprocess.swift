import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program the lab runs to its end and waits for: valgrind and objcopy (instruction
/// counts), gnuplot (charts), sqlite3 (index advice) and git (the environment's commit). The
/// one place the lab starts a process, so that each caller says only what to run.
///
/// The call is synchronous, as its callers are. Standard output and standard error are each
/// read on a thread of their own, so a child that fills one pipe while the lab waits on the
/// other cannot stall both. Standard input is a temporary file, not a pipe: a child that
/// exits before reading all of it cannot make a write fail with SIGPIPE, so this library
/// never changes the process's signal handling (a front end's to decide). The child's arguments,
/// environment and working directory are exactly those given: nothing is added (a counted
/// case's instructions depend on them).
///
/// swift-subprocess (swiftlang, 1.0.2) does the same with an `async` API that needs Swift 6.2
/// tools and brings swift-system; the callers here are synchronous, and waiting on an `async`
/// call from them would block a thread of the cooperative pool, so this small type over
/// Foundation's `Process` is used instead.
package struct Subprocess: Sendable {
    /// Where one of the child's output streams goes.
    package enum Output: Sendable {
        /// Read into the `SubprocessResult`.
        case capture
        /// Thrown away (`/dev/null`).
        case discard
        /// This process's own stream.
        case inherit
    }

    /// The program: a path (with a `/`), or a name looked up on this process's `PATH`.
    package var executable: String
    package var arguments: [String]
    /// The child's working directory; nil for this process's.
    package var workingDirectory: String?
    /// The child's whole environment; nil for this process's.
    package var environment: [String: String]?
    /// Written to the child's standard input, which is then closed; nil leaves the child this
    /// process's standard input.
    package var input: String?
    package var standardOutput: Output
    package var standardError: Output

    /// A child to run: `executable` with `arguments`, both output streams captured.
    package init(
        _ executable: String, _ arguments: [String] = [], workingDirectory: String? = nil, environment: [String: String]? = nil,
        input: String? = nil, standardOutput: Output = .capture, standardError: Output = .capture
    ) {
        self.executable = executable
        self.arguments = arguments
        self.workingDirectory = workingDirectory
        self.environment = environment
        self.input = input
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// The path of the executable named `name` in `searchPath` (a `PATH`: directories separated
    /// by `:`; this process's `PATH` when nil), or nil when there is none. A name with a `/` is
    /// a path already: itself when it is executable.
    package static func executablePath(named name: String, searchPath: String? = nil) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs the child to its end. Throws when there is no such executable or it cannot be
    /// started; a child that runs and fails is a result with its status, not an error.
    package func run() throws(SubprocessError) -> SubprocessResult {
        guard let path = Self.executablePath(named: executable) else { throw .notFound(executable) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        if let environment { process.environment = environment }
        let inputFile: (handle: FileHandle, path: String)?
        do { inputFile = try input.map(Self.inputFile) } catch { throw .cannotStart(path, "cannot write its input: \(error)") }
        defer {
            try? inputFile?.handle.close()
            if let path = inputFile?.path { unlink(path) }
        }
        if let inputFile { process.standardInput = inputFile.handle }
        let outputPipe = Self.attach(standardOutput) { process.standardOutput = $0 }
        let errorPipe = Self.attach(standardError) { process.standardError = $0 }
        do { try process.run() } catch { throw .cannotStart(path, String(describing: error)) }

        let readers = DispatchGroup()
        let output = PipeReader(outputPipe, group: readers), errors = PipeReader(errorPipe, group: readers)
        readers.wait()
        process.waitUntilExit()
        return SubprocessResult(
            status: process.terminationStatus, endedBySignal: process.terminationReason == .uncaughtSignal,
            standardOutput: output.text, standardError: errors.text)
    }

    /// `text` in a new temporary file (unlinked after the run), open for reading from its start.
    private static func inputFile(_ text: String) throws -> (handle: FileHandle, path: String) {
        let path = FileManager.default.temporaryDirectory.path + "/schemalab-input-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)), let handle = FileHandle(forReadingAtPath: path)
        else {
            throw SubprocessError.cannotStart(path, "cannot create \(path)")
        }
        return (handle, path)
    }

    /// Sets where a stream goes; the pipe to read when it is captured.
    private static func attach(_ output: Output, _ set: (Any) -> Void) -> Pipe? {
        switch output {
        case .capture:
            let pipe = Pipe()
            set(pipe)
            return pipe
        case .discard:
            set(FileHandle.nullDevice)
            return nil
        case .inherit:
            return nil
        }
    }
}

/// Reads one pipe to its end on a thread of its own. `text` may be read once the group the
/// reader entered has been waited for (the wait orders the write before the read).
private final class PipeReader: @unchecked Sendable {
    private var data = Data()

    init(_ pipe: Pipe?, group: DispatchGroup) {
        guard let handle = pipe?.fileHandleForReading else { return }
        DispatchQueue.global().async(group: group) {
            self.data = (try? handle.readToEnd()) ?? Data()
        }
    }

    var text: String { String(decoding: data, as: UTF8.self) }
}
