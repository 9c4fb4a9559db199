import Foundation
import SchemaLabEngine
#if canImport(Glibc)
import Glibc
#endif

/// Writes whole files so that a reader, or a process killed at any instant, sees the
/// old content or the new, never a mix: the bytes go to `<path>.tmp`, are flushed to
/// disk, and the temporary file is renamed over `path`. A failed write (a full disk,
/// a directory that became read-only) removes the temporary file and leaves `path`
/// as it was.
package protocol FileWriting: Sendable {
    /// Replaces the content of `path` with `bytes`, atomically.
    func write(_ bytes: [UInt8], to path: String) throws
}

/// The real file system.
package struct AtomicFile: FileWriting {
    package init() {}

    package func write(_ bytes: [UInt8], to path: String) throws {
        let tmp = path + ".tmp"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: path, doing: "write", errno: errno) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += n
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(tmp, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(tmp)
            throw FileError(path: path, doing: "write", errno: failure)
        }
    }
}
