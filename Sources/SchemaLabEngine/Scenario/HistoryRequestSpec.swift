/// `history`: the request of a `fetchHistory` or `deleteHistory` workload. Before the clock,
/// the workload writes `count` transactions into a copy of the filled store, each changing
/// `saveEvery` objects of `entity` with `set` (authors alternate: `app`, then `sync`); the
/// clock then times the request:
/// `{"after": "token", "last": 20, "entity": "Quake", "updatedProperties": ["magnitude"]}`.
public struct HistoryRequestSpec: Sendable, Equatable {
    /// How a request names where the history starts (or, for a purge, ends).
    public enum Bound: String, Sendable, Equatable, CaseIterable {
        /// A token: the transaction's number (`fetchHistory(after: token)`).
        case token
        /// A date: the transaction's timestamp (`fetchHistory(after: date)`).
        case date
    }

    /// Where a tailored request filters: in the request (iOS 13's fetch request on the history's
    /// CHANGE entity, in SQL) or in memory after fetching every change (iOS 12's way).
    public enum FilterPlace: String, Sendable, Equatable, CaseIterable {
        case request
        case memory
    }

    /// `after` (fetchHistory) or `before` (deleteHistory): a token or a date.
    public var bound: Bound
    /// fetchHistory `last`: the request starts before the last N transactions (nil: the whole
    /// history). deleteHistory `keep`: the purge keeps the last N (default 0: it deletes all).
    public var last: Int?
    /// `entity`: only this entity's changes.
    public var entity: String?
    /// `object`: only the changes of one object (the first the last transaction changes).
    public var object: Bool
    /// `author`: only the transactions of this author (`app` or `sync`).
    public var author: String?
    /// `updatedProperties`: only inserts, deletes, and the updates of one of these attributes
    /// (always in memory: the mask is a blob the store cannot filter).
    public var updatedProperties: [String]
    /// `filterIn` (default request).
    public var filterIn: FilterPlace
    /// Its JSON path, for messages.
    public var path: String

    /// A request; every filter off unless given.
    public init(
        bound: Bound = .token, last: Int? = nil, entity: String? = nil, object: Bool = false, author: String? = nil,
        updatedProperties: [String] = [], filterIn: FilterPlace = .request, path: String = ""
    ) {
        self.bound = bound
        self.last = last
        self.entity = entity
        self.object = object
        self.author = author
        self.updatedProperties = updatedProperties
        self.filterIn = filterIn
        self.path = path
    }

    /// The authors of the transactions the workload writes before the clock, in turn.
    public static let authors = ["app", "sync"]
}
