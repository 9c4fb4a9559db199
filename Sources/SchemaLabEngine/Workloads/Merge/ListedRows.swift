import SchemaLabSQLite
import SchemaLabCoreData

/// The rows of a list screen in a view context: the first `held` objects of a sorted fetch,
/// kept up to date as merged changes arrive, as a fetched-results controller keeps its rows
/// (one section; Core Data's controller also reports the moves, which the lab does not).
///
/// Taking an object in reads its sort keys and the attributes the row shows: values a save
/// notification brought cost nothing; an object an object-ID notification refreshed or
/// inserted is a fault, and reading it fetches its row (one query each).
final class ListedRows {
    let entity: EntityDescription
    /// The sort keys' accessors and directions, then the shown attributes' accessors.
    let sorts: [(accessor: KeyPathAccessor, ascending: Bool)]
    let shown: [KeyPathAccessor]
    let held: Int
    private(set) var objects: [ManagedObject] = []
    /// Each listed object's sort values, in list order.
    private(set) var keys: [[SQLValue]] = []
    /// The sort values up to which the list knows every row (its last row's when it was full);
    /// nil while it holds the whole result (its first fetch found fewer than `held`, and none
    /// has fallen off the end since), when an object that sorts after its last row belongs too.
    private(set) var boundary: [SQLValue]?
    private var holdsWholeResult: Bool { boundary == nil }
    /// A listed row went (deleted, or moved past the rows it can see): the list may be shorter
    /// than a fresh fetch, as a controller's is until it fetches again.
    private(set) var lostRows = false

    init(entity: EntityDescription, sorts: [(accessor: KeyPathAccessor, ascending: Bool)], shown: [KeyPathAccessor], held: Int) {
        self.entity = entity
        self.sorts = sorts
        self.shown = shown
        self.held = held
    }

    /// Starts from a fetch's objects, in their order.
    func load(_ fetched: [ManagedObject], context: ManagedObjectContext) throws {
        objects = []
        keys = []
        lostRows = false
        for o in fetched.prefix(held) {
            keys.append(try read(o, context: context))
            objects.append(o)
        }
        boundary = fetched.count < held ? nil : keys.last
    }

    /// Applies one merge: the deleted rows go, the updated rows move to where their new values
    /// sort, the inserted objects that sort among the first `held` come in (the last rows
    /// falling off the end). An object of another entity is ignored.
    func apply(_ merged: MergedChanges, context: ManagedObjectContext) throws {
        if !merged.deleted.isEmpty || !merged.deletedIDs.isEmpty {
            let gone = Set(merged.deleted.map { ObjectIdentifier($0) })
            let goneIDs = Set(merged.deletedIDs.filter { $0.rootNumber == entity.rootNumber }.map(\.objectID))
            for i in objects.indices.reversed() where gone.contains(ObjectIdentifier(objects[i])) || goneIDs.contains(objects[i].objectID) {
                objects.remove(at: i)
                keys.remove(at: i)
                if !holdsWholeResult { lostRows = true }
            }
        }
        for (o, _) in merged.updated where belongs(o) {
            var listed = false
            if let i = objects.firstIndex(where: { $0 === o }) {
                objects.remove(at: i)
                keys.remove(at: i)
                listed = true
            }
            if try !place(o, context: context) && listed && !holdsWholeResult { lostRows = true }
        }
        for o in merged.inserted where belongs(o) { try place(o, context: context) }
    }

    /// The object is of the listed entity (or one of its sub-entities).
    private func belongs(_ o: ManagedObject) -> Bool {
        o.entity === entity || (o.entity.rootNumber == entity.rootNumber && entity.model.subentityNumbers.contains(o.entity.number))
    }

    /// Puts `o` where its sort values go, if that is among the first `held` rows and the list
    /// can tell (after its last row only when it holds the whole result). Returns whether it did.
    @discardableResult
    private func place(_ o: ManagedObject, context: ManagedObjectContext) throws -> Bool {
        let key = try read(o, context: context)
        // After every row that sorts before it or ties with it (a stable insertion).
        var low = 0
        var high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if ordered(key, before: keys[mid]) { high = mid } else { low = mid + 1 }
        }
        // After the boundary, rows the list never read may sort before it.
        if let boundary, ordered(boundary, before: key) { return false }
        guard low < held else { return false }
        objects.insert(o, at: low)
        keys.insert(key, at: low)
        if objects.count > held {
            objects.removeLast()
            keys.removeLast()
            boundary = keys.last
        }
        return true
    }

    /// Reads the sort values and the shown attributes of `o` (firing its fault when it is one).
    private func read(_ o: ManagedObject, context: ManagedObjectContext) throws -> [SQLValue] {
        let key = try sorts.map { try context.value(of: o, at: $0.accessor) }
        for s in shown { _ = try context.value(of: o, at: s) }
        return key
    }

    /// True when two rows' values are the same under SQLite's comparison (an integer 5 and a real 5.0 are).
    static func same(_ a: [SQLValue], _ b: [SQLValue]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { SQLValueOrder.compare($0, $1) == 0 }
    }

    /// True when `a` sorts strictly before `b` under the sort descriptors.
    func ordered(_ a: [SQLValue], before b: [SQLValue]) -> Bool {
        for (i, s) in sorts.enumerated() {
            let c = SQLValueOrder.compare(a[i], b[i])
            if c != 0 { return s.ascending ? c < 0 : c > 0 }
        }
        return false
    }
}

/// SQLite's order of values with the binary collation: NULL, then numbers (integers and reals
/// compared as numbers), then text (byte order of its UTF-8), then blobs.
enum SQLValueOrder {
    /// -1, 0 or 1.
    static func compare(_ a: SQLValue, _ b: SQLValue) -> Int {
        func rank(_ v: SQLValue) -> Int {
            switch v {
            case .null: return 0
            case .integer, .real: return 1
            case .text: return 2
            case .blob: return 3
            }
        }
        let (ra, rb) = (rank(a), rank(b))
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.text(let x), .text(let y)):
            let (u, v) = (Array(x.utf8), Array(y.utf8))
            return u == v ? 0 : (u.lexicographicallyPrecedes(v) ? -1 : 1)
        case (.blob(let x), .blob(let y)): return x == y ? 0 : (x.lexicographicallyPrecedes(y) ? -1 : 1)
        default:
            let (x, y) = (a.doubleValue ?? 0, b.doubleValue ?? 0)
            return x == y ? 0 : (x < y ? -1 : 1)
        }
    }
}
