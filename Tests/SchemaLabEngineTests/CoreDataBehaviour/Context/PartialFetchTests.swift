import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// propertiesToFetch on managed objects, to-many expressions in dictionaries, key binding.
@Suite("Partial faults, to-many dictionary expressions and key binding")
struct PartialFetchTests {
    func library(_ dir: String) throws -> (Store, ManagedObjectModel) {
        let (store, mom) = try ToManyTests().store(dir)
        return (store, mom)
    }

    func request(
        _ mom: ManagedObjectModel, _ entity: String, batchSize: Int = 0, prefetch: [String] = [], partial: [String]? = nil,
        binding: KeyBinding = .integerArray
    ) throws -> FetchRequest {
        let e = mom.entity(entity)!
        let sortKey = try mom.model.resolve(keyPath: entity == "Author" ? "name" : "title", from: entity)
        let paths = prefetch.map { [e.model.relationship($0)!] }
        return try FetchRequest(
            entity: e, sortDescriptors: [(sortKey, true)], batchSize: batchSize, prefetch: paths, predicate: nil,
            keyBinding: binding, partial: try partial.map { try PartialProperties($0, of: e) })
    }

    @Test(
        "A partial fetch selects the entity number, the key and the listed columns; listed values read without SQL, another fires the fault"
    )
    func partialFaults() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, mom) = try library(dir)
        let r = try request(mom, "Book", partial: ["title", "author"])
        #expect(r.sql.objects.sql == "SELECT 2, t0.Z_PK, t0.ZTITLE, t0.ZAUTHOR FROM ZBOOK t0 ORDER BY t0.ZTITLE")
        let context = ManagedObjectContext(store: store, objectModel: mom)
        store.db.beginStatementLog()
        let books = try context.execute(r).allObjects()
        #expect(books.count == 5 && books.allSatisfy { $0.isFault && $0.partial != nil })
        let title = KeyPathAccessor(try mom.model.resolve(keyPath: "title", from: "Book"), from: mom.entity("Book")!)
        let authorName = KeyPathAccessor(try mom.model.resolve(keyPath: "author.name", from: "Book"), from: mom.entity("Book")!)
        let first = books.first { $0.objectID == 1 }!
        #expect(try context.value(of: first, at: title) == .text("a1"))
        #expect(try context.value(of: first, at: authorName) == .text("Ann"), "the listed to-one is followed without the book's fault")
        #expect(store.db.executions == 2, "the fetch and the author's fault; the book stayed a fault")
        #expect(first.isFault)
        try context.fireFault(first, attribute: 0)
        #expect(first.isFault, "title (attribute 0) was listed: no SQL")
        let unlisted = try PartialProperties(["author"], of: mom.entity("Book")!)
        let r2 = try FetchRequest(
            entity: mom.entity("Book")!, sortDescriptors: [], batchSize: 0, prefetch: [], predicate: nil, partial: unlisted)
        let context2 = ManagedObjectContext(store: store, objectModel: mom)
        let before = store.db.executions
        let book = try context2.execute(r2).allObjects().first { $0.objectID == 1 }!
        #expect(try context2.value(of: book, at: title) == .text("a1"))
        #expect(!book.isFault && book.partial == nil)
        #expect(store.db.executions == before + 2, "the partial fetch, then one fault for the title")
        #expect(store.db.statementLog.last!.hasSuffix("FROM ZBOOK t0 WHERE t0.Z_PK = ?"))
    }

    @Test("count:(books) in a dictionary fetch joins the books: per author grouped, and its HAVING names the expression")
    func toManyDictionaryCount() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, mom) = try library(dir)
        let author = mom.entity("Author")!
        let books = author.model.relationship("books")!
        let name = try mom.model.resolve(keyPath: "name", from: "Author")
        let count = ResolvedKeyPath(text: "books", relationships: [], owner: "Book", attribute: .objectID)
        let shape = DictionaryShape(
            properties: [
                .init(name: "name", keyPath: name, function: nil), .init(name: "n", keyPath: count, function: .count, toMany: books),
            ],
            groupBy: [name], distinct: false,
            having: { _, names in WhereClause(sql: "\(names["n"]!) > ?", bindings: [.integer(0)]) })
        let r = try FetchRequest(
            entity: author, sortDescriptors: [(name, true)], batchSize: 0, prefetch: [], predicate: nil, dictionary: shape)
        #expect(
            r.sql.dictionaries?.sql
                == "SELECT t0.ZNAME, COUNT( t1.Z_PK) AS __var0 FROM ZAUTHOR t0 LEFT OUTER JOIN ZBOOK t1 ON t0.Z_PK = t1.ZAUTHOR GROUP BY t0.ZNAME HAVING __var0 > ? ORDER BY t0.ZNAME"
        )
        let rows = try ManagedObjectContext(store: store, objectModel: mom).executeDictionaries(r).rows
        #expect(rows == [[.text("Ann"), .integer(2)], [.text("Cy"), .integer(3)]], "Bo, without books, fails the HAVING")
    }

    @Test("A partial fetch refuses names that are not the entity's attributes or to-ones")
    func partialRefusals() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (_, mom) = try library(dir)
        #expect(throws: KeyPathError.self) { try PartialProperties(["tags"], of: mom.entity("Book")!) }
        #expect(throws: KeyPathError.self) { try PartialProperties(["nope"], of: mom.entity("Book")!) }
    }

    @Test("Batch windows and prefetches give the same objects with either key binding, in one statement per list with the integer array")
    func keyBindings() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, mom) = try library(dir)
        var seen: [[String]] = []
        for binding in KeyBinding.allCases {
            let context = ManagedObjectContext(store: store, objectModel: mom)
            store.db.beginStatementLog()
            let authors = try context.execute(try request(mom, "Author", batchSize: 2, prefetch: ["books"], binding: binding)).allObjects()
            let log = store.db.statementLog
            let windows = log.filter { $0.contains("FROM ZAUTHOR t0 WHERE t0.Z_PK IN ") }
            let prefetches = log.filter { $0.contains("FROM ZBOOK t0 WHERE t0.ZAUTHOR IN ") }
            #expect(!windows.isEmpty && !prefetches.isEmpty)
            #expect(prefetches.allSatisfy { $0.hasSuffix("ORDER BY t0.ZAUTHOR") })
            let marker = binding == .integerArray ? "IN (SELECT * FROM _Z_intarray0)" : "IN (?"
            #expect((windows + prefetches).allSatisfy { $0.contains(marker) })
            seen.append(
                authors.map { a in "\(a.objectID):" + (a.toManyTargets[0] ?? []).map { String($0.objectID) }.sorted().joined(separator: ",")
                })
        }
        #expect(seen[0] == seen[1])
        #expect(seen[0] == ["1:1,2", "2:", "3:3,4,5"])
    }
}
