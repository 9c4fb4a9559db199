import Foundation
import SchemaLabSQLite

/// Where and with what a run was measured: written to env.json.
public struct EnvironmentFingerprint: Sendable, Codable {
    /// The linked SQLite's version (`3.45.1`).
    public var sqliteVersion = SQLiteLibrary.version
    /// The linked SQLite's source id: the check-in date and hash.
    public var sqliteSourceID = SQLiteLibrary.sourceID
    /// The options the linked SQLite was compiled with, without `SQLITE_`.
    public var sqliteCompileOptions = SQLiteLibrary.compileOptions
    /// The machine's host name.
    public var host = ProcessInfo.processInfo.hostName
    /// The operating system's version string.
    public var os = ProcessInfo.processInfo.operatingSystemVersionString
    /// Active processor cores.
    public var cores = ProcessInfo.processInfo.activeProcessorCount
    /// Physical memory (bytes).
    public var memoryBytes = ProcessInfo.processInfo.physicalMemory
    /// The version of the Swift compiler that built the lab, to the minor version this build
    /// can tell (`6.1`, `>=6.4`).
    public var swiftVersion = EnvironmentFingerprint.compilerVersion
    /// `debug` or `release`: timings of the two are not comparable.
    public var buildConfiguration = EnvironmentFingerprint.configuration
    /// The commit of the working directory (`git rev-parse HEAD`), or `unknown`.
    public var gitCommit = EnvironmentFingerprint.gitCommit()
    /// Whether the process could reset its peak resident set before each case
    /// (/proc/self/clear_refs); when false, a case's peak may be an earlier case's.
    public var peakMemoryResettable = MemoryProbe.resetPeak()
    /// When the run started (ISO 8601, UTC).
    public var startedAt = ISO8601DateFormatter().string(from: Date())

    /// This process's environment, taken now.
    public init() {}

    /// What differs from `other`, as `field: this → other`, leaving out when each was
    /// taken: a resumed run must measure on the same machine, SQLite, build and commit.
    public func differences(from other: EnvironmentFingerprint) -> [String] {
        var out: [String] = []
        func cmp<T: Equatable>(_ name: String, _ a: T, _ b: T) { if a != b { out.append("\(name): \(a) then, \(b) now") } }
        cmp("sqliteVersion", sqliteVersion, other.sqliteVersion)
        cmp("sqliteSourceID", sqliteSourceID, other.sqliteSourceID)
        cmp("sqliteCompileOptions", sqliteCompileOptions, other.sqliteCompileOptions)
        cmp("host", host, other.host)
        cmp("os", os, other.os)
        cmp("cores", cores, other.cores)
        cmp("memoryBytes", memoryBytes, other.memoryBytes)
        cmp("swiftVersion", swiftVersion, other.swiftVersion)
        cmp("buildConfiguration", buildConfiguration, other.buildConfiguration)
        cmp("gitCommit", gitCommit, other.gitCommit)
        return out
    }

    static var configuration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }

    /// The compiler's language version, to the minor version this build can tell.
    static var compilerVersion: String {
        #if compiler(>=6.4)
        return ">=6.4"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }

    /// `git rev-parse HEAD` of the current directory, or "unknown".
    static func gitCommit() -> String {
        guard let result = try? Subprocess("git", ["rev-parse", "HEAD"], standardError: .discard).run() else { return "unknown" }
        let text = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return result.succeeded && !text.isEmpty ? text : "unknown"
    }
}
