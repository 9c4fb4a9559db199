/// The result of a fetch: every object at once, or (with a batch size) the sorted
/// IDs first and each window of `batchSize` rows loaded when one of its objects is
/// first read, like Core Data's batched array.
package final class FetchedObjects {
    /// Strong, like an NSFetchedResultsController holding its context: the results keep the
    /// context (and so every registered object) alive.
    let context: ManagedObjectContext
    let entity: EntityDescription
    /// The sorted primary keys.
    package let ids: [Int64]
    /// Without a batch size: every object, as fetched.
    private let fetched: [ManagedObject]
    /// With a batch size: the objects of the windows loaded so far (nil in the others).
    @exclusivity(unchecked) private var windows: [ManagedObject?]
    let batchSize: Int
    /// Relationship paths prefetched for each window as it loads (Core Data prefetches per batch).
    @exclusivity(unchecked) var prefetch: [[RelationshipModel]] = []
    /// The properties each window reads (propertiesToFetch), nil for whole rows.
    @exclusivity(unchecked) var partial: PartialProperties? = nil
    /// How each window's keys are bound.
    @exclusivity(unchecked) var keyBinding = KeyBinding.integerArray
    /// Number of windows loaded so far.
    @exclusivity(unchecked) package private(set) var batchesLoaded = 0

    init(context: ManagedObjectContext, entity: EntityDescription, objects: [ManagedObject]) {
        self.context = context
        self.entity = entity
        self.ids = objects.map { $0.objectID }
        // Kept as they came: a copy into [ManagedObject?] retained every object again (and,
        // assigned as a whole, converted it through a generic cast per element).
        self.fetched = objects
        self.windows = []
        self.batchSize = 0
    }

    init(context: ManagedObjectContext, entity: EntityDescription, ids: [Int64], batchSize: Int) {
        self.context = context
        self.entity = entity
        self.ids = ids
        self.fetched = []
        self.windows = Array(repeating: nil, count: ids.count)
        self.batchSize = batchSize
    }

    package var count: Int { ids.count }

    /// The object at `index` (`objectAtIndexPath:`), loading its window first when needed.
    package func object(at index: Int) throws -> ManagedObject {
        if batchSize == 0 { return fetched[index] }
        if let o = windows[index] { return o }
        let start = (index / batchSize) * batchSize
        let end = min(start + batchSize, ids.count)
        let loaded = try context.loadBatch(entity: entity, ids: ids[start..<end], binding: keyBinding, partial: partial)
        for path in prefetch { try context.prefetch(path, from: loaded, binding: keyBinding) }
        for i in start..<end { windows[i] = loaded[i - start] }
        batchesLoaded += 1
        return windows[index]!
    }

    /// The whole array at once (`fetchedObjects`, or bridging the result to a Swift array):
    /// with a batch size, every window not loaded yet is loaded now, one query each.
    package func allObjects() throws -> [ManagedObject] {
        if batchSize == 0 { return fetched }
        var out: [ManagedObject] = []
        out.reserveCapacity(ids.count)
        for i in 0..<ids.count { out.append(try object(at: i)) }
        return out
    }
}
