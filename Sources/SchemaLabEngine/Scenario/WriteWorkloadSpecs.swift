import Foundation
import SchemaLabCoreData
import SchemaLabSQLite

/// Where a batch insert's records come from (NSBatchInsertRequest's two forms): `source`.
public enum InsertSourceSpec: String, Sendable, CaseIterable {
    /// An array of dictionaries, built before the clock starts (`objects:`).
    case dictionaries
    /// A handler that fills one dictionary per call (`dictionaryHandler:`): no array.
    case handler
}

/// How an update-or-insert finds the existing objects: `strategy`.
public enum UpsertStrategySpec: String, Sendable, CaseIterable {
    /// One fetch per incoming record (`WHERE key = ?`).
    case fetchEach
    /// Sort the records by key, one `key IN (...)` fetch sorted by key per `mergeBatch`
    /// records, walk both lists.
    case sortedMerge
}

/// The journal mode a reader-under-writer workload runs in: `journalMode`.
public enum JournalModeSpec: String, Sendable, CaseIterable {
    /// `wal`, the default: write-ahead logging, a reader does not wait for the writer.
    case wal
    /// `delete`: a rollback journal, the reader waits for the writer's commit.
    case delete
}

/// What a reorder workload does to each list (one save for all of them): `operation`.
public enum ReorderOperation: String, Sendable, CaseIterable {
    /// Read each list in order, firing every member.
    case read
    /// Insert a new member at the front, in the middle, at the end.
    case insertFront, insertMiddle, append
    /// Move the last member to the front.
    case move
    /// Delete the middle member.
    case remove
}

/// A re-ingest feed, `{"size": 1.0, "existing": 0.9, "seed": 7}`: `size` × the data set's
/// size records (at least one), a fraction `existing` of which carry the key of a stored row
/// with every other field changed; the rest are new rows (the data set's next).
public struct FeedSpec: Sendable, Equatable {
    /// `size` (default 1): the feed's length as a multiple of the data set's size, in (0, 10].
    public var size: Double
    /// `existing` (default 0.9): the fraction of records that match a stored row.
    public var existing: Double
    /// `seed` (default 1): seeds the changed values and the order of the records.
    public var seed: UInt64
    /// The feed's JSON path, for messages.
    public var path: String

    /// A feed; the defaults are the format's (a key left out).
    public init(size: Double = 1, existing: Double = 0.9, seed: UInt64 = 1, path: String = "") {
        self.size = size
        self.existing = existing
        self.seed = seed
        self.path = path
    }
}

/// One attribute an update sets, and its new value: `"set": {"validated": true}`.
public struct AttributeAssignment: Sendable, Equatable {
    /// The attribute's name (a key of `set`).
    public var attribute: String
    /// The value (`null` clears it; a date as `{"date": ...}`); not an array.
    public var value: PredicateValue

    /// `attribute` set to `value`.
    public init(attribute: String, value: PredicateValue) {
        self.attribute = attribute
        self.value = value
    }
}

/// One word of a separated list replaced by another (`"a,b,c"` with b → x is `"a,x,c"`):
/// `"set": {"tagList": {"replaceWord": "b", "with": "x", "separator": ","}}` in an update.
public struct WordReplacement: Sendable, Equatable {
    /// The string attribute that holds the list (a key of `set`).
    public var attribute: String
    /// `replaceWord`: the element replaced.
    public var word: String
    /// `with`: what replaces it.
    public var with: String
    /// `separator` (default `,`).
    public var separator: String

    /// Replaces `word` with `with` in the `separator`-separated lists of `attribute`.
    public init(attribute: String, word: String, with: String, separator: String = ",") {
        self.attribute = attribute
        self.word = word
        self.with = with
        self.separator = separator
    }

    /// `value` with every element equal to `word` replaced; other values unchanged.
    public func apply(_ value: SQLValue) -> SQLValue {
        guard case .text(let s) = value else { return value }
        let parts = s.components(separatedBy: separator)
        guard parts.contains(word) else { return value }
        return .text(parts.map { $0 == word ? with : $0 }.joined(separator: separator))
    }
}
