import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// Entity inheritance stored as Core Data stores it: one table per hierarchy, entity numbers
/// depth first, `Z_SUPER`, the root's `Z_MAX`, the `Z_ENT` index, suffixed columns, the
/// destination-entity column of a to-one, and fetches that read `Z_ENT` or restrict it;
/// each rule checked through SQL against a store.
@Suite("Entity inheritance: one table per hierarchy, Z_ENT, Z_SUPER, restrictions")
struct InheritanceTests {
    /// Item (abstract) > Media (abstract) > Photo, Video; Item > Note; Album and Zone stand
    /// alone. `Note` sorts before `Photo` but is numbered after Media's whole subtree.
    static let modelJSON = """
        {"format": 1, "name": "inherit",
         "variants": [{"name": "A", "entities": [
            {"name": "Album", "attributes": [{"name": "name", "type": "string"}],
             "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "album"},
                               {"name": "cover", "destination": "Media", "inverse": "coverOf"}]},
            {"name": "Item", "abstract": true,
             "attributes": [{"name": "title", "type": "string"}, {"name": "created", "type": "date"}, {"name": "starred", "type": "bool", "default": true}],
             "relationships": [{"name": "album", "destination": "Album", "inverse": "items"}]},
            {"name": "Media", "parent": "Item", "abstract": true, "attributes": [{"name": "bytes", "type": "integer64"}],
             "relationships": [{"name": "coverOf", "destination": "Album", "toMany": true, "inverse": "cover"}]},
            {"name": "Photo", "parent": "Media", "attributes": [{"name": "width", "type": "integer32"}]},
            {"name": "Video", "parent": "Media", "attributes": [{"name": "width", "type": "integer32"}, {"name": "seconds", "type": "double"}]},
            {"name": "Note", "parent": "Item", "attributes": [{"name": "body", "type": "string"}]},
            {"name": "Zone", "attributes": [{"name": "code", "type": "string"}]}
          ], "indexes": [{"name": "byAlbumCreated", "entity": "Item", "elements": ["album", {"key": "created", "order": "descending"}]},
                         {"name": "byAlbum", "entity": "Item", "elements": ["album"]}]}],
         "dataset": {"seed": 1, "entity": "Photo", "counts": [3], "fields": [
            {"field": "title", "generator": {"kind": "text", "minLength": 3, "maxLength": 8}}]},
         "workloads": [{"name": "i", "kind": "insert"}]}
        """

    static func model() throws -> ResolvedModel { try TestSupport.decode(modelJSON).models[0] }

    @Test("Entity numbers are depth first: a hierarchy's entities are one range; Z_SUPER names the parent")
    func numbering() throws {
        let m = try Self.model()
        #expect(m.entities.map(\.name) == ["Album", "Item", "Media", "Photo", "Video", "Note", "Zone"])
        #expect(m.entities.map(\.number) == [1, 2, 3, 4, 5, 6, 7])
        #expect(m.entity("Item")!.subentityNumbers == [3, 4, 5, 6])
        #expect(m.entity("Media")!.subentityNumbers == [4, 5])
        let ddl = SchemaDDL(model: m).statements
        #expect(ddl.contains("INSERT INTO Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES(4, 'Photo', 3, 0)"))
        #expect(ddl.contains("INSERT INTO Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES(2, 'Item', 0, 0)"))
    }

