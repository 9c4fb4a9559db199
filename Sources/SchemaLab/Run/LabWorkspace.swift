import SchemaLabEngine

/// Where a run keeps its stores: the caller's directory (``/SchemaLabEngine/RunOptions/workDirectory``) or a
/// temporary one of its own, removed when the run ends. When instructions are counted, the
/// stores go in a subdirectory whose path has a fixed length (see
/// ``CallgrindCounter/fixedLengthDirectory(in:)``).
struct LabWorkspace {
    let path: String
    private let owned: WorkDirectory?

    init(options: RunOptions) throws(OperationError) {
        if let given = options.workDirectory {
            owned = nil
            path = options.countsInstructions ? CallgrindCounter.fixedLengthDirectory(in: given) : given
        } else {
            do { owned = try WorkDirectory.create() } catch { throw OperationError.from(error, status: .failed) }
            path = options.countsInstructions ? CallgrindCounter.fixedLengthDirectory(in: owned!.path) : owned!.path
        }
    }

    /// Removes the directory when the run made it.
    func remove() {
        owned?.remove()
    }
}
