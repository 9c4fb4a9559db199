import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// To-many faults and prefetching on a hand-filled Author/Book/Tag store.
@Suite("To-many relationships: faults and prefetching")
struct ToManyTests {
    static let modelJSON = """
        {"format": 1, "name": "lib",
         "variants": [{"name": "A", "entities": [
            {"name": "Author", "attributes": [{"name": "name", "type": "string"}],
             "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "author"}]},
            {"name": "Book", "attributes": [{"name": "title", "type": "string"}],
             "relationships": [{"name": "author", "destination": "Author", "inverse": "books"},
                               {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "books"}]},
            {"name": "Tag", "attributes": [{"name": "label", "type": "string"}],
             "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "tags"}]}]}],
         "dataset": {"seed": 1, "entity": "Author", "counts": [3], "fields": [
            {"field": "name", "generator": {"kind": "text", "minLength": 3, "maxLength": 8}}]},
         "workloads": [{"name": "i", "kind": "insert"}]}
        """

    /// Authors 1-3 with 2, 0 and 3 books; books 1 and 3 tagged.
    func store(_ dir: String) throws -> (Store, ManagedObjectModel) {
        let plan = try TestSupport.decode(Self.modelJSON)
        let model = plan.models[0]
        let store = try Store.create(path: dir + "/lib.sqlite", model: model)
        let join = model.entity("Book")!.relationship("tags")!
        guard case .joinTable(let table, let bookColumn, let tagColumn) = join.storage else {
            throw SQLiteError(code: 1, message: "no join table")
        }
        try store.db.executeScript(
            """
            INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'Ann'), (2, 1, 1, 'Bo'), (3, 1, 1, 'Cy');
            INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZAUTHOR, ZTITLE) VALUES (1, 2, 1, 1, 'a1'), (2, 2, 1, 1, 'a2'),
              (3, 2, 1, 3, 'c1'), (4, 2, 1, 3, 'c2'), (5, 2, 1, 3, NULL);
            INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZLABEL) VALUES (1, 3, 1, 'x'), (2, 3, 1, 'y');
            INSERT INTO \(table) (\(bookColumn), \(tagColumn)) VALUES (1, 1), (1, 2), (3, 2);
            """)
        return (store, ManagedObjectModel(model))
    }

    func authors(_ context: ManagedObjectContext, _ mom: ManagedObjectModel, prefetch: [String] = []) throws -> [ManagedObject] {
        let e = mom.entity("Author")!
        let name = try mom.model.resolve(keyPath: "name", from: "Author")
        let paths = prefetch.map { p in
            p.split(separator: ".").reduce(into: (e.model, [RelationshipModel]())) { acc, part in
                let r = acc.0.relationship(String(part))!
                acc.1.append(r)
                acc.0 = mom.model.entity(r.destination)!
            }.1
        }
        let r = try FetchRequest(entity: e, sortDescriptors: [(name, true)], batchSize: 0, prefetch: paths, predicate: nil)
        return try context.execute(r).allObjects()
    }

    @Test("A to-many fault fetches the destination's keys once; each book is then its own fault")
    func toManyFault() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, mom) = try store(dir)
        let context = ManagedObjectContext(store: store, objectModel: mom)
        store.db.beginStatementLog()
        let list = try authors(context, mom)
        let books = mom.entity("Author")!.toManyIndex("books")!
        #expect(try context.toMany(list[0], books).map(\.objectID).sorted() == [1, 2])
        #expect(try context.toMany(list[1], books).isEmpty)
        #expect(try context.toMany(list[2], books).count == 3)
        _ = try context.toMany(list[0], books)
        #expect(store.db.executions == 1 + 3, "one fetch, one fault per author, none when read again")
        #expect(store.db.statementLog[1] == "SELECT 0, t0.Z_PK FROM ZBOOK t0 WHERE t0.ZAUTHOR = ?")
        let key = try TouchKey.resolve("books.title", from: mom.entity("Author")!, in: mom.model)
        #expect(try context.touch(key, on: list[2]) == 2, "c1 and c2; the third title is NULL")
        #expect(store.db.executions == 4 + 3, "each of Cy's books fired its own fault")
    }

    @Test("Prefetching a to-many fills every author's set with one query, and a to-many through it with one more")
    func prefetchToMany() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, mom) = try store(dir)
        let context = ManagedObjectContext(store: store, objectModel: mom)
        store.db.beginStatementLog()
        let list = try authors(context, mom, prefetch: ["books.tags"])
        #expect(store.db.executions == 3)
        // Core Data's prefetch: the keys through the integer array, sorted by the source's key.
        #expect(
            store.db.statementLog[1]
                == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZAUTHOR FROM ZBOOK t0 WHERE t0.ZAUTHOR IN (SELECT * FROM _Z_intarray0) ORDER BY t0.ZAUTHOR"
        )
        #expect(store.db.statementLog[2].contains("FROM Z_2TAGS t1 JOIN ZTAG t0"))
        let books = mom.entity("Author")!.toManyIndex("books")!
        let tags = mom.entity("Book")!.toManyIndex("tags")!
        #expect(list.map { $0.toManyTargets[books]?.count } == [2, 0, 3])
        let a1 = list[0].toManyTargets[books]!.first { $0.objectID == 1 }!
        #expect(!a1.isFault)
        #expect(a1.toManyTargets[tags]!.map(\.objectID).sorted() == [1, 2])
        let key = try TouchKey.resolve("books.title", from: mom.entity("Author")!, in: mom.model)
        var read = 0
        for a in list { read += try context.touch(key, on: a) }
        #expect(read == 4)
        #expect(store.db.executions == 3, "everything was prefetched: no fault fires")
    }

    @Test("A many-to-many fault goes through the join table")
    func manyToManyFault() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, mom) = try store(dir)
        let context = ManagedObjectContext(store: store, objectModel: mom)
        let book = mom.entity("Book")!
        let r = FetchRequest(entity: book)
        let all = try context.execute(r).allObjects()
        let tags = book.toManyIndex("tags")!
        let byID = Dictionary(uniqueKeysWithValues: all.map { ($0.objectID, $0) })
        #expect(try context.toMany(byID[1]!, tags).map(\.objectID).sorted() == [1, 2])
        #expect(try context.toMany(byID[3]!, tags).map(\.objectID) == [2])
        #expect(try context.toMany(byID[2]!, tags).isEmpty)
    }
}
