/// How an index is stored.
public enum IndexKind: String, Sendable, CaseIterable {
    /// An ordinary SQLite B-tree index.
    case binary
    /// An R-tree fetch index: a virtual table kept up to date by triggers.
    case rtree
}
