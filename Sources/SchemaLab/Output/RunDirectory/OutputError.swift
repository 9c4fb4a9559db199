import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A problem writing or reading a run's output: names the path and what failed.
public struct OutputError: Error, CustomStringConvertible, Sendable {
    public let message: String
    /// The path the problem is about.
    public let path: String
    /// True when the user must change the command (an existing `--out`, a directory that
    /// is not a run), false when the system refused (permissions, a full disk): exit 2 or 1.
    public let isBadInput: Bool

    public init(path: String, message: String, isBadInput: Bool = false) {
        self.path = path
        self.message = message
        self.isBadInput = isBadInput
    }

    /// `cannot write results/x/results.csv: No space left on device`.
    public init(path: String, doing: String, errno code: Int32) {
        self.init(path: path, message: "cannot \(doing) \(path): \(String(cString: strerror(code)))")
    }

    public var description: String { message }
}