    @Test("One table per hierarchy, named after the root: every sub-entity's columns, a clash suffixed, the Z_ENT index")
    func table() throws {
        let ddl = SchemaDDL(model: try Self.model()).statements
        #expect(!ddl.contains { $0.hasPrefix("CREATE TABLE ZPHOTO") || $0.hasPrefix("CREATE TABLE ZMEDIA") })
        #expect(
            ddl.contains(
                "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSTARRED INTEGER, ZALBUM INTEGER, ZBYTES INTEGER, ZWIDTH INTEGER, ZWIDTH1 INTEGER, ZCREATED TIMESTAMP, ZSECONDS FLOAT, ZTITLE VARCHAR, ZBODY VARCHAR )"
            ), "\(ddl)")
        #expect(ddl.contains("CREATE INDEX IF NOT EXISTS ZITEM_Z_ENT_INDEX ON ZITEM (Z_ENT)"))
        #expect(!ddl.contains { $0.contains("ZALBUM_Z_ENT_INDEX") })
        // An index with a relationship element indexes its foreign key; one non-unique element
        // on a relationship is the key's own index, not created again.
        #expect(
            ddl.contains(
                "CREATE INDEX IF NOT EXISTS Z_Item_byAlbumCreated ON ZITEM (ZALBUM COLLATE BINARY ASC, ZCREATED COLLATE BINARY DESC)"))
        #expect(!ddl.contains { $0.contains("Z_Item_byAlbum ") })
        #expect(ddl.contains("CREATE INDEX IF NOT EXISTS ZITEM_ZALBUM_INDEX ON ZITEM (ZALBUM)"))
        #expect(ddl.filter { $0.contains("ZITEM_ZALBUM_INDEX") }.count == 1, "an inherited key is indexed once")
        // A to-one whose destination has sub-entities keeps the destination's entity number.
        #expect(
            ddl.contains {
                $0.hasPrefix(
                    "CREATE TABLE ZALBUM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOVER INTEGER, Z3_COVER INTEGER")
            })
    }

    @Test("Fetches: the root reads Z_ENT unrestricted, a leaf restricts Z_ENT = ?, a middle entity a range, after the predicate")
    func fetchSQL() throws {
        let m = try Self.model()
        func fetch(_ name: String) -> FetchSQL { FetchSQL(model: m, entity: m.entity(name)!) }
        let created = try m.resolve(keyPath: "created", from: "Item")
        #expect(
            fetch("Item").objects(sortedBy: [(created, false)])
                == "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZCREATED, t0.ZSTARRED, t0.ZTITLE, t0.ZALBUM, t0.ZBYTES, t0.ZWIDTH, t0.ZSECONDS, t0.ZWIDTH1, t0.ZBODY FROM ZITEM t0 ORDER BY t0.ZCREATED DESC"
        )
        #expect(fetch("Photo").ids(sortedBy: []) == "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE t0.Z_ENT = ?")
        #expect(fetch("Media").ids(sortedBy: []) == "SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 WHERE ( t0.Z_ENT >= ? AND  t0.Z_ENT <= ?)")
        #expect(fetch("Zone").ids(sortedBy: []) == "SELECT 0, t0.Z_PK FROM ZZONE t0")
        let restricted = FetchSQL.restricted(WhereClause(sql: "t0.ZWIDTH > ?", bindings: [.integer(5)]), to: m.entity("Photo")!)
        #expect(restricted == WhereClause(sql: "(t0.ZWIDTH > ? AND t0.Z_ENT = ?)", bindings: [.integer(5), .integer(4)]))
    }

    /// A store with two photos, a video and a note in one album whose cover is the video.
    func filled(_ dir: String) throws -> (Store, ManagedObjectModel, ManagedObjectContext) {
        let m = try Self.model()
        let store = try Store.create(path: dir + "/inherit.sqlite", model: m)
        let mom = ManagedObjectModel(m)
        let context = ManagedObjectContext(store: store, objectModel: mom)
        func values(_ e: String, _ pairs: [String: SQLValue]) -> [SQLValue] {
            mom.entity(e)!.model.attributes.map { pairs[$0.name] ?? .null }
        }
        let album = context.insert(mom.entity("Album")!, values: values("Album", ["name": .text("trip")]))
        let p1 = context.insert(
            mom.entity("Photo")!, values: values("Photo", ["title": .text("p1"), "created": .real(3), "width": .integer(640)]))
        let video = context.insert(
            mom.entity("Video")!,
            values: values("Video", ["title": .text("v"), "created": .real(2), "width": .integer(1920), "seconds": .real(9.5)]))
        let note = context.insert(
            mom.entity("Note")!, values: values("Note", ["title": .text("n"), "created": .real(1), "body": .text("hi")]))
        let p2 = context.insert(
            mom.entity("Photo")!,
            values: values("Photo", ["title": .text("p2"), "created": .real(4), "width": .integer(800), "starred": .integer(0)]))
        let albumSlot = mom.entity("Photo")!.toOneIndex("album")!
        for o in [p1, video, note, p2] { context.setRelated(o, albumSlot, to: album) }
        context.setRelated(album, mom.entity("Album")!.toOneIndex("cover")!, to: video)
        try context.save()
        return (store, mom, context)
    }

    @Test("A save: one key sequence on the root's row, Z_ENT the concrete entity, defaults, the destination's entity number")
    func save() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, _, _) = try filled(dir)
        #expect(
            try store.db.rows("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_MAX > 0 ORDER BY Z_ENT", [])
                == [[.integer(1), .integer(1)], [.integer(2), .integer(4)]])
        let rows = try store.db.rows("SELECT Z_PK, Z_ENT, ZTITLE, ZSTARRED, ZWIDTH, ZWIDTH1, ZSECONDS, ZBODY FROM ZITEM ORDER BY Z_PK", [])
            .map { $0.map(\.description) }
        #expect(
            rows
                == [
                    ["1", "4", "'p1'", "1", "640", "NULL", "NULL", "NULL"], ["2", "4", "'p2'", "0", "800", "NULL", "NULL", "NULL"],
                    ["3", "5", "'v'", "1", "NULL", "1920", "9.5", "NULL"], ["4", "6", "'n'", "1", "NULL", "NULL", "NULL", "'hi'"],
                ], "\(rows)")
        #expect(try store.db.rows("SELECT ZCOVER, Z3_COVER FROM ZALBUM", []) == [[.integer(3), .integer(5)]])
    }

    @Test("A fetch of the parent returns each row as its own entity's object; faults and to-many faults know the entity")
    func objects() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, mom, _) = try filled(dir)
        let m = mom.model
        let created = try m.resolve(keyPath: "created", from: "Item")
        for batch in [0, 2] {
            let context = ManagedObjectContext(store: store, objectModel: mom)
            let request = try FetchRequest(
                entity: mom.entity("Item")!, sortDescriptors: [(created, true)], batchSize: batch, prefetch: [], predicate: nil)
            let items = try context.execute(request).allObjects()
            #expect(items.map(\.entity.name) == ["Note", "Video", "Photo", "Photo"])
            let width = try TouchKey.resolve("width", from: mom.entity("Video")!, in: m)
            _ = try context.touch(width, on: items[1])
            #expect(items[1].values[mom.entity("Video")!.model.attributes.firstIndex { $0.name == "width" }!] == .integer(1920))
            #expect(items[0].values[mom.entity("Note")!.model.attributes.firstIndex { $0.name == "body" }!] == .text("hi"))
        }
        // The album's cover is a fault made for a Video, from Z3_COVER, without reading its row.
        let context = ManagedObjectContext(store: store, objectModel: mom)
        let albums = try context.execute(
            FetchRequest(entity: mom.entity("Album")!, sortDescriptors: [], batchSize: 0, prefetch: [], predicate: nil)
        ).allObjects()
        let cover = context.related(albums[0], mom.entity("Album")!.toOneIndex("cover")!)!
        #expect(cover.entity.name == "Video" && cover.isFault)
        let items = try context.toMany(albums[0], mom.entity("Album")!.toManyIndex("items")!)
        #expect(items.map(\.entity.name).sorted() == ["Note", "Photo", "Photo", "Video"])
        // A fetch of one sub-entity: only its rows.
        let photos = try context.execute(
            FetchRequest(entity: mom.entity("Photo")!, sortDescriptors: [(created, true)], batchSize: 0, prefetch: [], predicate: nil)
        ).allObjects()
        #expect(photos.map(\.objectID) == [1, 2])
        #expect(
            try context.executeCount(
                FetchRequest(entity: mom.entity("Media")!, sortDescriptors: [], batchSize: 0, prefetch: [], predicate: nil)) == 3)
    }

    @Test("An abstract entity's object is refused at save")
    func abstractRefused() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let m = try Self.model()
        let store = try Store.create(path: dir + "/a.sqlite", model: m)
        let mom = ManagedObjectModel(m)
        let context = ManagedObjectContext(store: store, objectModel: mom)
        _ = context.insert(mom.entity("Media")!, values: mom.entity("Media")!.model.attributes.map { _ in .null })
        #expect(throws: AbstractEntityError.self) { try context.save() }
    }

    @Test(
        "Refused hierarchies: an unknown parent, a cycle, a redeclared property",
        arguments: [
            (#"{"name": "A", "parent": "Nope"}"#, "$.variants[0].entities[0].parent: in variant V, no entity named 'Nope'"),
            (#"{"name": "A", "parent": "B"}, {"name": "B", "parent": "A"}"#, "entities inherit from each other in a cycle: A -> B -> A"),
            (
                #"{"name": "A", "attributes": [{"name": "x", "type": "string"}]}, {"name": "B", "parent": "A", "attributes": [{"name": "x", "type": "string"}]}"#,
                "B inherits 'x' from its parent: a sub-entity cannot declare it again"
            ),
        ])
    func refused(entities: String, message: String) throws {
        let text = """
            {"format": 1, "name": "bad", "variants": [{"name": "V", "entities": [\(entities)]}],
             "dataset": {"seed": 1, "entity": "A", "counts": [1], "fields": [{"field": "x", "generator": {"kind": "uniformInt", "min": 0, "max": 1}}]}, "workloads": [{"name": "i", "kind": "insert"}]}
            """
        #expect {
            _ = try TestSupport.decode(text)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
