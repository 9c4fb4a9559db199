import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
@testable import SchemaLab
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// Derived attributes kept by triggers, as Core Data's store keeps them.
@Suite("Derived attributes: Z_DA_ triggers for each derivation form")
struct DerivedAttributeTests {
    static let scenario = """
        {"format": 1, "name": "der",
         "variants": [{"name": "A", "entities": [
           {"name": "Author", "attributes": [{"name": "name", "type": "string"},
              {"name": "nameSearch", "type": "string", "derivation": "canonical:(name)"},
              {"name": "upper", "type": "string", "derivation": "uppercase:(name)"},
              {"name": "copy", "type": "string", "derivation": "name"},
              {"name": "bookCount", "type": "integer32", "derivation": "books.@count"},
              {"name": "touched", "type": "date", "derivation": "now()"}],
            "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "author", "deleteRule": "cascade"}]},
           {"name": "Book", "attributes": [{"name": "title", "type": "string"}, {"name": "authorName", "type": "string", "derivation": "author.name"}],
            "relationships": [{"name": "author", "destination": "Author", "inverse": "books"}]}]}],
         "dataset": {"seed": 1, "entity": "Author", "counts": [20], "fields": [
           {"field": "name", "generator": {"kind": "choice", "values": ["Zoë Núñez", "ANN", "Bo"]}}],
           "related": [{"relationship": "books", "fanOut": {"kind": "uniformInt", "min": 0, "max": 4},
             "fields": [{"field": "title", "generator": {"kind": "text", "minLength": 3, "maxLength": 8}}]}]},
         "workloads": [{"name": "i", "kind": "insert"}, {"name": "by-search", "kind": "fetch", "sort": ["nameSearch", "bookCount"]}]}
        """

    @Test("Each form's triggers keep the column: after a fill, after a rename, after a book moves or is deleted")
    func triggers() throws {
        let plan = try TestSupport.decode(Self.scenario)
        let ddl = SchemaDDL(model: plan.models[0]).statements
        #expect(
            ddl.contains(
                "CREATE TRIGGER IF NOT EXISTS Z_DA_ZAUTHOR_Author_nameSearch_UPDATE AFTER UPDATE OF ZNAME ON ZAUTHOR FOR EACH ROW BEGIN UPDATE ZAUTHOR SET ZNAMESEARCH = NSCoreDataCanonical(NEW.ZNAME) WHERE Z_PK = NEW.Z_PK; SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZAUTHOR', Z_ENT, Z_PK, 'nameSearch', ZNAMESEARCH) FROM ZAUTHOR WHERE Z_PK = NEW.Z_PK; END"
            ))
        #expect(
            ddl.contains {
                $0.hasPrefix("CREATE TRIGGER IF NOT EXISTS Z_DA_ZAUTHOR_Author_touched_UPDATE AFTER UPDATE OF Z_OPT ON ZAUTHOR")
            })
        #expect(
            ddl.contains { $0.hasPrefix("CREATE TRIGGER IF NOT EXISTS Z_DA_ZBOOK_Author_bookCount_PARAMETER_INSERT AFTER INSERT ON ZBOOK") }
        )
        #expect(
            ddl.contains {
                $0.hasPrefix("CREATE TRIGGER IF NOT EXISTS Z_DA_ZAUTHOR_Book_authorName_PARAMETER_UPDATE AFTER UPDATE OF ZNAME ON ZAUTHOR")
            })

        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/der.json"
        try Self.scenario.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try TestSupport.runCLI(["generate", file, "--store", dir + "/d.sqlite", "--variant", "A"]).status == 0)
        let db = try Database(path: dir + "/d.sqlite")
        func wrong(_ sql: String) throws -> Int64 { try db.scalar(sql).integerValue ?? -1 }
        let counts = "SELECT COUNT(*) FROM ZAUTHOR a WHERE ZBOOKCOUNT IS NOT (SELECT COUNT(*) FROM ZBOOK b WHERE b.ZAUTHOR = a.Z_PK)"
        #expect(try wrong(counts) == 0)
        #expect(try wrong("SELECT COUNT(*) FROM ZAUTHOR WHERE ZNAME = 'Zoë Núñez' AND ZNAMESEARCH IS NOT 'zoe nunez'") == 0)
        #expect(try wrong("SELECT COUNT(*) FROM ZAUTHOR WHERE ZUPPER IS NOT upper(ZNAME) AND ZNAME = 'ANN'") == 0)
        #expect(try wrong("SELECT COUNT(*) FROM ZAUTHOR WHERE ZCOPY IS NOT ZNAME OR ZTOUCHED IS NULL") == 0)
        #expect(
            try wrong("SELECT COUNT(*) FROM ZBOOK b WHERE ZAUTHORNAME IS NOT (SELECT ZNAME FROM ZAUTHOR a WHERE a.Z_PK = b.ZAUTHOR)") == 0)
        // A rename reaches the books; a book moved or deleted moves the counts.
        try db.execute("UPDATE ZAUTHOR SET ZNAME = 'Émile' WHERE Z_PK = 1")
        #expect(try wrong("SELECT COUNT(*) FROM ZBOOK WHERE ZAUTHOR = 1 AND ZAUTHORNAME IS NOT 'Émile'") == 0)
        #expect(try db.scalar("SELECT ZNAMESEARCH FROM ZAUTHOR WHERE Z_PK = 1") == .text("emile"))
        try db.execute("UPDATE ZBOOK SET ZAUTHOR = 2 WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZBOOK WHERE ZAUTHOR != 2)")
        try db.execute("DELETE FROM ZBOOK WHERE Z_PK = (SELECT MAX(Z_PK) FROM ZBOOK)")
        #expect(try wrong(counts) == 0)
        // No field may fill a derived attribute.
        let filled = Self.scenario.replacingOccurrences(
            of: #"{"field": "name","#, with: #"{"field": "copy", "generator": {"kind": "constant", "value": "x"}}, {"field": "name","#)
        #expect {
            _ = try TestSupport.decode(filled)
        } throws: { "\($0)".contains("'copy' is a derived attribute ('name'): the store's triggers set it") }
        // A form the lab does not take names the forms.
        let bad = Self.scenario.replacingOccurrences(of: #""derivation": "name""#, with: #""derivation": "books.@sum.price""#)
        #expect {
            _ = try TestSupport.decode(bad)
        } throws: { "\($0)".contains("not a derivation the lab takes") }
    }
}
