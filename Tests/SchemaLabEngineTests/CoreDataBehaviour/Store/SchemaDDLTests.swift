import Foundation
import Testing
@testable import SchemaLabCoreData
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

@Suite("DDL generation")
struct SchemaDDLTests {
    func ddl(_ variant: String) throws -> [String] {
        let plan = try TestSupport.photosPlan()
        return SchemaDDL(model: plan.models.first { $0.variant == variant }!).statements
    }

    @Test("V1+index: one table, isIndexed-style indexes, metadata tables")
    func v1Index() throws {
        #expect(
            try ddl("V1+index") == [
                "CREATE TABLE ZPHOTO ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZHEIGHT INTEGER, ZLIKES INTEGER, ZSIZE INTEGER, ZWIDTH INTEGER, ZDATE TIMESTAMP, ZLATITUDE FLOAT, ZLONGITUDE FLOAT, ZASSETURL VARCHAR, ZCOUNTRY VARCHAR, ZLOCATIONDESC VARCHAR )",
                "CREATE INDEX IF NOT EXISTS ZPHOTO_ZDATE_INDEX ON ZPHOTO (ZDATE)",
                "CREATE INDEX IF NOT EXISTS ZPHOTO_ZLIKES_INDEX ON ZPHOTO (ZLIKES)",
                "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
                "INSERT INTO Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES(1, 'Photo', 0, 0)",
                "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
                "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
            ])
    }

    @Test("V2: normalized tables with FKs on both sides of the one-to-one and their automatic indexes")
    func v2() throws {
        #expect(
            try ddl("V2") == [
                "CREATE TABLE ZPHOTO ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMETA INTEGER, ZASSETURL VARCHAR )",
                "CREATE TABLE ZPHOTOMETA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZHEIGHT INTEGER, ZLIKES INTEGER, ZSIZE INTEGER, ZWIDTH INTEGER, ZPHOTO INTEGER, ZDATE TIMESTAMP, ZLATITUDE FLOAT, ZLONGITUDE FLOAT, ZCOUNTRY VARCHAR, ZLOCATIONDESC VARCHAR )",
                "CREATE INDEX IF NOT EXISTS ZPHOTO_ZMETA_INDEX ON ZPHOTO (ZMETA)",
                "CREATE INDEX IF NOT EXISTS ZPHOTOMETA_ZPHOTO_INDEX ON ZPHOTOMETA (ZPHOTO)",
                "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
                "INSERT INTO Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES(1, 'Photo', 0, 0)",
                "INSERT INTO Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES(2, 'PhotoMeta', 0, 0)",
                "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
                "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
            ])
    }

    @Test("V3: denormalized copies on Photo with a compound fetch index")
    func v3() throws {
        let s = try ddl("V3")
        #expect(
            s[0]
                == "CREATE TABLE ZPHOTO ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLIKES INTEGER, ZMETA INTEGER, ZDATE TIMESTAMP, ZASSETURL VARCHAR )"
        )
        #expect(
            s.contains("CREATE INDEX IF NOT EXISTS Z_Photo_byLikesDate ON ZPHOTO (ZLIKES COLLATE BINARY ASC, ZDATE COLLATE BINARY ASC)"))
        #expect(s.contains("CREATE INDEX IF NOT EXISTS ZPHOTO_ZDATE_INDEX ON ZPHOTO (ZDATE)"))
    }

    @Test("Fetch, batch, fault and insert statements have Core Data's shape")
    func statements() throws {
        let plan = try TestSupport.photosPlan()
        let v2 = plan.models.first { $0.variant == "V2" }!
        let photo = v2.entity("Photo")!
        let fetch = FetchSQL(model: v2, entity: photo)
        let likes = try v2.resolve(keyPath: "likes", from: "Photo")
        let date = try v2.resolve(keyPath: "date", from: "Photo")
        #expect(
            fetch.objects(sortedBy: [(likes, false), (date, false)])
                == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZASSETURL, t0.ZMETA FROM ZPHOTO t0 LEFT OUTER JOIN ZPHOTOMETA t1 ON t0.ZMETA = t1.Z_PK ORDER BY t1.ZLIKES DESC, t1.ZDATE DESC"
        )
        #expect(
            fetch.ids(sortedBy: [(date, true)])
                == "SELECT 0, t0.Z_PK FROM ZPHOTO t0 LEFT OUTER JOIN ZPHOTOMETA t1 ON t0.ZMETA = t1.Z_PK ORDER BY t1.ZDATE")
        #expect(
            try FetchRequestSQL(
                fetch: fetch, sorts: [(likes, false)], predicate: nil, limit: 0, offset: 0,
                section: (likes, ascending: false)
            ).sectionCounts?.sql
                == "SELECT t1.ZLIKES, COUNT (DISTINCT t0.Z_PK) FROM ZPHOTO t0 LEFT OUTER JOIN ZPHOTOMETA t1 ON t0.ZMETA = t1.Z_PK GROUP BY t1.ZLIKES ORDER BY t1.ZLIKES DESC"
        )
        #expect(
            fetch.batch(count: 3)
                == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZASSETURL, t0.ZMETA FROM ZPHOTO t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0) LIMIT 3"
        )
        #expect(
            fetch.batch(count: 3, binding: .parameters)
                == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZASSETURL, t0.ZMETA FROM ZPHOTO t0 WHERE t0.Z_PK IN (?,?,?) LIMIT 3")
        #expect(SaveSQL.insert(photo) == "INSERT INTO ZPHOTO(Z_PK, Z_ENT, Z_OPT, ZMETA, ZASSETURL) VALUES(?, ?, ?, ?, ?)")
        #expect(FetchSQL(model: v2, entity: v2.entity("PhotoMeta")!).fault.hasSuffix("FROM ZPHOTOMETA t0 WHERE t0.Z_PK = ?"))
    }

    @Test("Many-to-many relationships get one join table; R-tree indexes get a virtual table and triggers")
    func joinTableAndRTree() throws {
        let text = """
            {"format": 1, "name": "t",
             "variants": [{"name": "A", "entities": [
                {"name": "Post", "attributes": [{"name": "lat", "type": "double"}, {"name": "lon", "type": "double"}],
                 "relationships": [{"name": "tags", "destination": "Tag", "toMany": true, "inverse": "posts"}]},
                {"name": "Tag", "attributes": [{"name": "label", "type": "string"}],
                 "relationships": [{"name": "posts", "destination": "Post", "toMany": true, "inverse": "tags"}]}],
               "indexes": [{"name": "byLocation", "entity": "Post", "kind": "rtree", "elements": ["lat", "lon"]}]}],
             "dataset": {"seed": 1, "entity": "Post", "counts": [5], "fields": [
                {"field": "lat", "generator": {"kind": "uniformDouble", "min": 0, "max": 1}},
                {"field": "lon", "generator": {"kind": "uniformDouble", "min": 0, "max": 1}}]},
             "workloads": [{"name": "i", "kind": "insert"}]}
            """
        let plan = try TestSupport.decode(text)
        let s = SchemaDDL(model: plan.models[0]).statements
        #expect(s.contains("CREATE TABLE Z_1TAGS ( Z_1POSTS INTEGER, Z_2TAGS INTEGER, PRIMARY KEY (Z_1POSTS, Z_2TAGS) )"))
        #expect(
            s.contains(
                "CREATE VIRTUAL TABLE IF NOT EXISTS Z_Post_byLocation USING RTREE (Z_PK INTEGER PRIMARY KEY, ZLAT_MIN, ZLAT_MAX, ZLON_MIN, ZLON_MAX)"
            ))
        #expect(s.contains { $0.hasPrefix("CREATE TRIGGER IF NOT EXISTS Z_Post_byLocation_INSERT AFTER INSERT ON ZPOST") })
        // The DDL must be valid SQL: create a store with it and insert through the trigger.
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try Store.create(path: dir + "/s.sqlite", model: plan.models[0])
        try store.db.executeScript("INSERT INTO ZPOST (Z_PK, Z_ENT, Z_OPT, ZLAT, ZLON) VALUES (1, 1, 1, 0.5, 0.25)")
        #expect(try store.db.scalar("SELECT COUNT(*) FROM Z_Post_byLocation WHERE ZLAT_MIN <= 0.5 AND ZLON_MAX >= 0.25") == .integer(1))
    }
}
