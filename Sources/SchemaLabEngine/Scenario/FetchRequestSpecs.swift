import SchemaLabCoreData

/// A sort descriptor: `"date"` (ascending), or `{"key": "likes", "ascending": false,
/// "comparator": "localized"}`.
public struct SortSpec: Sendable, Equatable {
    /// `key`: a key path (a logical field or a dotted path; `objectID` sorts on Z_PK).
    public var keyPath: String
    /// `ascending` (default true).
    public var ascending: Bool
    /// `comparator`: the sort descriptor's string comparison (`localized`: SwiftData's
    /// `.localized`, `localizedCompare:`), nil for a plain `compare:`.
    public var comparator: SortComparator?

    /// A sort on `keyPath`, ascending unless told.
    public init(keyPath: String, ascending: Bool = true, comparator: SortComparator? = nil) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.comparator = comparator
    }
}

/// How much of a fetch result a workload reads after the fetch, and how: `touch`.
public enum TouchSpec: Sendable, Equatable {
    /// `"none"`: read no object.
    case none
    /// A number: read the first n objects one by one (a first screen), or all when there are fewer.
    case first(Int)
    /// `"all"` (the default), or `"scroll"`: read every object one by one, in order (a table
    /// view scrolling through the controller with `objectAtIndexPath:`).
    case all
    /// `"array"`: take the whole result array at once, then read every object (the 2014
    /// article's trap: with a batch size, every batch is loaded before the first object is read).
    case array
}

/// What a fetch returns (NSFetchRequestResultType): `resultType`.
public enum ResultTypeSpec: String, Sendable, CaseIterable {
    /// `objects`, the default: managed objects.
    case objects
    /// `objectIDs`: the objects' IDs only (the primary keys, no other column).
    case objectIDs
    /// `dictionaries`: one dictionary per row of the properties to fetch, or per group.
    case dictionaries
    /// `count`: the number of matching rows (`SELECT COUNT(…)`).
    case count
}

/// One entry of `propertiesToFetch` or `reduce`: a key path, or an expression description
/// (`{"name": "maxMag", "function": "max", "key": "magnitude"}`).
public enum PropertySpec: Sendable, Equatable {
    /// A key path (`"place"`).
    case keyPath(String)
    /// `{"name", "function", "key"}`: an aggregate of a key path, under a name.
    case expression(name: String, function: AggregateFunction, keyPath: String)

    /// The dictionary key of the value.
    public var name: String {
        switch self {
        case .keyPath(let k): return k
        case .expression(let n, _, _): return n
        }
    }
}

/// A predicate as the scenario writes it: NSPredicate format text (`predicate`, `having`)
/// and the values of its `%@` (`arguments`, `havingArguments`).
public struct PredicateSpec: Sendable, Equatable {
    /// The format text (`"magnitude > %@ AND time > %@"`); its syntax is checked when the plan compiles it.
    public var text: String
    /// The arguments, in order: numbers, strings, booleans, null, dates, arrays of these.
    public var arguments: [PredicateValue]
    /// The JSON path of the predicate string (errors add the column inside it).
    public var path: String

    /// A predicate and its arguments.
    public init(text: String, arguments: [PredicateValue] = [], path: String = "") {
        self.text = text
        self.arguments = arguments
        self.path = path
    }
}
