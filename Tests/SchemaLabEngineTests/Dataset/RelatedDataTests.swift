import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

@Suite("Related data: to-many and many-to-many relationships")
struct RelatedDataTests {
    static func libraryPlan() throws -> ScenarioPlan {
        try ScenarioPlan(ScenarioDecoder.load(path: TestSupport.libraryScenario))
    }

    /// Creates and fills a store for one variant, as LabRunner.fill does.
    func fill(_ plan: ScenarioPlan, variant: String, count: Int, in dir: String) throws -> Store {
        let model = try #require(plan.models.first { $0.variant == variant })
        let mom = ManagedObjectModel(model)
        let data = GeneratedData(spec: plan.scenario.dataset, count: count)
        let store = try Store.create(path: dir + "/\(variant).sqlite", model: model)
        let context = ManagedObjectContext(store: store, objectModel: mom)
        try InsertWorkload.insertAll(data, placement: try plan.placement(for: mom), into: context)
        try context.save()
        return store
    }

    /// Book.tags' join table and its columns (Book's Z_PK, Tag's Z_PK) in one variant.
    func tagsJoinTable(_ plan: ScenarioPlan, variant: String) throws -> (table: String, book: String, tag: String) {
        let model = try #require(plan.models.first { $0.variant == variant })
        let r = try #require(model.entity("Book")?.relationship("tags"))
        guard case .joinTable(let table, let own, let other) = r.storage else {
            Issue.record("Book.tags is not stored in a join table: \(r.storage)")
            return ("", "", "")
        }
        return (table, own, other)
    }

    @Test("Both variants hold the same authors, books, tags and links, checked with SQL")
    func sameGraphInEveryVariant() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = try Self.libraryPlan()
        let count = 80
        let norm = try fill(plan, variant: "normalized", count: count, in: dir)
        let denorm = try fill(plan, variant: "denormalized", count: count, in: dir)
        let (jt, bookCol, tagCol) = try tagsJoinTable(plan, variant: "normalized")
        #expect(try tagsJoinTable(plan, variant: "denormalized") == (jt, bookCol, tagCol))
        let data = GeneratedData(spec: plan.scenario.dataset, count: count)
        let books = try #require(data.relation("books"))
        let tags = try #require(books.relation("tags"))

        // Row counts: the same in both variants, and what the data set says.
        func counts(_ s: Store) throws -> [SQLValue] {
            try ["ZAUTHOR", "ZBOOK", "ZTAG", jt].map { try s.db.scalar("SELECT COUNT(*) FROM \($0)") }
        }
        let c = try counts(norm)
        #expect(try counts(denorm) == c)
        #expect(c == [.integer(Int64(count)), .integer(Int64(books.count)), .integer(50), .integer(Int64(tags.links.count))])
        #expect(books.count > count, "the fan-out 0...6 should give more books than authors")
        #expect(tags.links.count > books.count, "the fan-out 0...20 should give more links than books")

        // Per author name, the number of books.
        let perAuthor =
            "SELECT a.ZNAME, COUNT(b.Z_PK) FROM ZAUTHOR a LEFT JOIN ZBOOK b ON b.ZAUTHOR = a.Z_PK GROUP BY a.Z_PK ORDER BY a.ZNAME"
        let pa = try norm.db.rows(perAuthor)
        #expect(pa.count == count)
        #expect(try denorm.db.rows(perAuthor) == pa)
        let bookCounts = pa.compactMap { $0[1].integerValue }
        #expect(bookCounts.count == count)
        #expect(bookCounts.allSatisfy { (0...6).contains($0) }, "fan-out outside 0...6: \(bookCounts)")
        #expect(Set(bookCounts).count >= 4, "fan-outs should vary: \(Set(bookCounts))")

        // Per book title: its author and year.
        let perBook = "SELECT b.ZTITLE, a.ZNAME, b.ZYEAR FROM ZBOOK b JOIN ZAUTHOR a ON b.ZAUTHOR = a.Z_PK ORDER BY b.ZTITLE"
        let pb = try norm.db.rows(perBook)
        #expect(pb.count == books.count)
        #expect(try denorm.db.rows(perBook) == pb)

