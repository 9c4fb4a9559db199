/// One section of a fetched-results controller: the section key's value and how many objects.
public struct ResultsSection: Equatable, Sendable {
    public let value: SQLValue
    public let count: Int
}

/// A fetched-results controller: a fetch plus sections by a key path.
///
/// With a batch size it asks SQLite for the section counts with one GROUP BY query
/// (§5 of docs/coredata-sql.md); without one it walks the fetched objects and reads
/// the section key of each, which fires a fault per object when the key is behind
/// a to-one relationship that was not prefetched. (Core Data's own rule is a little
/// wider: it uses the GROUP BY query whenever the context has no pending changes and
/// no parent; see the README.)
public final class FetchedResultsController {
    public let context: ManagedObjectContext
    public let request: FetchRequest
    public let sectionKey: ResolvedKeyPath
    private let sectionAccessor: KeyPathAccessor
    public private(set) var fetchedObjects: FetchedObjects?
    public private(set) var sections: [ResultsSection] = []

    public init(context: ManagedObjectContext, request: FetchRequest, sectionKey: ResolvedKeyPath) {
        self.context = context
        self.request = request
        self.sectionKey = sectionKey
        self.sectionAccessor = KeyPathAccessor(sectionKey, from: request.entity)
    }

    public func performFetch() throws {
        let results = try context.execute(request)
        fetchedObjects = results
        if request.batchSize > 0 {
            let ascending = request.sortDescriptors.first?.1 ?? true
            let s = try context.db.statement(request.entity.fetchSQL.sectionCounts(section: sectionKey, ascending: ascending))
            var out: [ResultsSection] = []
            while try s.step() { out.append(ResultsSection(value: s.value(at: 0), count: Int(s.int64(at: 1)))) }
            s.reset()
            sections = out
        } else {
            var out: [ResultsSection] = []
            var current: SQLValue? = nil
            var n = 0
            for i in 0..<results.count {
                let v = try context.value(of: try results.object(at: i), at: sectionAccessor)
                if v != current {
                    if let c = current { out.append(ResultsSection(value: c, count: n)) }
                    current = v
                    n = 0
                }
                n += 1
            }
            if let c = current { out.append(ResultsSection(value: c, count: n)) }
            sections = out
        }
    }
}
