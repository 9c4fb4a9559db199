import SchemaLabSQLite

/// One section of a fetched-results controller: the section key's value and how many objects.
package struct ResultsSection: Equatable, Sendable {
    package let value: SQLValue
    package let count: Int

    /// Memberwise.
    package init(value: SQLValue, count: Int) {
        self.value = value
        self.count = count
    }
}

/// A fetched-results controller: a fetch plus sections by a key path.
///
/// Sections follow Core Data's own rule (docs: statement shapes §5): when the context has
/// no pending changes and the request has no fetchLimit or fetchOffset, one GROUP BY
/// query counts the objects per section (`SELECT key, COUNT (DISTINCT t0.Z_PK) … GROUP
/// BY key ORDER BY key`), batched or not. Otherwise the controller walks the fetched
/// objects and reads the section key of each, which fires a fault per object when the
/// key is behind a to-one relationship that was not prefetched. (The lab's contexts have
/// no parent context, the rule's other condition.)
package final class FetchedResultsController {
    package let context: ManagedObjectContext
    package let request: FetchRequest
    package let sectionKey: ResolvedKeyPath
    private let sectionAccessor: KeyPathAccessor
    @exclusivity(unchecked) package private(set) var fetchedObjects: FetchedObjects?
    @exclusivity(unchecked) package private(set) var sections: [ResultsSection] = []
    /// True when the last performFetch counted sections with the GROUP BY query.
    @exclusivity(unchecked) package private(set) var usedSectionQuery = false

    /// `request` must have been built with `section:` (it carries the section-count query).
    package init(context: ManagedObjectContext, request: FetchRequest, sectionKey: ResolvedKeyPath) {
        self.context = context
        self.request = request
        self.sectionKey = sectionKey
        self.sectionAccessor = KeyPathAccessor(sectionKey, from: request.entity)
    }

    package func performFetch() throws {
        let useQuery = !context.hasChanges && request.fetchLimit == 0 && request.fetchOffset == 0
        let results = try context.execute(request)
        fetchedObjects = results
        usedSectionQuery = useQuery
        if useQuery, let q = request.sql.sectionCounts {
            let s = try context.db.statement(q.sql)
            try s.bind(q.bindings)
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
