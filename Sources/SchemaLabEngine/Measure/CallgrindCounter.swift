import Foundation
import SchemaLabSQLite

/// Counts the instructions of one case's timed region with valgrind's callgrind: the same
/// binary, data and case give the same count on a loaded machine, a measure a CI can gate on
/// tightly where wall time drifts by tens of percent.
///
/// The case runs in a child process, ``executable`` with ``arguments`` and the request's own
/// (``CountRequest/arguments``), which must run it with ``CountedRepetition`` (the CLI's
/// `schemalab count-case …` does), under
/// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=schemalab_timed_region`:
/// collection is on only inside the C function every timed region goes through
/// (`TimedRegion`), once, and off again inside its untimed spans (`UntimedSpans`:
/// `--toggle-collect=schemalab_untimed_span`). The child runs from a copy of the executable without its debug
/// information (`objcopy --strip-debug`; valgrind 3.19 cannot read the Swift toolchain's
/// DWARF), which keeps the symbols callgrind needs, and with `SWIFT_DETERMINISTIC_HASHING=1`
/// (hash tables otherwise seeded at random per process move the count by about 0.05%).
/// Under valgrind a case runs about 50x slower than natively.
public struct CallgrindCounter: InstructionCounting {
    /// The program that runs one ``CountRequest`` (`schemalab`, or a program of your own
    /// that calls ``CountedRepetition/main(arguments:)``).
    public var executable: String
    /// The arguments before the request's (`count-case` for the CLI).
    public var arguments: [String]

    /// A counter that runs `executable` (by default this process's own, which must then
    /// handle `count-case`) with `arguments` before each request's.
    public init(executable: String = CallgrindCounter.currentExecutable, arguments: [String] = ["count-case"]) {
        self.executable = executable
        self.arguments = arguments
    }

    public func unavailable() -> String? { Self.unavailable() }

    public func count(_ request: CountRequest) throws -> InstructionCount {
        try Self.count(arguments: arguments + request.arguments, workDirectory: request.workDirectory, executable: executable)
    }

    /// Why instructions cannot be counted here, or nil when they can.
    public static func unavailable() -> String? {
        if Subprocess.executablePath(named: "valgrind") == nil { return "valgrind is not installed (apt-get install valgrind)" }
        if Subprocess.executablePath(named: "objcopy") == nil { return "objcopy is not installed (apt-get install binutils)" }
        return nil
    }

    /// This process's executable (Linux: /proc/self/exe).
    public static var currentExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The path length of ``fixedLengthDirectory(in:)``.
    public static let workPathLength = 200