        // Per book title: the set of tag names.
        let tagSets = """
            SELECT b.ZTITLE, t.ZNAME FROM ZBOOK b JOIN \(jt) j ON j.\(bookCol) = b.Z_PK JOIN ZTAG t ON t.Z_PK = j.\(tagCol)
            ORDER BY b.ZTITLE, t.ZNAME
            """
        let ts = try norm.db.rows(tagSets)
        #expect(ts.count == tags.links.count)
        #expect(try denorm.db.rows(tagSets) == ts)

        for s in [norm, denorm] {
            // Tag fan-outs within 0...20, and varied.
            let perBookTags = try s.db.rows(
                "SELECT COUNT(j.\(tagCol)) FROM ZBOOK b LEFT JOIN \(jt) j ON j.\(bookCol) = b.Z_PK GROUP BY b.Z_PK"
            )
            .compactMap { $0[0].integerValue }
            #expect(perBookTags.count == books.count)
            #expect(perBookTags.allSatisfy { (0...20).contains($0) }, "tag fan-out outside 0...20")
            #expect(Set(perBookTags).count >= 8)
            // No duplicate pairs, and every link points at existing rows.
            #expect(
                try s.db.scalar(
                    "SELECT COUNT(*) FROM (SELECT \(bookCol), \(tagCol) FROM \(jt) GROUP BY \(bookCol), \(tagCol) HAVING COUNT(*) > 1)")
                    == .integer(0))
            #expect(
                try s.db.scalar(
                    """
                    SELECT COUNT(*) FROM \(jt) j LEFT JOIN ZBOOK b ON b.Z_PK = j.\(bookCol) LEFT JOIN ZTAG t ON t.Z_PK = j.\(tagCol)
                    WHERE b.Z_PK IS NULL OR t.Z_PK IS NULL
                    """) == .integer(0))
            // Every book has its author.
            #expect(try s.db.scalar("SELECT COUNT(*) FROM ZBOOK WHERE ZAUTHOR IS NULL") == .integer(0))
        }

        // The denormalized copies equal what the normalized variant computes with joins.
        #expect(
            try denorm.db.scalar(
                "SELECT COUNT(*) FROM ZAUTHOR a WHERE a.ZBOOKCOUNT IS NOT (SELECT COUNT(*) FROM ZBOOK b WHERE b.ZAUTHOR = a.Z_PK)")
                == .integer(0))
        #expect(try denorm.db.scalar("SELECT SUM(ZBOOKCOUNT) FROM ZAUTHOR") == .integer(Int64(books.count)))
        #expect(
            try denorm.db.scalar("SELECT COUNT(*) FROM ZBOOK b JOIN ZAUTHOR a ON b.ZAUTHOR = a.Z_PK WHERE b.ZAUTHORNAME IS NOT a.ZNAME")
                == .integer(0))
        #expect(try denorm.db.scalar("SELECT COUNT(ZAUTHORNAME) FROM ZBOOK") == .integer(Int64(books.count)))
        #expect(
            try denorm.db.scalar(
                "SELECT COUNT(*) FROM ZBOOK b WHERE b.ZTAGCOUNT IS NOT (SELECT COUNT(*) FROM \(jt) j WHERE j.\(bookCol) = b.Z_PK)")
                == .integer(0))
        #expect(try denorm.db.scalar("SELECT SUM(ZTAGCOUNT) FROM ZBOOK") == .integer(Int64(tags.links.count)))
    }

    @Test("Pool links are distinct per row, within the fan-out, and Zipf-popular members are linked most")
    func poolPicks() throws {
        let plan = try Self.libraryPlan()
        let data = GeneratedData(spec: plan.scenario.dataset, count: 200)
        let tags = try #require(data.relation("books")?.relation("tags"))
        #expect(tags.isPool)
        #expect(tags.count == 50)
        #expect(tags.offsets.count == data.relation("books")!.count + 1)
        var perMember = [Int](repeating: 0, count: 50)
        var sawMany = false, sawFew = false
        for p in 0..<(tags.offsets.count - 1) {
            let t = tags.targets(p)
            #expect(Set(t).count == t.count, "row \(p) links a pool member twice: \(t)")
            #expect((0...20).contains(t.count))
            #expect(t.allSatisfy { (0..<50).contains($0) })
            if t.count * 4 > 50 { sawMany = true } else if t.count > 0 { sawFew = true }
            for m in t { perMember[m] += 1 }
        }
        #expect(sawMany && sawFew, "both picking methods should be exercised")
        #expect(perMember[0] > 2 * perMember[49], "Zipf popularity: member 0 \(perMember[0]), member 49 \(perMember[49])")
        // Without popularity the picks are uniform: the first and last members are linked about equally.
        var uniform = plan.scenario.dataset
        uniform.related[0].related[0].popularity = nil
        let u = try #require(GeneratedData(spec: uniform, count: 200).relation("books")?.relation("tags"))
        var uPer = [Int](repeating: 0, count: 50)
        for l in u.links { uPer[l] += 1 }
        #expect(uPer[0] < 2 * uPer[49] && uPer[49] < 2 * uPer[0], "uniform: \(uPer[0]) vs \(uPer[49])")
    }

    @Test("Same seed, same graph; a smaller count is a prefix; other fields do not move the graph")
    func determinism() throws {
        let plan = try Self.libraryPlan()
        let ds = plan.scenario.dataset
        let a = GeneratedData(spec: ds, count: 80)
        let b = GeneratedData(spec: ds, count: 80)
        #expect(a.digest == b.digest)
        #expect(a.relation("books")?.offsets == b.relation("books")?.offsets)
        #expect(a.relation("books")?.relation("tags")?.links == b.relation("books")?.relation("tags")?.links)
        var other = ds
        other.seed = 43
        #expect(GeneratedData(spec: other, count: 80).digest != a.digest)
        // The digest covers the related data: only the pool picks change here.
        var flat = ds
        flat.related[0].related[0].popularity = nil
        let f = GeneratedData(spec: flat, count: 80)
        #expect(f.columns == a.columns)
        #expect(f.digest != a.digest)

        // A smaller count: its root rows, books and links are a prefix of the larger one's.
        let small = GeneratedData(spec: ds, count: 30)
        #expect(small.columns == a.columns.map { Array($0.prefix(30)) })
        let sb = try #require(small.relation("books")), ab = try #require(a.relation("books"))
        #expect(sb.offsets == Array(ab.offsets.prefix(31)))
        #expect(sb.count == ab.offsets[30])
        #expect(sb.count < ab.count)
        #expect(sb.columns == ab.columns.map { Array($0.prefix(sb.count)) })
        let st = try #require(sb.relation("tags")), at = try #require(ab.relation("tags"))
        #expect(st.offsets == Array(at.offsets.prefix(sb.count + 1)))
        #expect(st.links == Array(at.links.prefix(st.links.count)))
        #expect(st.columns == at.columns)

        // Dropping a child field changes nothing else.
        var fewer = ds
        fewer.related[0].fields.removeAll { $0.names == ["year"] }
        let g = GeneratedData(spec: fewer, count: 80)
        #expect(g.relation("books")?.offsets == ab.offsets)
        #expect(g.relation("books")?.column("title") == ab.column("title"))
        #expect(g.relation("books")?.column("year") == nil)
        #expect(g.relation("books")?.relation("tags")?.links == at.links)
        // Derived fields: the count is the fan-out, the parent field the parent's value.
        let bookCount = try #require(a.column("bookCount")).compactMap(\.integerValue)
        #expect(bookCount == (0..<80).map { Int64(ab.fanOut($0)) })
        let names = try #require(a.column("name")), authorNames = try #require(ab.column("authorName"))
        for p in 0..<80 { for c in ab.targets(p) { #expect(authorNames[c] == names[p]) } }
    }

    @Test("Many-to-many without a pool: new objects per row; the save writes each link once")
    func manyToManyNewObjects() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = try TestSupport.decode(
            """
            {"format": 1, "name": "m2m", "variants": [{"name": "A", "entities": [
              {"name": "Book", "attributes": [{"name": "title", "type": "string"}],
               "relationships": [{"name": "tags", "destination": "Tag", "toMany": true, "inverse": "books"}]},
              {"name": "Tag", "attributes": [{"name": "name", "type": "string"}],
               "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "tags"}]}]}],
             "dataset": {"seed": 3, "entity": "Book", "counts": [40],
               "fields": [{"field": "title", "generator": {"kind": "uuid"}}],
               "related": [{"relationship": "tags", "fanOut": {"kind": "constant", "value": 3},
                            "fields": [{"field": "name", "generator": {"kind": "uuid", "prefix": "t-"}}]}]},
             "workloads": [{"name": "insert", "kind": "insert"}]}
            """)
        let model = plan.models[0]
        let mom = ManagedObjectModel(model)
        let book = try #require(mom.entity("Book")), tag = try #require(mom.entity("Tag"))
        #expect(book.linkInserts.map(\.sql) == ["INSERT INTO Z_1TAGS(Z_1BOOKS, Z_2TAGS) VALUES(?, ?)"])
        #expect(tag.linkInserts.isEmpty, "the link is written from one side only")
        let store = try Store.create(path: dir + "/m2m.sqlite", model: model)
        let context = ManagedObjectContext(store: store, objectModel: mom)
        try InsertWorkload.insertAll(
            GeneratedData(spec: plan.scenario.dataset, count: 40), placement: try plan.placement(for: mom), into: context)
        try context.save()
        #expect(try store.db.scalar("SELECT COUNT(*) FROM ZBOOK") == .integer(40))
        #expect(try store.db.scalar("SELECT COUNT(*) FROM ZTAG") == .integer(120))
        #expect(try store.db.scalar("SELECT COUNT(*) FROM Z_1TAGS") == .integer(120))
        #expect(try store.db.scalar("SELECT COUNT(DISTINCT Z_2TAGS) FROM Z_1TAGS") == .integer(120))
        #expect(
            try store.db.scalar("SELECT MIN(c) || '-' || MAX(c) FROM (SELECT COUNT(*) c FROM Z_1TAGS GROUP BY Z_1BOOKS)") == .text("3-3"))
        // Z_MAX was advanced for both entities in the same save.
        #expect(try store.db.rows("SELECT Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [[.integer(40)], [.integer(120)]])
    }

    // MARK: Errors

    /// The library variants with a data set built from `fields` and `related`.
    func decodeLibrary(fields: String = #"[{"field": "name", "generator": {"kind": "uuid"}}]"#, related: String) throws -> ScenarioPlan {
        let text = try String(contentsOfFile: TestSupport.libraryScenario, encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let variants = TestSupport.json(try #require(object["variants"]))
        return try TestSupport.decode(
            """
            {"format": 1, "name": "lib", "variants": \(variants),
             "dataset": {"seed": 1, "entity": "Author", "counts": [10], "fields": \(fields), "related": \(related)},
             "workloads": [{"name": "insert", "kind": "insert"}]}
            """)
    }

    static let title = #"[{"field": "title", "generator": {"kind": "uuid"}}]"#
    static let tagsPool = #"{"relationship": "tags", "pool": {"count": 5}, "fanOut": {"kind": "constant", "value": 1}}"#

    func books(fanOut: String = #"{"kind": "constant", "value": 2}"#, fields: String = title, related: String = "[\(tagsPool)]") -> String {
        #"[{"relationship": "books", "fanOut": \#(fanOut), "fields": \#(fields), "related": \#(related)}]"#
    }

    func expectError(
        _ path: String, _ fragments: [String], fields: String? = nil, related: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            if let fields { _ = try decodeLibrary(fields: fields, related: related) } else { _ = try decodeLibrary(related: related) }
            Issue.record("expected an error at \(path)", sourceLocation: sourceLocation)
        } catch let e as ScenarioError {
            #expect(e.path == path, "\(e)", sourceLocation: sourceLocation)
            for f in fragments { #expect(e.message.contains(f), "\(e)", sourceLocation: sourceLocation) }
        } catch {
            Issue.record("expected a ScenarioError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("The error scenarios' valid baseline decodes")
    func baseline() throws {
        let plan = try decodeLibrary(related: books())
        #expect(plan.scenario.dataset.related.first?.related.first?.pool?.count == 5)
    }

    @Test("A pool on a one-to-many relationship is an error with its JSON path")
    func poolOnOneToMany() {
        expectError(
            "$.dataset.related[0].pool", ["variant normalized", "one-to-many", "many-to-many"],
            related:
                #"[{"relationship": "books", "pool": {"count": 5, "fields": \#(Self.title)}, "fanOut": {"kind": "constant", "value": 1}}]"#)
    }

    @Test("A related entry must name a to-many relationship of the entity above it")
    func notToMany() {
        expectError(
            "$.dataset.related[0].related[1].relationship", ["variant normalized", "Book.author", "to-one"],
            related: books(related: #"[\#(Self.tagsPool), {"relationship": "author", "fanOut": {"kind": "constant", "value": 1}}]"#))
        expectError(
            "$.dataset.related[0].relationship", ["variant normalized", "Author has no relationship 'reviews'"],
            related: #"[{"relationship": "reviews", "fanOut": {"kind": "constant", "value": 1}}]"#)
    }

    @Test("A fan-out must be a non-negative integer generator")
    func negativeFanOut() {
        expectError(
            "$.dataset.related[0].fanOut.min", ["0 or greater", "-1"],
            related: books(fanOut: #"{"kind": "uniformInt", "min": -1, "max": 3}"#))
        expectError(
            "$.dataset.related[0].fanOut.value", ["0 or greater"],
            related: books(fanOut: #"{"kind": "constant", "value": -2}"#))
        expectError(
            "$.dataset.related[0].fanOut.values[1]", ["-3"],
            related: books(fanOut: #"{"kind": "choice", "values": [1, -3]}"#))
        expectError(
            "$.dataset.related[0].fanOut.kind", ["integer generator"],
            related: books(fanOut: #"{"kind": "uniformDouble", "min": 0, "max": 3}"#))
    }

    @Test("countOf must name a relationship filled by the same entry")
    func countOfUnknown() {
        expectError(
            "$.dataset.fields[1].generator.relationship", ["'reviews'", "books"],
            fields:
                #"[{"field": "name", "generator": {"kind": "uuid"}}, {"field": "bookCount", "generator": {"kind": "countOf", "relationship": "reviews"}, "optional": true}]"#,
            related: books())
        expectError(
            "$.dataset.related[0].fields[1].generator.relationship", ["'books'", "tags"],
            related: books(
                fields:
                    #"[{"field": "title", "generator": {"kind": "uuid"}}, {"field": "tagCount", "generator": {"kind": "countOf", "relationship": "books"}, "optional": true}]"#
            ))
    }

    @Test("parentField needs a parent level that generates the field")
    func parentFieldErrors() {
        expectError(
            "$.dataset.fields[1].generator", ["root entity has no parent"],
            fields:
                #"[{"field": "name", "generator": {"kind": "uuid"}}, {"field": "bookCount", "generator": {"kind": "parentField", "field": "name"}, "optional": true}]"#,
            related: books())
        expectError(
            "$.dataset.related[0].fields[1].generator.field", ["'nickname'"],
            related: books(
                fields:
                    #"[{"field": "title", "generator": {"kind": "uuid"}}, {"field": "authorName", "generator": {"kind": "parentField", "field": "nickname"}, "optional": true}]"#
            ))
    }

    @Test("A field with nowhere to go is an error unless it is optional")
    func nowhereToGo() throws {
        let countField = #"{"field": "bookCount", "generator": {"kind": "countOf", "relationship": "books"}}"#
        expectError(
            "$.dataset.fields[1]", ["variant normalized", "'bookCount' has nowhere to go"],
            fields: #"[{"field": "name", "generator": {"kind": "uuid"}}, \#(countField)]"#, related: books())
        let nameField = #"{"field": "authorName", "generator": {"kind": "parentField", "field": "name"}}"#
        expectError(
            "$.dataset.related[0].fields[1]", ["variant normalized", "'authorName' has nowhere to go"],
            related: books(fields: #"[{"field": "title", "generator": {"kind": "uuid"}}, \#(nameField)]"#))
        // The same fields marked optional are accepted.
        let optionalCount = countField.dropLast() + #", "optional": true}"#
        let optionalName = nameField.dropLast() + #", "optional": true}"#
        _ = try decodeLibrary(
            fields: #"[{"field": "name", "generator": {"kind": "uuid"}}, \#(optionalCount)]"#,
            related: books(fields: #"[{"field": "title", "generator": {"kind": "uuid"}}, \#(optionalName)]"#))
    }

    @Test("popularity needs a pool; a pool entry takes no fields of its own")
    func poolShape() {
        expectError(
            "$.dataset.related[0].popularity", ["pool"],
            related: books(fanOut: #"{"kind": "constant", "value": 1}, "popularity": {"zipf": 1}"#))
        expectError(
            "$.dataset.related[0].related[0].fields", ["inside 'pool'"],
            related: books(
                related: #"[{"relationship": "tags", "pool": {"count": 5}, "fields": [], "fanOut": {"kind": "constant", "value": 1}}]"#))
    }
}
