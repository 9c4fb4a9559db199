import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A problem reading or writing a file or directory (a run's output, its temporary stores):
/// names the path and what failed.
public struct FileError: Error, CustomStringConvertible, Sendable {
    /// What failed, in one sentence that usually names the path (`cannot write
    /// results/x/results.csv: No space left on device`).
    public let message: String
    /// The path the problem is about.
    public let path: String
    /// True when the user must change the command (an existing `--out`, a directory that
    /// is not a run), false when the system refused (permissions, a full disk): exit 2 or 1.
    public let isBadInput: Bool
    /// What would fix it, when the user can.
    public let remedy: Remedy?

    /// An error about `path` that says `message`; by default a refusal of the system, with
    /// no remedy.
    public init(path: String, message: String, isBadInput: Bool = false, remedy: Remedy? = nil) {
        self.path = path
        self.message = message
        self.isBadInput = isBadInput
        self.remedy = remedy
    }

    /// `cannot write results/x/results.csv: No space left on device`.
    public init(path: String, doing: String, errno code: Int32) {
        self.init(path: path, message: "cannot \(doing) \(path): \(String(cString: strerror(code)))")
    }

    /// The message.
    public var description: String { message }

    /// The system's reason for a Foundation file error (`No space left on device`), else its description.
    public static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }
}
