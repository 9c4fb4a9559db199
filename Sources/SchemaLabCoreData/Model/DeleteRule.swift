/// Core Data's delete rules.
public enum DeleteRule: String, Sendable, CaseIterable {
    case nullify, cascade, deny, noAction
}
