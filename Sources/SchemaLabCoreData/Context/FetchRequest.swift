/// A fetch request, resolved against one model, with its statements rendered.
package struct FetchRequest {
    package let entity: EntityDescription
    /// Sort descriptors: resolved key path and ascending.
    package let sortDescriptors: [(ResolvedKeyPath, Bool)]
    /// fetchBatchSize; 0 fetches every object at once.
    package let batchSize: Int
    /// relationshipKeyPathsForPrefetching: each a path of relationships (to-one or to-many).
    package let prefetch: [[RelationshipModel]]
    package let fetchLimit: Int
    package let fetchOffset: Int
    /// false: fetch IDs only; the objects are faults until read.
    package let includesPropertyValues: Bool
    /// true (Core Data's default): fetched rows are snapshots and objects stay faults until read.
    package let returnsObjectsAsFaults: Bool
    /// propertiesToFetch on managed objects: the objects are partial faults (nil: whole rows).
    package let partial: PartialProperties?
    /// How batch windows and prefetches bind their lists of keys.
    package let keyBinding: KeyBinding
    /// True when the request has a predicate.
    package let hasPredicate: Bool
    /// The statements this request issues.
    package let sql: FetchRequestSQL

    /// A request without a predicate (cannot fail).
    package init(
        entity: EntityDescription, sortDescriptors: [(ResolvedKeyPath, Bool)] = [], batchSize: Int = 0,
        prefetch: [[RelationshipModel]] = []
    ) {
        try! self.init(
            entity: entity, sortDescriptors: sortDescriptors, batchSize: batchSize, prefetch: prefetch,
            predicate: nil)
    }

    /// The full request. `predicate` compiles the predicate against each statement's joins;
    /// `section` adds the controller's section-count query; `dictionary` the dictionary query.
    package init(
        entity: EntityDescription, sortDescriptors: [(ResolvedKeyPath, Bool)], batchSize: Int,
        prefetch: [[RelationshipModel]], predicate: PredicateCompilation?, fetchLimit: Int = 0, fetchOffset: Int = 0,
        includesPropertyValues: Bool = true, returnsObjectsAsFaults: Bool = false,
        section: (ResolvedKeyPath, ascending: Bool)? = nil, dictionary: DictionaryShape? = nil,
        keyBinding: KeyBinding = .integerArray, partial: PartialProperties? = nil
    ) throws {
        self.keyBinding = keyBinding
        self.partial = partial
        self.entity = entity
        self.sortDescriptors = sortDescriptors
        self.batchSize = batchSize
        self.prefetch = prefetch
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.includesPropertyValues = includesPropertyValues
        self.returnsObjectsAsFaults = returnsObjectsAsFaults
        self.hasPredicate = predicate != nil
        self.sql = try FetchRequestSQL(
            fetch: entity.fetchSQL, sorts: sortDescriptors, predicate: predicate,
            limit: fetchLimit, offset: fetchOffset, section: section, dictionary: dictionary,
            objectColumns: partial?.selectList)
    }
}
