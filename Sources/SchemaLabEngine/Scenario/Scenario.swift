import SchemaLabCoreData

/// A decoded scenario file: schema variants, a data set, workloads, measurement settings.
///
/// Decoding (``ScenarioDecoder``) checks shapes, types and names; the semantic checks
/// that need the resolved schemas (an index on a missing attribute, a key path no
/// variant can resolve) are done by ``ScenarioValidator``.
public struct Scenario: Sendable {
    /// The format version this build reads.
    public static let formatVersion = 1

    public var format: Int
    public var name: String
    public var description: String
    public var variants: [VariantSpec]
    public var dataset: DatasetSpec
    public var workloads: [WorkloadSpec]
    public var measurement: MeasurementSpec
    public var pragmas: [Pragma]
    /// The variant whose results every other variant's must equal (default: the first).
    public var reference: String
    /// The file it was read from, as named by the user.
    public var file: String
    /// SHA-256 of the file's bytes, hex.
    public var sha256: String
    /// What must hold in every run, checked after it (``AssertionCheck``).
    public var assertions: [AssertionSpec] = []
    /// What the source documents claim, with how to check it (``ClaimSpec``).
    public var claims: [ClaimSpec] = []
}
