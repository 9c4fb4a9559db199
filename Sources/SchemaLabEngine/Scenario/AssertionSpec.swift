/// What a scenario states must hold in every run (`"assertions"`), checked after the run:
/// `{"workload": "fetch-sorted", "variant": "V1+index", "usesIndex": "ZPHOTO_ZDATE_INDEX"}`.
public struct AssertionSpec: Sendable, Equatable {
    /// The kinds of statement a scenario can make about a case or a workload: the key an
    /// assertion states.
    public enum Kind: Sendable, Equatable {
        /// `usesIndex`: some statement's plan uses this index (`USING INDEX x` or `USING COVERING INDEX x`).
        case usesIndex(String)
        /// `"noTempBTree": true`: no statement's plan has a temporary B-tree (for ORDER BY, GROUP BY, DISTINCT).
        case noTempBTree
        /// `"usesTempBTree": true`: some statement's plan has a temporary B-tree (the sort the other variant avoids).
        case usesTempBTree
        /// `"noFullScan": true`: no statement's plan scans a table without an index (`SCAN t0`).
        case noFullScan
        /// `maxStatements`: the case runs at most this many statements.
        case maxStatements(Int)
        /// `sameResults`: these variants return the same result (their result digests are equal).
        case sameResults([String])
        /// `fasterThan`: `variant` is faster than `than`: median lower and the Mann-Whitney U
        /// test's p below 0.05.
        case faster(than: String)

        /// The other variant of a `fasterThan`.
        var slower: String? { if case .faster(let v) = self { return v } else { return nil } }
    }

    /// `workload`: the workload the assertion is about.
    public var workload: String
    /// `variant`: the variant a case assertion is about (nil for sameResults).
    public var variant: String?
    /// What the assertion states.
    public var kind: Kind
    /// `description`: free text.
    public var description: String?
    /// The assertion's JSON path, for messages.
    public var path: String

    /// An assertion about the case (`variant`, `workload`), or, for sameResults, the workload.
    public init(workload: String, variant: String? = nil, kind: Kind, description: String? = nil, path: String = "") {
        self.workload = workload
        self.variant = variant
        self.kind = kind
        self.description = description
        self.path = path
    }
}
