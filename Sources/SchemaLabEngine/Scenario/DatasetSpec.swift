/// The deterministic data set: the root entity, how many objects, and a generator per field:
/// `{"seed": 42, "entity": "Photo", "counts": [1000, 10000], "fields": [...], "related": [...]}`.
///
/// Fields are logical: a field named `likes` is written to every attribute named `likes`
/// that the root entity reaches through itself and its to-one relationships, so every
/// variant holds the same logical data.
public struct DatasetSpec: Sendable, Equatable {
    /// `seed`: seeds every field's stream.
    public var seed: UInt64
    /// `entity`: the root entity, one object per row (and the default entity of every workload).
    public var entity: String
    /// `counts`: the sizes to run, in root objects (the format may write a sweep,
    /// ``SizeSweep``, which the decoder turns into its sizes).
    public var counts: [Int]
    /// `fields` of every row.
    public var fields: [FieldSpec]
    /// `related`: to-many relationships of the root entity filled for every row.
    public var related: [RelatedSpec] {
        didSet { related = RelatedSpec.namingStreams(related, below: "") }
    }
    /// The data set's JSON path (`$.dataset`), for messages.
    public var path: String

    /// A data set; with no related entries unless given.
    public init(seed: UInt64, entity: String, counts: [Int], fields: [FieldSpec], related: [RelatedSpec] = [], path: String = "") {
        self.seed = seed
        self.entity = entity
        self.counts = counts
        self.fields = fields
        self.related = RelatedSpec.namingStreams(related, below: "")
        self.path = path
    }
}
