import Foundation
import Testing
@testable import SchemaLabCoreData
@testable import SchemaLabSQLite

/// Core Data's names and numbers, each from its one rule in `StoreLayout`, checked against
/// the names real stores show (docs/coredata.md).
@Suite("Store layout: Core Data's entity numbers, table, column and index names")
struct StoreLayoutTests {
    typealias Entity = StoreLayout.EntityDeclaration

    static func entity(
        _ name: String, parent: String? = nil, attributes: [String] = [], _ relationships: StoreLayout.RelationshipDeclaration...
    ) -> Entity {
        Entity(name: name, parent: parent, attributes: attributes, relationships: relationships)
    }

    static func toOne(_ name: String, _ destination: String, inverse: String? = nil) -> StoreLayout.RelationshipDeclaration {
        .init(name: name, destination: destination, toMany: false, ordered: false, inverse: inverse)
    }

    static func toMany(_ name: String, _ destination: String, inverse: String? = nil, ordered: Bool = false)
        -> StoreLayout.RelationshipDeclaration
    {
        .init(name: name, destination: destination, toMany: true, ordered: ordered, inverse: inverse)
    }

    @Test("A simple entity: numbered alphabetically, table Z<NAME>, columns Z<NAME>, a to-one's key and its index")
    func simpleEntity() {
        let layout = StoreLayout(entities: [
            Self.entity("Note", attributes: ["title", "dateTaken"], Self.toOne("folder", "Folder", inverse: "notes")),
            Self.entity("Folder", attributes: ["name"], Self.toMany("notes", "Note", inverse: "folder")),
        ])
        #expect(layout.ordered == ["Folder", "Note"])
        #expect(layout.numbers == ["Folder": 1, "Note": 2])
        #expect(layout.table(of: "Note") == "ZNOTE")
        #expect(
            layout.columns == ["Note.title": "ZTITLE", "Note.dateTaken": "ZDATETAKEN", "Note.folder": "ZFOLDER", "Folder.name": "ZNAME"])
        #expect(layout.storage(of: "folder", declaredBy: "Note") == .foreignKey(column: "ZFOLDER"))
        #expect(layout.storage(of: "notes", declaredBy: "Folder") == .inverseForeignKey(column: "ZFOLDER"))
        #expect(layout.destinationEntityColumns.isEmpty && layout.hiddenKeys.isEmpty && layout.orderColumns.isEmpty)
        #expect(StoreLayout.columnIndex(table: "ZNOTE", column: "ZFOLDER") == "ZNOTE_ZFOLDER_INDEX")
        #expect(StoreLayout.fetchIndex(entity: "Note", name: "byTitle") == "Z_Note_byTitle")
        #expect(StoreLayout.uniquenessConstraint(attributes: ["title", "name"]) == "UNIQUE_title_name")
        #expect(StoreLayout.rtreeColumns(column: "ZLATITUDE") == ("ZLATITUDE_MIN", "ZLATITUDE_MAX"))
        // Nothing resolves for a relationship the model does not have.
        #expect(layout.storage(of: "nothing", declaredBy: "Note") == nil)
    }

    @Test("A hierarchy: depth-first numbers, one table after the root, numbered columns, the Z_ENT index, entity-number columns")
    func hierarchy() {
        // Bear's shape: SFNoteFile 7 and its sub-entities 8-10 before SFNoteFileServerData 11.
        let layout = StoreLayout(entities: [
            Self.entity("Thumbnail", parent: "Image", attributes: ["scale"]),
            Self.entity("Image", parent: "File", attributes: ["width"]),
            Self.entity("Audio", parent: "File", attributes: ["width", "seconds"]),
            Self.entity("File", attributes: ["name"]),
            Self.entity("Album", Self.toOne("cover", "File"), Self.toOne("owner", "Album")),
        ])
        #expect(layout.ordered == ["Album", "File", "Audio", "Image", "Thumbnail"])
        #expect(layout.numbers["Thumbnail"] == 5)
        #expect(layout.descendants(of: "File") == ["Audio", "Image", "Thumbnail"])
        #expect(layout.chain("Thumbnail") == ["File", "Image", "Thumbnail"])
        #expect(layout.root(of: "Thumbnail") == "File")
        #expect(layout.table(of: "Thumbnail") == "ZFILE" && layout.table(of: "File") == "ZFILE")
        // Audio (3) takes ZWIDTH first; Image (4) gets the next number.
        #expect(layout.columns["Audio.width"] == "ZWIDTH" && layout.columns["Image.width"] == "ZWIDTH1")
        #expect(layout.column("name", of: "Thumbnail") == "ZNAME")
        #expect(layout.column("width", of: "Thumbnail") == "ZWIDTH1")
        #expect(layout.declaring("name", from: "Thumbnail") == "File")
        // A key to a hierarchy has its destination's entity number beside it (Bear's ZFILE, Z7_FILE).
        #expect(layout.columns["Album.cover"] == "ZCOVER")
        #expect(layout.destinationEntityColumns == ["Album.cover": "Z2_COVER"])
        #expect(StoreLayout.entityIndex(table: layout.table(of: "Image")) == "ZFILE_Z_ENT_INDEX")
    }

    @Test("A many-to-many: one join table after the lower-numbered side, Z_<n><NAME> columns, this side's first")
    func manyToMany() {
        // Bear's Z_5TAGS ( Z_5NOTES, Z_13TAGS ), with Note 1 and Tag 2.
        let layout = StoreLayout(entities: [
            Self.entity("Tag", Self.toMany("notes", "Note", inverse: "tags")),
            Self.entity("Note", Self.toMany("tags", "Tag", inverse: "notes")),
        ])
        #expect(
            layout.storage(of: "tags", declaredBy: "Note") == .joinTable(table: "Z_1TAGS", ownColumn: "Z_1NOTES", otherColumn: "Z_2TAGS"))
        #expect(
            layout.storage(of: "notes", declaredBy: "Tag") == .joinTable(table: "Z_1TAGS", ownColumn: "Z_2TAGS", otherColumn: "Z_1NOTES"))
        #expect(StoreLayout.namesJoinTable("Z_1TAGS", entityNumber: 1, relationship: "tags"))
        #expect(!StoreLayout.namesJoinTable("Z_1TAGS", entityNumber: 2, relationship: "notes"))
        #expect(layout.orderColumn(of: "tags", declaredBy: "Note") == nil, "not ordered")
        // Read back: the table looks like a join table, each column names its entity number and the other side's relationship.
        #expect(StoreLayout.looksLikeJoinTable("Z_1TAGS") && !StoreLayout.looksLikeJoinTable("ZNOTE"))
        #expect(StoreLayout.joinColumnParts("Z_2TAGS").map { [String($0.entityNumber), $0.relationship] } == ["2", "tags"])
        #expect(StoreLayout.joinColumnParts("ZNOTE") == nil)
    }

    @Test("An ordered to-many: Z_FOK_ beside the inverse's key, the hidden key's, or the join table's member column")
    func orderedToMany() {
        let layout = StoreLayout(entities: [
            Self.entity("Playlist", Self.toMany("songs", "Song", inverse: "playlist", ordered: true)),
            Self.entity("Song", Self.toOne("playlist", "Playlist", inverse: "songs"), Self.toMany("albums", "Album", inverse: "tracks")),
            Self.entity("Album", Self.toMany("tracks", "Song", inverse: "albums", ordered: true)),
            Self.entity("Queue", Self.toMany("items", "Song", ordered: true)),
        ])
        #expect(layout.numbers == ["Album": 1, "Playlist": 2, "Queue": 3, "Song": 4])
        // One-to-many (Photos' ZPARENTFOLDER and Z_FOK_PARENTFOLDER).
        #expect(layout.orderColumn(of: "songs", declaredBy: "Playlist") == "Z_FOK_PLAYLIST")
        // Many-to-many (Photos' Z_26ASSETS ( Z_26ALBUMS, Z_34ASSETS, Z_FOK_34ASSETS )).
        #expect(
            layout.storage(of: "tracks", declaredBy: "Album")
                == .joinTable(table: "Z_1TRACKS", ownColumn: "Z_1ALBUMS", otherColumn: "Z_4TRACKS"))
        #expect(layout.orderColumn(of: "tracks", declaredBy: "Album") == "Z_FOK_4TRACKS")
        // No inverse: a hidden key `3items` in Song's table, its order key beside it.
        #expect(layout.hiddenKeys["Queue.items"] == StoreLayout.HiddenKey(name: "3items", column: "Z3ITEMS", entityColumn: nil))
        #expect(layout.storage(of: "items", declaredBy: "Queue") == .inverseForeignKey(column: "Z3ITEMS"))
        #expect(layout.orderColumn(of: "items", declaredBy: "Queue") == "Z_FOK_3ITEMS")
        #expect(layout.orderColumns == ["Playlist.songs": "Z_FOK_PLAYLIST", "Queue.items": "Z_FOK_3ITEMS"])
    }

    @Test("Columns a table already has are numbered: two inverse keys and their order keys in one table")
    func numberedColumns() {
        let layout = StoreLayout(entities: [
            Self.entity("Item"),
            Self.entity("Card", parent: "Item", Self.toOne("owner", "Deck", inverse: "cards")),
            Self.entity("Note", parent: "Item", Self.toOne("owner", "Pad", inverse: "notes")),
            Self.entity("Deck", Self.toMany("cards", "Card", inverse: "owner", ordered: true)),
            Self.entity("Pad", Self.toMany("notes", "Note", inverse: "owner", ordered: true)),
            // A source with sub-entities: its entity number beside its hidden key.
            Self.entity("Box", Self.toMany("things", "Pad")),
            Self.entity("BigBox", parent: "Box"),
        ])
        #expect(layout.columns["Card.owner"] == "ZOWNER" && layout.columns["Note.owner"] == "ZOWNER1")
        #expect(layout.orderColumns == ["Deck.cards": "Z_FOK_OWNER", "Pad.notes": "Z_FOK_OWNER1"])
        #expect(layout.hiddenKeys["Box.things"] == StoreLayout.HiddenKey(name: "1things", column: "Z1THINGS", entityColumn: "Z1_1THINGS"))
        #expect(StoreLayout.numbered("ZTITLE", taken: ["ZTITLE", "ZTITLE1"]) == "ZTITLE2")
        #expect(StoreLayout.numbered("ZTITLE", taken: []) == "ZTITLE")
    }

    @Test("A name needing quoting: a keyword entity needs none behind its Z; a name from a store is quoted, and SQLite reads it back")
    func quoting() throws {
        let layout = StoreLayout(entities: [Self.entity("Order", attributes: ["group", "select"])])
        #expect(layout.table(of: "Order") == "ZORDER" && layout.columns["Order.select"] == "ZSELECT")
        let db = try Database(path: ":memory:")
        try db.executeScript("CREATE TABLE ZORDER ( Z_PK INTEGER PRIMARY KEY, ZGROUP INTEGER, ZSELECT VARCHAR )")
        // A store from elsewhere may name a table anything.
        let odd = "Z\"Odd Name; DROP"
        #expect(StoreLayout.quoted(odd) == "\"Z\"\"Odd Name; DROP\"")
        try db.executeScript("CREATE TABLE \(StoreLayout.quoted(odd)) (x)")
        #expect(
            try db.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap { $0[0].textValue } == [
                odd, "ZORDER",
            ])
    }

    @Test("Back from a name: properties lower-cased, Core Data's own columns, R-tree columns, entity and store tables")
    func backFromNames() {
        #expect(StoreLayout.propertyName(column: StoreLayout.column(property: "dateTaken")) == "datetaken")
        #expect(StoreLayout.storedName("ZOWNER") == "OWNER")
        #expect(["Z_FOK_PLAYLIST", "Z_1NOTES", "Z2_COVER", "Z3ITEMS"].allSatisfy(StoreLayout.isCoreDataColumn))
        #expect(!StoreLayout.isCoreDataColumn("ZCOVER"))
        #expect(StoreLayout.rtreeAttribute(column: "ZLATITUDE_MIN") == "latitude")
        #expect(StoreLayout.rtreeAttribute(column: "ZLATITUDE_MAX") == nil)
        #expect(StoreLayout.isEntityTable("ZNOTE") && !StoreLayout.isEntityTable("Z_1TAGS") && !StoreLayout.isEntityTable("ACHANGE"))
        #expect(StoreLayout.isStoreTable("Z_PRIMARYKEY") && !StoreLayout.isStoreTable("ACHANGE"))
        #expect(StoreLayout.internalTable(entity: "Change") == "ACHANGE")
        #expect(StoreLayout.metadataTables == ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"])
        #expect(StoreLayout.rowColumns == ["Z_PK", "Z_ENT", "Z_OPT"])
    }
}
