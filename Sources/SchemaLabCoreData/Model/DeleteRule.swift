/// Core Data's delete rules.
public enum DeleteRule: String, Sendable {
    case nullify, cascade, deny, noAction
}
