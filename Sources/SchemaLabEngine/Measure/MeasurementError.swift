/// A measurement the lab could not take: counting instructions under valgrind, or a
/// case counted without what it needs. Its description is the message.
public struct MeasurementError: Error, CustomStringConvertible, Sendable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
