/// Core Data's delete rules.
public enum DeleteRule: String, Sendable, CaseIterable {
    /// Deleting the object clears the inverse relationship of the objects it points at.
    case nullify
    /// Deleting the object deletes the objects it points at, and their rules run in turn.
    case cascade
    /// The object may not be deleted while it points at objects; the lab does not model it
    /// (a delete that reaches it fails).
    case deny
    /// Deleting the object leaves the objects it points at as they are.
    case noAction
}
