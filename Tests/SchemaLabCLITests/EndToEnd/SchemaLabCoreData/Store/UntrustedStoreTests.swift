import Foundation
import Testing
@testable import SchemaLabCoreData
@testable import SchemaLabSQLite
import SchemaLabTestSupport

/// A store from elsewhere (`run --store`, `import`) is opened with SQLite's defensive settings,
/// and an error reading it names the file.
@Suite("Stores from elsewhere: defensive settings, errors that name the file")
struct UntrustedStoreTests {
    /// A small store of the tiny scenario's `flat` variant, made through the CLI.
    static func store(in dir: String) throws -> String {
        let path = dir + "/Notes.sqlite"
        let made = try TestSupport.runCLI(["generate", TestSupport.tinyScenario, "--size", "40", "--store", path, "--variant", "flat"])
        #expect(made.status == 0, "\(made.err)")
        return path
    }

    @Test("A view in the store cannot call the lab's functions, and the schema cannot be written by hand")
    func defensive() throws {
        let dir = try TestSupport.temporaryDirectory()
        let path = try Self.store(in: dir)
        // The store's author (trusted here) adds a view over a registered function.
        try Database(path: path).executeScript("CREATE VIEW ZSHOUT AS SELECT NSCoreDataToUpper(ZTITLE) AS T FROM ZNOTE")
        #expect(try Database(path: path).rows("SELECT T FROM ZSHOUT").count == 40, "a trusted connection may use it")

        let snapshot = try ExistingStore.open(path)
        #expect(Database.isUntrusted(snapshot.db.path))
        #expect(throws: SQLiteError.self) { _ = try snapshot.db.rows("SELECT T FROM ZSHOUT") }
        do { _ = try snapshot.db.rows("SELECT T FROM ZSHOUT") } catch let error as SQLiteError {
            #expect(error.message.contains("unsafe use of NSCoreDataToUpper"), "\(error)")
        }
        // The lab's own statements still call them directly.
        #expect(try snapshot.db.scalar("SELECT NSCoreDataToUpper('a')").textValue == "A")
        // SQLITE_DBCONFIG_DEFENSIVE: no writing sqlite_master by hand.
        #expect(throws: SQLiteError.self) {
            try snapshot.db.executeScript("PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = 'x' WHERE name = 'ZNOTE'")
        }
        // Another connection to the same copy (a case of run --store) is defensive too.
        #expect(throws: SQLiteError.self) { _ = try Database(path: snapshot.db.path).rows("SELECT T FROM ZSHOUT") }
    }

    @Test("run --store on a store with a corrupt page: exit 2, and the message names the file")
    func corruptStoreNamesTheFile() throws {
        let dir = try TestSupport.temporaryDirectory()
        let path = try Self.store(in: dir)
        // Every page but the first (the schema) overwritten: the tables are unreadable.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let size = try handle.seekToEnd()
        let pageSize: UInt64 = 4096
        if size > pageSize {
            try handle.seek(toOffset: pageSize)
            handle.write(Data(repeating: 0xA5, count: Int(size - pageSize)))
        }
        try handle.close()
        let run = try TestSupport.runCLI([
            "run", TestSupport.tinyScenario, "--store", path, "--out", dir + "/run", "--variants", "flat", "--quiet",
        ])
        #expect(run.status == 2, "\(run.err)")
        #expect(run.err.contains(path) && run.err.contains("database disk image is malformed"), "\(run.err)")
    }
}

extension UntrustedStoreTests {
    @Test("An absurd schema is refused at once: too many schema objects, too many entities")
    func absurdSchema() throws {
        let dir = try TestSupport.temporaryDirectory()
        let views = try Self.store(in: dir)
        let db = try Database(path: views)
        try db.executeScript(
            "BEGIN; " + (0...ExistingStore.maxSchemaObjects).map { "CREATE VIEW V\($0) AS SELECT 1;" }.joined() + " COMMIT;")
        let started = Date()
        let import1 = try TestSupport.runCLI(["import", views, "--out", dir + "/v.json"])
        #expect(import1.status == 2, "\(import1.err)")
        #expect(
            import1.err.contains(views) && import1.err.contains("more than the 10000 a store from elsewhere may have"), "\(import1.err)")
        #expect(Date().timeIntervalSince(started) < 30)

        let dir2 = try TestSupport.temporaryDirectory()
        let entities = try Self.store(in: dir2)
        try Database(path: entities).executeScript(
            "BEGIN; "
                + (1...ExistingStore.maxEntities + 1).map {
                    "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (\($0 + 10), 'E\($0)', 0, 0);"
                }
                .joined() + " COMMIT;")
        let import2 = try TestSupport.runCLI(["import", entities, "--out", dir2 + "/e.json"])
        #expect(import2.status == 2 && import2.err.contains("entities in Z_PRIMARYKEY: more than the 5000"), "\(import2.err)")
    }
}
