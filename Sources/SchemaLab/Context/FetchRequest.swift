/// A fetch request, resolved against one model.
public struct FetchRequest {
    public let entity: EntityDescription
    /// Sort descriptors: resolved key path and ascending.
    public var sortDescriptors: [(ResolvedKeyPath, Bool)]
    /// fetchBatchSize; 0 fetches every object at once.
    public var batchSize: Int
    /// relationshipKeyPathsForPrefetching: to-one relationship paths.
    public var prefetch: [[RelationshipModel]]

    public init(entity: EntityDescription, sortDescriptors: [(ResolvedKeyPath, Bool)] = [], batchSize: Int = 0,
                prefetch: [[RelationshipModel]] = []) {
        self.entity = entity
        self.sortDescriptors = sortDescriptors
        self.batchSize = batchSize
        self.prefetch = prefetch
    }
}
