import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The temporary directory a run keeps its stores in, `$TMPDIR/schemalab-<pid>-<n>/` (the
/// n-th of the process: runs in one process each have their own) (megabytes at 20,000 rows,
/// gigabytes at a million). The run holds a lock on its
/// `lock` file for as long as it lives; the kernel drops the lock when the process
/// dies, however it dies. A new run removes every such directory whose lock is free
/// (the process that made it is gone), so a SIGKILLed run's stores do not outlive the
/// next run.
package final class WorkDirectory: @unchecked Sendable {
    package let path: String
    private let lock: FileLock

    private init(path: String, lock: FileLock) {
        self.path = path
        self.lock = lock
    }

    /// The folder work directories go in: `$TMPDIR`, else /tmp.
    package static var base: String { FileManager.default.temporaryDirectory.path }

    /// How many this process has made.
    private static let made = Atomic<Int>(0)

    /// Removes stale work directories in `base`, then creates and locks a new one of this process.
    package static func create(in base: String = WorkDirectory.base) throws -> WorkDirectory {
        removeStale(in: base)
        let number = made.add(1, ordering: .relaxed).newValue
        let path = base + "/schemalab-\(getpid())-\(number)"
        try? FileManager.default.removeItem(atPath: path)
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw FileError(path: path, message: "cannot create the temporary store directory \(path): \(FileError.reason(error))")
        }
        guard let lock = try FileLock.tryLock(path + "/lock") else {
            throw FileError(path: path, message: "cannot lock \(path)/lock")
        }
        return WorkDirectory(path: path, lock: lock)
    }

    /// Removes every `schemalab-<pid>` or `schemalab-<pid>-<n>` directory in `base` whose process is gone: its lock
    /// is free, or (a directory without a lock file) no process has that id. Returns
    /// the paths removed.
    @discardableResult
    package static func removeStale(in base: String = WorkDirectory.base) -> [String] {
        var removed: [String] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] {
            guard name.hasPrefix("schemalab-"),
                let pid = name.dropFirst("schemalab-".count).split(separator: "-", omittingEmptySubsequences: false).first.flatMap({
                    Int32($0)
                }),
                pid > 0,
                pid != getpid()
            else { continue }
            let dir = base + "/" + name
            let lockPath = dir + "/lock"
            if FileManager.default.fileExists(atPath: lockPath) {
                guard let held = try? FileLock.tryLock(lockPath) else { continue }  // a live run holds it
                defer { held.release() }
                try? FileManager.default.removeItem(atPath: dir)
            } else {
                guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
                try? FileManager.default.removeItem(atPath: dir)
            }
            if !FileManager.default.fileExists(atPath: dir) { removed.append(dir) }
        }
        return removed
    }

    /// Removes the directory and its stores. Retries, since the run may still be
    /// creating a file in it when a signal asks to stop.
    package func remove() {
        for _ in 0..<5 {
            try? FileManager.default.removeItem(atPath: path)
            if !FileManager.default.fileExists(atPath: path) { break }
        }
        lock.release()
    }
}
