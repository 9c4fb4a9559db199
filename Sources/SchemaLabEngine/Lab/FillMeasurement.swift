/// How filling one variant's store for one size went: the data generated chunk by chunk
/// (`DataStream`) and saved through the context, a new context per chunk. Written to
/// `fills.csv`: the lab's own memory for a data set of that size.
public struct FillMeasurement: Sendable, Equatable {
    public var variant: String
    public var size: Int
    /// Rows per chunk (the whole data set when it does not stream).
    public var chunkRows: Int
    public var streamed: Bool
    /// Wall time of generating and saving every chunk, and of the checkpoint after.
    public var milliseconds: Double
    /// The process's resident-set peak during the fill, and its growth over the resident
    /// set at the fill's start (-1 where /proc cannot tell).
    public var peakRSSKB: Int64
    public var rssGrowthKB: Int64
    /// The store file's size once filled.
    public var storeBytes: Int64

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
