/// Core Data's validation refusing a save: a non-optional attribute with no value
/// (NSValidationMissingMandatoryPropertyError). Core Data checks it in memory before any
/// SQL, and so does the lab; the columns carry no NOT NULL.
public struct MandatoryPropertyError: Error, CustomStringConvertible, Sendable {
    public let entity: String
    public let attribute: String
    /// Which object or record: `object 3 of 120 inserted`, `record 3 of 23270`.
    public let position: String

    public var description: String {
        "validation failed: \(entity).\(attribute) is not optional and has no value (\(position))"
    }
}
