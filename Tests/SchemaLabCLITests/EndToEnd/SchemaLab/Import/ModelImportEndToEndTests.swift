import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
@testable import SchemaLab
import SchemaLabTestSupport
import SchemaLabEngineTestSupport
import SchemaLabImportTestSupport

/// Importing Xcode models through the built CLI, and running what it writes.
@Suite("Importing a model, end to end: schemalab import")
struct ModelImportEndToEndTests {
    static let models = TestSupport.packageRoot + "/Tests/Fixtures/Models"

    /// `schemalab run FILE` into DIR/run at one size, one repetition, no warm-up, quietly.
    static func quickRun(_ file: String, in dir: String, size: Int) throws -> (status: Int32, out: String, err: String) {
        try TestSupport.runCLI(["run", file, "--out", dir + "/run", "--size", "\(size)", "--reps", "1", "--warmup", "0", "--quiet"])
    }

    @Test("A bundle whose .xccurrentversion names no version it has lists its versions and how to pick one")
    func currentVersionMissing() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bundle = dir + "/App.xcdatamodeld"
        try FileManager.default.copyItem(atPath: Self.models + "/Photos.xcdatamodeld", toPath: bundle)
        let plist =
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>App 3.xcdatamodel</string></dict></plist>"#
        try plist.write(toFile: bundle + "/.xccurrentversion", atomically: true, encoding: .utf8)
        let r = try TestSupport.runCLI(["import", bundle, "--out", dir + "/app.json"])
        #expect(r.status == 2)
        #expect(r.err.contains("names the current version App 3.xcdatamodel, which is not in the bundle"), "\(r.err)")
        #expect(r.err.contains("the bundle's versions: Photos 2.xcdatamodel, Photos.xcdatamodel; import one of them by its folder"))
    }

    @Test("An Xcode model with every lifted feature imports, and its store has each one's columns and triggers")
    func featuresImported() throws {
        let (plan, _, text) = try TestSupport.imported(Self.models + "/Features.xcdatamodel")
        #expect(text.contains(#""ordered": true"#))
        #expect(text.contains(#""derivation": "entries.@count""#))
        #expect(text.contains(#""default": "Untitled""#))
        let ddl = SchemaDDL(model: plan.models[0]).statements
        let entry = try #require(ddl.first { $0.hasPrefix("CREATE TABLE ZENTRY (") })
        for column in ["ZALBUM INTEGER", "Z_FOK_ALBUM INTEGER", "ZWIDTH INTEGER", "ZWIDTH1 INTEGER", "ZBODY VARCHAR", "ZALBUMNAME VARCHAR"]
        {
            #expect(entry.contains(column), "\(column) in \(entry)")
        }
        #expect(ddl.contains { $0.hasPrefix("CREATE TABLE ZALBUM (") && $0.contains("ZCOVER INTEGER, Z3_COVER INTEGER") })
        #expect(ddl.contains { $0.hasPrefix("CREATE TABLE ZPERSON (") && $0.contains("Z1WATCHERS INTEGER") })
        #expect(ddl.contains { $0.contains("Z_FOK_") && $0.hasPrefix("CREATE TABLE Z_1TAGS") })
        #expect(
            ddl.contains(
                "CREATE INDEX IF NOT EXISTS Z_Entry_byAlbumCreated ON ZENTRY (ZALBUM COLLATE BINARY ASC, ZCREATED COLLATE BINARY DESC)"))
        #expect(ddl.contains { $0.hasPrefix("CREATE TRIGGER IF NOT EXISTS Z_DA_ZENTRY_Album_entryCount_PARAMETER_INSERT") })
        #expect(ddl.contains { $0.hasPrefix("CREATE TRIGGER IF NOT EXISTS Z_DA_ZALBUM_Note_albumName_PARAMETER_UPDATE") })
        // Its data set reaches every concrete entity (the root chosen for it, the abstract
        // destination's sub-entities chosen per child), and the index on the parent gets a workload.
        #expect(text.contains(#""entity": "Album""#))
        #expect(text.contains(#"{"field": "entity", "generator": {"kind": "cycle", "values": ["Photo", "Video", "Note"]}}"#))
        #expect(plan.scenario.workloads.map(\.name).contains("fetch-Entry-by-created"))
        #expect(text.contains(#""predicate": "album == %@""#), "the compound index's equality-then-sort shape")
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try text.write(toFile: dir + "/f.json", atomically: true, encoding: .utf8)
        let store = dir + "/f.sqlite"
        let generated = try TestSupport.runCLI(["generate", dir + "/f.json", "--size", "100", "--store", store, "--variant", "as-is"])
        #expect(generated.status == 0, "\(generated.err)")
        let db = try Database(path: store)
        for (table, entity) in [("ZALBUM", 1), ("ZENTRY", 4), ("ZENTRY", 5), ("ZENTRY", 6), ("ZPERSON", 7), ("ZTAG", 8)] {
            let rows = try db.scalar("SELECT COUNT(*) FROM \(table) WHERE Z_ENT = \(entity)").integerValue ?? 0
            #expect(rows > 0, "\(table) Z_ENT \(entity)")
        }
    }

    @Test("A model of unconnected parts gets several roots: every entity has rows, each related entry fills its root's rows")
    func severalRoots() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/M.xcdatamodel", withIntermediateDirectories: true)
        try """
        <model>
        <entity name="Sensor"><attribute name="serial" attributeType="String"/><attribute name="identifier" attributeType="UUID"/>
        <relationship name="readings" toMany="YES" destinationEntity="Reading" inverseName="sensor"/></entity>
        <entity name="Reading"><attribute name="value" attributeType="Double"/>
        <relationship name="sensor" maxCount="1" destinationEntity="Sensor" inverseName="readings"/></entity>
        <entity name="AlertType"><attribute name="identifier" attributeType="String"/>
        <relationship name="alerts" toMany="YES" destinationEntity="Alert" inverseName="type"/></entity>
        <entity name="Alert"><attribute name="when" attributeType="Date"/>
        <relationship name="type" maxCount="1" destinationEntity="AlertType" inverseName="alerts"/></entity>
        <entity name="Setting"><attribute name="key" attributeType="String"/></entity>
        </model>
        """.write(toFile: dir + "/M.xcdatamodel/contents", atomically: true, encoding: .utf8)
        let (_, _, text) = try TestSupport.imported(dir + "/M.xcdatamodel")
        #expect(text.contains(#""for": "Sensor""#) && text.contains(#""for": "AlertType""#), "\(text)")
        #expect(
            text.contains(#""Sensor.identifier""#) && text.contains(#""AlertType.identifier""#),
            "a UUID and a string of one name: a field each")
        try text.write(toFile: dir + "/m.json", atomically: true, encoding: .utf8)
        let generated = try TestSupport.runCLI([
            "generate", dir + "/m.json", "--size", "90", "--store", dir + "/m.sqlite", "--variant", "as-is",
        ])
        #expect(generated.status == 0, "\(generated.err)")
        let db = try Database(path: dir + "/m.sqlite")
        for table in ["ZSENSOR", "ZREADING", "ZALERTTYPE", "ZALERT", "ZSETTING"] {
            #expect((try db.scalar("SELECT COUNT(*) FROM \(table)").integerValue ?? 0) > 0, "\(table)")
        }
        #expect(try db.scalar("SELECT COUNT(*) FROM ZREADING WHERE ZSENSOR IS NULL") == .integer(0))
        #expect(try db.scalar("SELECT COUNT(*) FROM ZALERT WHERE ZTYPE IS NULL") == .integer(0))
        let run = try TestSupport.runCLI([
            "run", dir + "/m.json", "--out", dir + "/run", "--size", "90", "--reps", "1", "--warmup", "0", "--quiet",
        ])
        #expect(run.status == 0, "\(run.err)")
    }

    @Test("A fetch index element naming a to-many relationship is left out with a note (it has no column); the model imports and runs")
    func toManyIndexElement() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/forecast.json"
        let imported = try TestSupport.runCLI(["import", Self.models + "/Forecast.xcdatamodel", "--out", file])
        #expect(imported.status == 0, "\(imported.err)")
        #expect(
            imported.err.contains(
                "Forecast's fetch index byForecastValues names the to-many relationship forecastValues, which has no column in Forecast's table"
            ) && imported.err.contains("the index has no other element and is left out"), "\(imported.err)")
        #expect(imported.err.contains("left out of the index, which keeps its 1 other element"), "\(imported.err)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains(#""name": "byLocationValues""#) && !text.contains("byForecastValues"), "\(text)")
        let run = try Self.quickRun(file, in: dir, size: 30)
        #expect(run.status == 0, "\(run.err)")
    }

    @Test(
        "A uniqueness constraint on a parent entity holds across its sub-entities' rows (one table, one constraint), at the root and below an owner",
        arguments: ["Cars", "Garage"])
    func constraintInHierarchy(name: String) throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/\(name).json"
        let imported = try TestSupport.runCLI(["import", Self.models + "/\(name).xcdatamodel", "--out", file])
        #expect(imported.status == 0, "\(imported.err)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!text.contains("SportCar.numberPlate"), "an inherited attribute is one field: \(text)")
        let store = dir + "/\(name).sqlite"
        // 1,000 rows: a generator per sub-entity (random words, not unique) repeated a plate by then.
        let generated = try TestSupport.runCLI(["generate", file, "--size", "1000", "--store", store, "--variant", "as-is"])
        #expect(generated.status == 0, "\(generated.err)")
        let db = try Database(path: store)
        let cars = try db.scalar("SELECT COUNT(*) FROM ZCAR").integerValue ?? 0
        #expect(cars > 3)
        #expect(try db.scalar("SELECT COUNT(DISTINCT ZNUMBERPLATE) FROM ZCAR").integerValue == cars)
        for entity in ["Car", "SportCar", "ExpensiveSportCar"] {
            let rows = try db.scalar(
                "SELECT COUNT(*) FROM ZCAR WHERE Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = ?)", [.text(entity)])
            #expect((rows.integerValue ?? 0) > 0, "\(entity) has no rows")
        }
        let run = try Self.quickRun(file, in: dir, size: 1000)
        #expect(run.status == 0, "\(run.err)")
        let failures = try String(contentsOfFile: dir + "/run/failures.csv", encoding: .utf8)
        #expect(failures.split(separator: "\n").count == 1, "\(failures)")
    }

    @Test(
        "Real apps' models (WordPress: a hierarchy; AltStore: ordered relationships, constraints; Mastodon: a name two entities type apart) import, fill every concrete entity, and run with no difference",
        arguments: ["wp13", "altstore20", "mastodon_v1"])
    func realModels(name: String) throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/\(name).json"
        let imported = try TestSupport.runCLI(["import", Self.models + "/Real/\(name).xcdatamodel", "--out", file])
        #expect(imported.status == 0, "\(imported.err)")
        let store = dir + "/\(name).sqlite"
        let generated = try TestSupport.runCLI(["generate", file, "--size", "60", "--store", store, "--variant", "as-is"])
        #expect(generated.status == 0, "\(generated.err)")
        let db = try Database(path: store)
        for row in try db.rows("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT", []) {
            guard case .integer(let number) = row[0], case .text(let entity) = row[1] else { continue }
            // The entity's rows, in its hierarchy's table (Z_ENT names it); abstract entities have none of their own.
            var root = entity, parent = try db.scalar("SELECT Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT = \(number)").integerValue ?? 0
            while parent != 0 {
                root = try db.scalar("SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT = \(parent)").textValue ?? root
                parent = try db.scalar("SELECT Z_SUPER FROM Z_PRIMARYKEY WHERE Z_NAME = '\(root)'").integerValue ?? 0
            }
            let rows = try db.scalar("SELECT COUNT(*) FROM Z\(root.uppercased()) WHERE Z_ENT = \(number)").integerValue ?? 0
            let children = try db.scalar("SELECT COUNT(*) FROM Z_PRIMARYKEY WHERE Z_SUPER = \(number)").integerValue ?? 0
            if children == 0 { #expect(rows > 0, "\(name): \(entity) has no rows") }
        }
        let run = try Self.quickRun(file, in: dir, size: 60)
        #expect(run.status == 0, "\(run.err)")
        let results = try String(contentsOfFile: dir + "/run/results.csv", encoding: .utf8)
        #expect(!results.contains("differs"))
    }

    @Test(
        "A compound uniqueness constraint gets a member generated unique; a self relationship does not make its entity a child; the controller has no sections"
    )
    func dataSetChoices() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let xml = """
            <model>
            <entity name="Event"><attribute name="day" attributeType="Integer 16"/><attribute name="slot" attributeType="Integer 16"/>
            <attribute name="title" attributeType="String"/>
            <relationship name="room" maxCount="1" destinationEntity="Room" inverseName="events"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="day"/><constraint value="slot"/></uniquenessConstraint></uniquenessConstraints></entity>
            <entity name="Room"><attribute name="name" attributeType="String"/>
            <relationship name="events" toMany="YES" destinationEntity="Event" inverseName="room"/>
            <relationship name="parent" maxCount="1" destinationEntity="Room" inverseName="children"/>
            <relationship name="children" toMany="YES" destinationEntity="Room" inverseName="parent"/></entity>
            </model>
            """
        try xml.write(toFile: dir + "/contents", atomically: true, encoding: .utf8)
        let (plan, importer, _) = try TestSupport.imported(dir + "/contents")
        #expect(plan.scenario.dataset.entity == "Room", "Room.parent points at Room itself: Room is still a root")
        let fields = plan.scenario.dataset.related.first { $0.relationship == "events" }?.fields ?? []
        if case .sequence = fields.first(where: { $0.names == ["day"] })?.generator {
        } else {
            Issue.record("day is not a sequence: \(fields)")
        }
        #expect(importer.notes.contains { $0.contains("children is left empty: it leads to Room") })
        let frc = try #require(plan.scenario.workloads.first { $0.kind == .fetchedResults })
        #expect(frc.sectionKey == nil && frc.batchSize == 20)
        let file = dir + "/events.json"
        try ScenarioEncoder.text(
            try {
                var i = importer; return try i.scenario()
            }()
        ).write(toFile: file, atomically: true, encoding: .utf8)
        let run = try Self.quickRun(file, in: dir, size: 400)
        #expect(run.status == 0, "\(run.err)")
    }

    @Test("schemalab import writes a scenario that runs end to end; a refused model exits 2 and writes nothing")
    func cliEndToEnd() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/shops.json"
        let imported = try TestSupport.runCLI(["import", Self.models + "/Shops.xcdatamodeld", "--out", out])
        #expect(imported.status == 0, "\(imported.err)")
        #expect(imported.out.contains("wrote \(out): 3 entities, 2 variants (as-is, no-indexes)"))
        #expect(!(try String(contentsOfFile: out, encoding: .utf8)).contains("$schema"), "no schema.json beside it")
        #expect(imported.err.contains("note: Book.displayTitle is transient"))
        let again = try TestSupport.runCLI(["import", Self.models + "/Shops.xcdatamodeld", "--out", out])
        #expect(again.status == 2 && again.err.contains("exists (give --replace"))
        let run = try Self.quickRun(out, in: dir, size: 30)
        #expect(run.status == 0, "\(run.err)")
        let results = try String(contentsOfFile: dir + "/run/results.csv", encoding: .utf8)
        #expect(results.contains("no-indexes,frc-Book"))
        let refused = try TestSupport.runCLI(["import", Self.models + "/Friends.xcdatamodel", "--out", dir + "/friends.json"])
        #expect(refused.status == 2)
        #expect(
            refused.err.contains(
                "Friends.xcdatamodel/contents:6: <relationship name=\"friends\">: a to-many relationship that is its own inverse"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/friends.json"))
        let media = try TestSupport.runCLI(["import", Self.models + "/Media.xcdatamodel", "--out", dir + "/media.json"])
        #expect(media.status == 0, "\(media.err)")
        let mediaRun = try TestSupport.runCLI([
            "run", dir + "/media.json", "--out", dir + "/media-run", "--size", "40", "--reps", "1", "--warmup", "0", "--quiet",
        ])
        #expect(mediaRun.status == 0, "\(mediaRun.err)")
        for photos in ["Photos.xcdatamodeld"] {
            let r = try TestSupport.runCLI(["import", Self.models + "/" + photos, "--out", dir + "/photos.json"])
            #expect(r.status == 0, "\(r.err)")
            let pr = try TestSupport.runCLI([
                "run", dir + "/photos.json", "--out", dir + "/photos-run", "--size", "50", "--reps", "1", "--warmup", "0", "--quiet",
            ])
            #expect(pr.status == 0, "\(pr.err)")
        }
    }
}
