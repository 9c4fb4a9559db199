/// How a `Subprocess` ended, and what it wrote to the streams it captured (empty for a
/// stream it did not capture), decoded as UTF-8.
package struct SubprocessResult: Sendable, Equatable {
    /// The exit status; the signal's number when a signal ended the child.
    package let status: Int32
    /// A signal ended the child (it did not exit).
    package let endedBySignal: Bool
    package let standardOutput: String
    package let standardError: String

    /// The child exited with status 0.
    package var succeeded: Bool { status == 0 && !endedBySignal }
}
