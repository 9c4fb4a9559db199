import Foundation

/// Runs the CLI with a time limit, its output going to files (so that a chatty run never
/// blocks on a full pipe); a run past the limit is killed and reported as a hang.
enum TimedProcess {
    struct Result {
        /// The exit status, or nil when the process did not exit normally (a signal, a kill).
        var status: Int32?
        var signal: Int32?
        var timedOut: Bool
        var out: String
        var err: String
    }

    /// With `merged`, standard error goes to the same file as standard output (as `2>&1`), and `err` is empty.
    static func run(_ executable: String, _ arguments: [String], in directory: String, limit: TimeInterval, merged: Bool = false) throws
        -> Result
    {
        let outPath = directory + "/cli-\(UUID().uuidString).out", errPath = outPath + ".err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.currentDirectoryURL = URL(fileURLWithPath: directory)
        p.standardOutput = out
        p.standardError = merged ? out : err
        try p.run()
        let deadline = Date().addingTimeInterval(limit)
        var timedOut = false
        while p.isRunning {
            if Date() > deadline {
                timedOut = true
                kill(p.processIdentifier, SIGKILL)
                break
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        p.waitUntilExit()
        try out.close()
        try err.close()
        let o = FileManager.default.contents(atPath: outPath) ?? Data()
        let e = FileManager.default.contents(atPath: errPath) ?? Data()
        let exited = p.terminationReason == .exit
        return Result(
            status: exited ? p.terminationStatus : nil, signal: exited ? nil : p.terminationStatus, timedOut: timedOut,
            out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }
}
