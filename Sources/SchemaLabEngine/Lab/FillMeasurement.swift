/// How filling one variant's store for one size went: the data generated chunk by chunk
/// (`DataStream`) and saved through the context, a new context per chunk. Written to
/// `fills.csv`: the lab's own memory for a data set of that size.
public struct FillMeasurement: Sendable, Equatable {
    /// The variant's name.
    public var variant: String
    /// The data set size: how many objects of the root entity.
    public var size: Int
    /// Rows per chunk (the whole data set when it does not stream; 0 for a copied store).
    public var chunkRows: Int
    /// Whether the data set was generated a chunk at a time; false when it is generated
    /// whole (related entries, fields that read other rows) or the store was copied.
    public var streamed: Bool
    /// Wall time of generating and saving every chunk, and of the checkpoint after (ms).
    public var milliseconds: Double
    /// The process's resident-set peak during the fill (KiB; -1 where /proc cannot tell).
    public var peakRSSKB: Int64
    /// The peak's growth over the resident set at the fill's start (KiB; -1 where /proc
    /// cannot tell).
    public var rssGrowthKB: Int64
    /// The store file's size once filled (bytes; -1 when it cannot be read).
    public var storeBytes: Int64

    /// A fill's figures, as the runner or a run directory's `fills.csv` gives them.
    public init(
        variant: String, size: Int, chunkRows: Int, streamed: Bool, milliseconds: Double, peakRSSKB: Int64, rssGrowthKB: Int64,
        storeBytes: Int64
    ) {
        self.variant = variant
        self.size = size
        self.chunkRows = chunkRows
        self.streamed = streamed
        self.milliseconds = milliseconds
        self.peakRSSKB = peakRSSKB
        self.rssGrowthKB = rssGrowthKB
        self.storeBytes = storeBytes
    }
}
