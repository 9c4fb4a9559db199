/// A PRAGMA the scenario sets on every connection (allow-listed names and values).
public struct Pragma: Sendable, Equatable {
    /// The pragma's name, as `PRAGMA` takes it (`journal_mode`, `cache_size`).
    public var name: String
    /// Its value as SQL writes it (`wal`, `-8000`).
    public var value: String

    /// A pragma: `name` (`journal_mode`) and its value as SQL writes it (`wal`, `-8000`); a
    /// scenario checks both against its allow-list (`ScenarioDecoder`).
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
