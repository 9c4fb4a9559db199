/// A measurement the lab could not take: counting instructions under valgrind, or a
/// case counted without what it needs. Its description is the message.
public struct MeasurementError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, as a sentence for the user.
    public let message: String

    /// An error that says `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
