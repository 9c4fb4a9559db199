import Foundation
import SchemaLabSQLite

/// Where and with what a run was measured: written to env.json.
public struct EnvironmentFingerprint: Sendable, Codable {
    public var sqliteVersion = SQLiteLibrary.version
    public var sqliteSourceID = SQLiteLibrary.sourceID
    public var sqliteCompileOptions = SQLiteLibrary.compileOptions
    public var host = ProcessInfo.processInfo.hostName
    public var os = ProcessInfo.processInfo.operatingSystemVersionString
    public var cores = ProcessInfo.processInfo.activeProcessorCount
    public var memoryBytes = ProcessInfo.processInfo.physicalMemory
    public var swiftVersion = EnvironmentFingerprint.compilerVersion
    public var buildConfiguration = EnvironmentFingerprint.configuration
    public var gitCommit = EnvironmentFingerprint.gitCommit()
    public var peakMemoryResettable = MemoryProbe.resetPeak()
    public var startedAt = ISO8601DateFormatter().string(from: Date())

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
