/// A PRAGMA the scenario sets on every connection (allow-listed names and values).
public struct Pragma: Sendable, Equatable {
    public var name: String
    public var value: String

    /// Memberwise.
    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