    /// A directory inside `base` whose path is always ``workPathLength`` characters long, for
    /// the stores of a counted run. SQLite keeps each store's absolute path (and its -wal and
    /// -shm names) in allocations sized by its length, which shifts the heap: the same case
    /// counted 4,506,627 instructions in one temporary directory and 4,486,404 in a longer
    /// one. With paths of one length the counts agree wherever `$TMPDIR` is. A `base` longer
    /// than that gets a plain subdirectory (its counts then depend on its length).
    public static func fixedLengthDirectory(in base: String) -> String {
        let padding = workPathLength - base.count - 1
        let path = base + "/" + String(repeating: "c", count: max(1, padding))
        // Made now: the fit check writes a sample store there before the runner starts.
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A copy of `executable` without debug information in `directory` (made once).
    static func strippedCopy(of executable: String, in directory: String) throws -> String {
        let copy = directory + "/schemalab-callgrind"
        if FileManager.default.isExecutableFile(atPath: copy) { return copy }
        let r = try run(Subprocess("objcopy", ["--strip-debug", executable, copy], standardOutput: .discard))
        guard r.status == 0 else { throw MeasurementError("objcopy --strip-debug failed: \(r.standardError)") }
        return copy
    }

    /// Runs `executable` with `arguments` under callgrind in `workDirectory` and returns the counts.
    static func count(arguments: [String], workDirectory: String, executable: String) throws -> InstructionCount {
        _ = try strippedCopy(of: executable, in: workDirectory)
        let outName = "callgrind-\(UUID().uuidString).out", out = workDirectory + "/" + outName
        defer { try? FileManager.default.removeItem(atPath: out) }
        // Relative paths from the work directory and a fixed environment: the client's stack
        // then has the same size wherever the lab runs (see the caller).
        let valgrind = [
            "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=schemalab_timed_region",
            "--toggle-collect=schemalab_untimed_span",
            "--compress-strings=no", "--compress-pos=no", "--callgrind-out-file=" + outName, "./schemalab-callgrind",
        ]
        // The environment is the child's whole environment (its size is part of the client's
        // stack). Swift seeds its hash tables at random per process; a fixed seed makes the
        // count repeat.
        let environment = ["SWIFT_DETERMINISTIC_HASHING": "1", "PATH": "/usr/bin:/bin", "TMPDIR": ".", "LC_ALL": "C"]
        let r = try run(
            Subprocess(
                "valgrind", valgrind + arguments, workingDirectory: workDirectory, environment: environment, standardOutput: .discard))
        guard r.status == 0, let text = try? String(contentsOfFile: out, encoding: .utf8) else {
            let tail = r.standardError.split(separator: "\n").suffix(3).joined(separator: " | ")
            throw MeasurementError("counting instructions under valgrind failed (status \(r.status)): \(tail)")
        }
        guard let count = parse(text), count.total > 0 else {
            throw MeasurementError("callgrind counted no instruction in the timed region (is schemalab_timed_region in the binary?)")
        }
        return count
    }

    /// The total and SQLite's share of a callgrind output file written with
    /// `--compress-strings=no --compress-pos=no` (event Ir only). The total is the file's
    /// `totals:` (or `summary:`). SQLite's share is the self cost of every function whose
    /// object (`ob=`) is libsqlite3, plus the inclusive cost of the C library functions (libc,
    /// libm) those functions call: its mutexes, its allocations, its memset and memcpy, which
    /// the raw C program pays as SQLite does. A call from SQLite back into the lab (a registered
    /// function, the integer-array table) is not SQLite's.
    public static func parse(_ text: String) -> InstructionCount? {
        var total: Int64?
        var sqlite: Int64 = 0
        var object = ""
        var inSQLite = false
        var callee: Substring? = nil
        var callCost = false
        func isCLibrary(_ path: Substring) -> Bool {
            let name = path.split(separator: "/").last ?? path
            return name.hasPrefix("libc.so") || name.hasPrefix("libm.so") || name.hasPrefix("libc-") || name.hasPrefix("libm-")
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let first = line.first else { continue }
            if first.isNumber || first == "+" || first == "-" || first == "*" {
                if callCost {
                    // The inclusive cost of the call just named.
                    callCost = false
                    defer { callee = nil }
                    guard inSQLite, let callee, isCLibrary(callee) else { continue }
                }
                guard inSQLite else { continue }
                let parts = line.split(separator: " ")
                if parts.count >= 2, let cost = Int64(parts[1]) { sqlite += cost }
                continue
            }
            if line.hasPrefix("ob=") {
                object = String(line.dropFirst(3))
            } else if line.hasPrefix("fn=") {
                inSQLite = object.contains("libsqlite3")
                callee = nil
            } else if line.hasPrefix("cob=") {
                callee = line.dropFirst(4)
            } else if line.hasPrefix("calls=") {
                callCost = true
                if callee == nil { callee = Substring(object) }
            } else if line.hasPrefix("totals:") || line.hasPrefix("summary:") {
                if let v = line.split(separator: " ").last.flatMap({ Int64($0) }) { total = v }
            }
        }
        return total.map { InstructionCount(total: $0, sqlite: sqlite) }
    }

    /// Runs `child` (valgrind or objcopy); not finding or starting it is a measurement error.
    private static func run(_ child: Subprocess) throws -> SubprocessResult {
        do { return try child.run() } catch { throw MeasurementError("cannot run \(child.executable): \(error)") }
    }
}
