import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive advisory lock (`flock`) on a file, held until ``release()`` or the
/// process ends. The kernel drops it when the process dies, however it dies, so a
/// lock that can be taken marks its owner as gone: that is how a run directory
/// refuses a second writer and how stale temporary stores are told from live ones.
package final class FileLock: @unchecked Sendable {
    package let path: String
    private var fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    /// Takes the lock on `path` (created if missing) without waiting; nil when another
    /// process holds it. Throws when the file cannot be opened.
    package static func tryLock(_ path: String) throws -> FileLock? {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: path, doing: "open the lock file", errno: errno) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            close(fd)
            return nil
        }
        return FileLock(path: path, fd: fd)
    }

    /// Releases the lock (the file stays).
    package func release() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }
}
