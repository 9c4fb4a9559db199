import SchemaLabCoreData

/// A scenario: schema variants, a data set, workloads, measurement settings, and what must
/// hold (assertions) or is claimed (claims). Read from a file (``ScenarioDecoder``) or built
/// in Swift with the initializers of its parts, and written with ``ScenarioEncoder``.
///
/// Decoding checks shapes, types and names; the semantic checks that need the resolved
/// schemas (an index on a missing attribute, a key path no variant can resolve) are done by
/// `ScenarioPlan`. A scenario built in Swift gets the decoder's checks from
/// ``ScenarioDecoder/check(_:)``.
///
/// Every part has the JSON path it has in the scenario's text (`$.workloads[2]`), for
/// messages: the scenario sets it on the parts it is given and whenever a list of them
/// changes, so an error about a part built in Swift says where it stands too.
public struct Scenario: Sendable, Equatable {
    /// The format version this build reads.
    public static let formatVersion = 1

    /// `$schema`: the JSON Schema editors check the file against (`schema.json`); nil: none.
    public var schemaReference: String?
    /// `format`: the format version (``formatVersion``).
    public var format: Int
    /// `name`: a label (letters, digits, `+ - _ .`).
    public var name: String
    /// `description`: free text ("" when there is none).
    public var description: String
    /// `variants`: the schema variants compared.
    public var variants: [VariantSpec] { didSet { variants = Self.placed(variants) } }
    /// `dataset`: the deterministic data every variant holds.
    public var dataset: DatasetSpec { didSet { dataset = Self.placed(dataset) } }
    /// `workloads`: what runs on each variant.
    public var workloads: [WorkloadSpec] { didSet { workloads = Self.placed(workloads) } }
    /// `measurement`: warm-up, repetitions and time budget of every case.
    public var measurement: MeasurementSpec
    /// `pragmas`: SQLite pragmas set on every connection, in the order of their names (as the
    /// decoder gives them and the encoder writes them).
    public var pragmas: [Pragma]
    /// `reference`: the variant whose results every other variant's must equal (default: the first).
    public var reference: String
    /// `assertions`: what must hold in every run, checked after it (`AssertionCheck`).
    public var assertions: [AssertionSpec] { didSet { assertions = Self.placed(assertions) } }
    /// `claims`: what the source documents claim, with how to check it (``ClaimSpec``).
    public var claims: [ClaimSpec] { didSet { claims = Self.placed(claims) } }
    /// Where the scenario was read from: not part of what it states.
    private var origin: Origin

    /// The file it was read from, as named by the user; a scenario built in Swift: its name,
    /// unless given (messages start with it).
    public var file: String {
        get { origin.file }
        set { origin.file = newValue }
    }
    /// SHA-256 of the file's bytes, hex; "" for a scenario built in Swift, unless given.
    public var sha256: String {
        get { origin.sha256 }
        set { origin.sha256 = newValue }
    }

    /// A scenario; the defaults are the format's (a key left out). Each part's `path` is set
    /// to the JSON path it has in the scenario's text.
    public init(
        format: Int = Scenario.formatVersion, name: String, description: String = "", variants: [VariantSpec], dataset: DatasetSpec,
        workloads: [WorkloadSpec], measurement: MeasurementSpec = MeasurementSpec(), pragmas: [Pragma] = [],
        reference: String? = nil, assertions: [AssertionSpec] = [], claims: [ClaimSpec] = [], schemaReference: String? = nil,
        file: String? = nil, sha256: String = ""
    ) {
        self.schemaReference = schemaReference
        self.format = format
        self.name = name
        self.description = description
        self.variants = Self.placed(variants)
        self.dataset = Self.placed(dataset)
        self.workloads = Self.placed(workloads)
        self.measurement = measurement
        self.pragmas = pragmas.sorted { $0.name < $1.name }
        self.reference = reference ?? variants.first?.name ?? ""
        self.assertions = Self.placed(assertions)
        self.claims = Self.placed(claims)
        self.origin = Origin(file: file ?? name, sha256: sha256)
    }

    /// The file and the hash of a scenario read from one. Two origins are always equal: two
    /// scenarios that state the same thing are equal wherever they were read from.
    private struct Origin: Sendable, Equatable {
        var file: String
        var sha256: String

        static func == (lhs: Origin, rhs: Origin) -> Bool { true }
    }
}
