import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// Ordered relationships stored as Core Data stores them: `Z_FOK_` columns, keys 1,024 apart
/// from 2,048, kept where they can stay, renumbered only when a gap is full.
@Suite("Ordered relationships: Z_FOK_ columns and their keys")
struct OrderedRelationshipTests {
    @Test("The columns: Z_FOK_<inverse> in the destination's table, Z_FOK_<member column> in a join table; the fault reads in order")
    func storage() throws {
        let model = try TestSupport.decode(OrderedPlaylistScenario.text).models[0]
        let ddl = SchemaDDL(model: model).statements
        #expect(
            ddl.contains(
                "CREATE TABLE ZSONG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPLAYLIST INTEGER, Z_FOK_PLAYLIST INTEGER, ZTITLE VARCHAR )"
            ))
        #expect(
            ddl.contains(
                "CREATE TABLE Z_1TAGS ( Z_1PLAYLISTS INTEGER, Z_3TAGS INTEGER, Z_FOK_3TAGS INTEGER, PRIMARY KEY (Z_1PLAYLISTS, Z_3TAGS) )"))
        let playlist = model.entity("Playlist")!
        let fetch = FetchSQL(model: model, entity: playlist)
        #expect(
            fetch.toManyFault(playlist.relationship("songs")!)
                == "SELECT 0, t0.Z_PK, t0.Z_FOK_PLAYLIST FROM ZSONG t0 WHERE t0.ZPLAYLIST = ? ORDER BY t0.Z_FOK_PLAYLIST")
        #expect(
            fetch.toManyFault(playlist.relationship("tags")!)
                == "SELECT 0, t0.Z_PK, t1.Z_FOK_3TAGS FROM Z_1TAGS t1 JOIN ZTAG t0 ON t0.Z_PK = t1.Z_3TAGS WHERE t1.Z_1PLAYLISTS = ? ORDER BY t1.Z_FOK_3TAGS"
        )
    }
}
