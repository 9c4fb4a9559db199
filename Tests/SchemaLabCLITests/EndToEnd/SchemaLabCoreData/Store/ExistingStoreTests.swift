import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
@testable import SchemaLab
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

@Suite("Running on an existing store, and reading a model from one")
struct ExistingStoreTests {
    /// A Core Data-shaped store made by the lab: the photo matrix's `variant`, `count` photos.
    static func makeStore(variant: String, count: Int, at path: String) throws {
        let plan = try TestSupport.photosPlan()
        let model = try #require(plan.models.first { $0.variant == variant })
        let mom = ManagedObjectModel(model)
        let placement = try plan.placement(for: mom)
        let store = try Store.create(path: path, model: model)
        var stream = DataStream(spec: plan.scenario.dataset, count: count, chunkSize: 1_000)
        try stream.forEachChunk { chunk in
            let context = ManagedObjectContext(store: store, objectModel: mom)
            try InsertWorkload.insertAll(chunk, placement: placement, into: context)
            try context.save()
        }
    }

    static func digest(_ path: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return SHA256.hex(Array(data))
    }

    @Test("run --store measures the fetch workloads on copies of a store, with each variant's indexes, and never writes the store")
    func runOnStore() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = dir + "/Photos.sqlite"
        let made = try TestSupport.runCLI(["generate", TestSupport.photosScenario, "--size", "300", "--store", store, "--variant", "V1"])
        #expect(made.status == 0 && made.out.contains("wrote \(store): variant V1, 300 rows of Photo"), "\(made.err)")
        let again = try TestSupport.runCLI(["generate", TestSupport.photosScenario, "--size", "300", "--store", store])
        #expect(again.status == 2 && again.err.contains("exists"))
        // An index of the variant's name but another definition (on likes, not date) is made again.
        do { try Database(path: store).executeScript("CREATE INDEX ZPHOTO_ZDATE_INDEX ON ZPHOTO (ZLIKES)") }
        let before = try Self.digest(store)
        let r = try TestSupport.runCLI([
            "run", TestSupport.photosScenario, "--store", store, "--out", dir + "/run",
            "--variants", "V1,V1+index,V1+compound", "--reps", "1", "--warmup", "0",
        ])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("--store: skipping the workloads that write: insert"))
        #expect(r.err.contains("copied the store for V1+index n=300"))
        let results = try String(contentsOfFile: dir + "/run/results.csv", encoding: .utf8)
        #expect(results.contains("V1+compound,frc-sections,300,"))
        #expect(!results.contains(",insert,"))
        // The index the variant adds is used: V1+index sorts by date through ZPHOTO_ZDATE_INDEX.
        let plans = try String(contentsOfFile: dir + "/run/plans.csv", encoding: .utf8)
        #expect(plans.contains("ZPHOTO_ZDATE_INDEX"))
        let sortedPlan = plans.split(separator: "\n").filter { $0.hasPrefix("photos-matrix,V1+index,fetch-sorted,") }
        #expect(!sortedPlan.isEmpty && !sortedPlan.contains { $0.contains("TEMP B-TREE") }, "the date index sorts: \(sortedPlan)")
        #expect(
            plans.split(separator: "\n").filter { $0.hasPrefix("photos-matrix,V1,fetch-sorted,") }.contains { $0.contains("TEMP B-TREE") },
            "V1 has no index on date: the store's is dropped from its copy")
        #expect(plans.contains("Z_Photo_byLikesDate"))
        #expect(try Self.digest(store) == before, "the store is only read")
        let report = try TestSupport.runCLI(["report", dir + "/run"])
        #expect(report.status == 0, "\(report.err)")
        #expect(try String(contentsOfFile: dir + "/run/report.md", encoding: .utf8).contains("data from the existing store `\(store)`"))
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: store + "-wal"))) ?? Data()
        #expect(wal.isEmpty, "nothing written to the store's WAL either")
        #expect(!FileManager.default.fileExists(atPath: store + "-shm"), "SQLite never opened the store itself")
    }

    @Test("A store whose tables differ from a variant's is refused, with every difference; a file that is not a store too")
    func mismatchRefused() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = dir + "/Photos.sqlite"
        try Self.makeStore(variant: "V1", count: 20, at: store)
        let r = try TestSupport.runCLI(["run", TestSupport.photosScenario, "--store", store, "--out", dir + "/run", "--variants", "V1,V2"])
        #expect(r.status == 2)
        #expect(r.err.contains("its tables do not match variant V2"))
        #expect(r.err.contains("Z_PRIMARYKEY lacks the entities PhotoMeta"))
        #expect(r.err.contains("the store has no table ZPHOTOMETA"))
        #expect(r.err.contains("ZPHOTO has a column the variant does not: ZCOUNTRY (VARCHAR)"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/run"))
        try "not a store".write(toFile: dir + "/x.sqlite", atomically: true, encoding: .utf8)
        let bad = try TestSupport.runCLI(["run", TestSupport.photosScenario, "--store", dir + "/x.sqlite", "--out", dir + "/run2"])
        #expect(bad.status == 2 && bad.err.contains("x.sqlite: not a SQLite database"), "\(bad.err)")
        let sized = try TestSupport.runCLI(["run", TestSupport.photosScenario, "--store", store, "--out", dir + "/run3", "--size", "10"])
        #expect(sized.status == 2 && sized.err.contains("leave out --size"))
    }

    @Test("A model read from a store's tables has the store's DDL, and runs on that store")
    func importFromStore() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = dir + "/PhotosV3.sqlite"
        try Self.makeStore(variant: "V3", count: 200, at: store)
        let model = try ModelSource.read(path: store)
        #expect(model.entities.map(\.name) == ["Photo", "PhotoMeta"])
        let photo = try #require(model.entity("Photo"))
        #expect(photo.relationships.map(\.name) == ["meta"])
        #expect(photo.relationships.first?.inverseName == "photo", "a one-to-one pair: each column points at the other table")
        #expect(photo.fetchIndexes.map(\.name) == ["byLikesDate"])
        #expect(photo.attributes.first { $0.name == "date" }?.indexed == true)
        #expect(model.unknowns.contains { $0.contains("camelCase") })
        var importer = ScenarioImporter(model: model, name: "from-store", today: "2026-11-25")
        let text = ScenarioEncoder.text(try importer.scenario())
        let plan = try ScenarioPlan(ScenarioDecoder.decode(text: text, file: "from-store.json"))
        let v3 = try #require(try TestSupport.photosPlan().models.first { $0.variant == "V3" })
        let asIs = try #require(plan.models.first { $0.variant == "as-is" })
        // Same tables, columns and indexes as the store it was read from.
        #expect(Set(SchemaDDL(model: asIs).statements) == Set(SchemaDDL(model: v3).statements))
        let file = dir + "/from-store.json"
        let imported = try TestSupport.runCLI(["import", store, "--out", file])
        #expect(imported.status == 0, "\(imported.err)")
        #expect(imported.err.contains("note: names keep the case"))
        let r = try TestSupport.runCLI(["run", file, "--store", store, "--out", dir + "/run", "--reps", "1", "--warmup", "0", "--quiet"])
        #expect(r.status == 0, "\(r.err)")
        let results = try String(contentsOfFile: dir + "/run/results.csv", encoding: .utf8)
        #expect(results.contains("no-indexes,frc-Photo,200,") || results.contains("no-indexes,frc-PhotoMeta,200,"))
    }

    @Test("Reading a store, a key column is a to-one only when its values say so; an indexed integer stays an attribute")
    func foreignKeysFromValues() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let xml = """
            <model>
            <entity name="Album"><attribute name="title" attributeType="String"/>
            <relationship name="photo" maxCount="1" destinationEntity="Photo" inverseName="albums"/></entity>
            <entity name="Person"><attribute name="name" attributeType="String"/>
            <relationship name="photos" toMany="YES" destinationEntity="Photo" inverseName="owner"/></entity>
            <entity name="Photo"><attribute name="rating" attributeType="Integer 16" indexed="YES"/><attribute name="taken" attributeType="Date"/>
            <relationship name="albums" toMany="YES" destinationEntity="Album" inverseName="photo"/>
            <relationship name="owner" maxCount="1" destinationEntity="Person" inverseName="photos"/></entity>
            </model>
            """
        try xml.write(toFile: dir + "/contents", atomically: true, encoding: .utf8)
        let scenario = dir + "/albums.json"
        #expect(try TestSupport.runCLI(["import", dir + "/contents", "--out", scenario]).status == 0)
        let store = dir + "/Albums.sqlite"
        let made = try TestSupport.runCLI(["generate", scenario, "--size", "300", "--store", store])
        #expect(made.status == 0, "\(made.err)")
        let model = try ModelSource.read(path: store)
        let photo = try #require(model.entity("Photo"))
        #expect(photo.attributes.first { $0.name == "rating" }?.indexed == true, "rating is an indexed attribute, not a key")
        #expect(!photo.relationships.contains { $0.name == "rating" })
        #expect(photo.attributes.first { $0.name == "owner" }?.indexed == true, "owner's destination cannot be told: an indexed integer")
        #expect(model.unknowns.contains { $0.contains("ZPHOTO.ZOWNER may be a to-one relationship") })
        #expect(model.entity("Album")?.relationships.first?.destination == "Photo", "ZPHOTO names Photo and holds its keys")
        // The scenario read from the store makes the store's tables: it runs on it.
        let fromStore = dir + "/from-store.json"
        #expect(try TestSupport.runCLI(["import", store, "--out", fromStore]).status == 0)
        let r = try TestSupport.runCLI([
            "run", fromStore, "--store", store, "--out", dir + "/run", "--reps", "1", "--warmup", "0", "--quiet",
        ])
        #expect(r.status == 0, "\(r.err)")
    }

    @Test("run --store carries the store's external binary data into its copies, and returns what generated data does")
    func externalDataCopied() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scenario = TestSupport.packageRoot + "/scenarios/photo-storage.json"
        let store = dir + "/Photos.sqlite"
        #expect(try TestSupport.runCLI(["generate", scenario, "--size", "12", "--store", store, "--variant", "external"]).status == 0)
        let onStore = try TestSupport.runCLI([
            "run", scenario, "--store", store, "--variants", "external", "--out", dir + "/store",
            "--reps", "1", "--warmup", "0", "--quiet",
        ])
        #expect(onStore.status == 0, "\(onStore.err)")
        let generated = try TestSupport.runCLI([
            "run", scenario, "--variants", "external", "--workloads", "list,thumbnails,open-one",
            "--size", "12", "--out", dir + "/gen", "--reps", "1", "--warmup", "0", "--quiet",
        ])
        #expect(generated.status == 0, "\(generated.err)")
        func digests(_ run: String) throws -> [String] {
            let rows = CSVWriter.parse(try String(contentsOfFile: run + "/results.csv", encoding: .utf8))
            let c = rows[0].firstIndex(of: "result_digest")!, w = rows[0].firstIndex(of: "workload")!
            return rows.dropFirst().filter { $0.count == rows[0].count }.map { $0[w] + " " + $0[c] }.sorted()
        }
        let fromStore = try digests(dir + "/store")
        #expect(fromStore.count == 3)
        #expect(fromStore == (try digests(dir + "/gen")), "open-one reads an image from an external file")
    }
}
