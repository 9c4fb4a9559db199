/// How a batch insert resolves a uniqueness-constraint conflict (the context's merge policy).
public enum MergePolicy: String, Sendable, CaseIterable {
    /// NSErrorMergePolicy: `INSERT OR IGNORE`, the stored row is kept.
    case error
    /// NSMergeByPropertyObjectTrumpMergePolicy: `INSERT ... ON CONFLICT(...) DO UPDATE`.
    case objectTrump
}
