/// Core Data's validation refusing a save: a non-optional attribute with no value
/// (NSValidationMissingMandatoryPropertyError). Core Data checks it in memory before any
/// SQL, and so does the lab; the columns carry no NOT NULL.
package struct MandatoryPropertyError: Error, CustomStringConvertible, Sendable {
    package let entity: String
    package let attribute: String
    /// Which object or record: `object 3 of 120 inserted`, `record 3 of 23270`.
    package let position: String

    package var description: String {
        "validation failed: \(entity).\(attribute) is not optional and has no value (\(position))"
    }
}
