import SchemaLabSQLite
import SchemaLabCoreData

/// The logical content of a store after a write workload: every object of the root
/// entity as its data set fields read through key paths (so `meta.likes` in a normalized
/// variant and `likes` in a flat one read alike), sorted by all of them; then the row
/// count of every related table, and the counters' drift.
///
/// Primary keys are left out on purpose: a batch insert that ignored conflicts leaves
/// gaps, an object import does not, and both hold the same logical rows. So every
/// strategy of an ingest, update or delete comparison is checked on what an app would
/// read back, and variants compare with the reference variant the same way.
struct LogicalRows {
    /// One entity's rows: the dictionary fetch of its field values, sorted by every one of them.
    struct Part {
        let query: FetchRequestSQL.Query
        /// The columns that hold externally stored binary data (read back as their bytes).
        let externalColumns: [Int]
        /// True when some column is binary: rows are then sorted here, on the values (an
        /// external column's references would sort differently from the bytes).
        let sortsInSwift: Bool

        init(_ parts: (query: FetchRequestSQL.Query, external: [Int], sortsInSwift: Bool)) {
            (query, externalColumns, sortsInSwift) = parts
        }

        /// The part's rows in the store, in the same order in every variant.
        func rows(_ store: Store) throws -> [[SQLValue]] {
            // Outside the statement cache: the check is not part of the case's statements.
            var rows = try store.db.rows(query.sql, query.bindings)
            guard sortsInSwift else { return rows }
            // SQL sorted the stored references; the values sort as their bytes, in every variant alike.
            for r in rows.indices {
                for c in externalColumns { rows[r][c] = try ExternalBinaryData.decode(rows[r][c], directory: store.externalDataDirectory) }
            }
            rows.sort(by: SQLiteOrder.precedes)
            return rows
        }
    }

    let model: ManagedObjectModel
    /// The root entity's rows (with an `entity` field, the first entity's).
    let first: Part
    /// A data set whose `entity` field chooses each row's entity: the same for each entity
    /// it names (by name), read after the first; their rows follow a row with the name.
    var others: [(name: String, part: Part)] = []
    /// The tables whose row counts complete the result (related entries, join tables).
    let countedTables: [String]

    /// The root entity's dictionary fetch.
    var query: FetchRequestSQL.Query { first.query }

    /// `keyPaths`: the logical field names to read (each must resolve from `entity`).
    init(model: ManagedObjectModel, entity: String, keyPaths: [String], countedTables: [String]) throws(KeyPathError) {
        self.model = model
        self.countedTables = countedTables
        first = Part(try Self.query(model: model, entity: entity, keyPaths: keyPaths))
    }

    /// The rows of a data set whose `entity` field chooses each row's entity: per entity
    /// (alphabetically) the fields its placement takes.
    init(model: ManagedObjectModel, entities: [(name: String, keyPaths: [String])]) throws(KeyPathError) {
        self.model = model
        self.countedTables = []
        first = Part(try Self.query(model: model, entity: entities[0].name, keyPaths: entities[0].keyPaths))
        for (name, keyPaths) in entities.dropFirst() {
            others.append((name, Part(try Self.query(model: model, entity: name, keyPaths: keyPaths))))
        }
    }

    private static func query(model: ManagedObjectModel, entity: String, keyPaths: [String]) throws(KeyPathError) -> (
        query: FetchRequestSQL.Query, external: [Int], sortsInSwift: Bool
    ) {
        guard let e = model.entity(entity) else { throw KeyPathError(message: "variant \(model.model.variant) has no entity '\(entity)'") }
        var props: [DictionaryShape.Property] = []
        var seen = Set<String>()
        for k in keyPaths where seen.insert(k).inserted {
            props.append(.init(name: k, keyPath: try model.model.resolve(keyPath: k, from: entity), function: nil))
        }
        let external = props.indices.filter { props[$0].keyPath.attribute.allowsExternalStorage }
        let sortsInSwift = props.contains { $0.keyPath.attribute.type == .binary }
        let shape = DictionaryShape(properties: props, groupBy: [], distinct: false, having: nil)
        do {
            let sql = try FetchRequestSQL(
                fetch: e.fetchSQL, sorts: props.map { ($0.keyPath, true) }, predicate: nil,
                limit: 0, offset: 0, dictionary: shape)
            return (sql.dictionaries!, external, sortsInSwift)
        } catch {
            throw KeyPathError(message: "\(error)")
        }
    }

    /// The signature of the store's current content.
    func signature(_ store: Store) throws -> ResultSignature {
        var rows = try first.rows(store)
        for (name, other) in others {
            rows.append([.text(name)])
            rows += try other.rows(store)
        }
        var tail: [SQLValue] = []
        for t in countedTables { tail.append(try store.db.scalar("SELECT COUNT(*) FROM \(t)")) }
        tail.append(.integer(try CounterAudit.driftingRows(store, model: model.model)))
        rows.append(tail)
        return ResultSignature.of(rows: rows)
    }
}
