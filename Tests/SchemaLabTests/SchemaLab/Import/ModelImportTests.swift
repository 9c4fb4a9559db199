import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
@testable import SchemaLab
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

@Suite("Importing an Xcode Core Data model")
struct ModelImportTests {
    static let models = TestSupport.packageRoot + "/Tests/Fixtures/Models"

    /// Imports a model into a validated scenario plan (and the importer, for its notes).
    func imported(_ path: String) throws -> (plan: ScenarioPlan, importer: ScenarioImporter, text: String) {
        let model = try ModelSource.read(path: path)
        var importer = ScenarioImporter(model: model, name: "imported", today: "2026-11-25")
        let text = ScenarioEncoder.text(try importer.scenario())
        return (try ScenarioPlan(ScenarioDecoder.decode(text: text, file: "imported.json")), importer, text)
    }

    func refusal(_ path: String) throws -> ModelImportError {
        do {
            _ = try imported(path)
        } catch let e as ModelImportError {
            return e
        }
        Issue.record("\(path) was imported")
        throw CancellationError()
    }

    @Test("The photo model's current version imports to a variant whose DDL is the photo matrix's V1")
    func photoModelMatchesV1() throws {
        let (plan, _, _) = try imported(Self.models + "/Photos.xcdatamodeld")
        let asIs = try #require(plan.models.first { $0.variant == "as-is" })
        let v1 = try #require(try TestSupport.photosPlan().models.first { $0.variant == "V1" })
        #expect(SchemaDDL(model: asIs).statements == SchemaDDL(model: v1).statements)
        #expect(plan.models.count == 1, "no indexes, so no no-indexes variant")
        #expect(plan.scenario.workloads.map(\.name) == ["fetch-Photo", "frc-Photo"])
    }

    @Test("An .xcdatamodel folder and its contents file import the same as the bundle's current version")
    func folderAndFile() throws {
        let bundle = try imported(Self.models + "/Photos.xcdatamodeld").text
        let folder = Self.models + "/Photos.xcdatamodeld/Photos 2.xcdatamodel"
        #expect(try imported(folder).text == bundle)
        #expect(try imported(folder + "/contents").text == bundle)
        #expect(bundle.contains("Imported by schemalab import from Photos.xcdatamodeld/Photos 2.xcdatamodel."))
        // The older version has two attributes only: the bundle took the current one.
        #expect(try imported(Self.models + "/Photos.xcdatamodeld/Photos.xcdatamodel").plan.models[0].entities[0].attributes.count == 2)
    }

    @Test("Every attribute type, relationships, fetch indexes and constraints map to the lab's model")
    func shopsModel() throws {
        let (plan, importer, _) = try imported(Self.models + "/Shops.xcdatamodeld")
        let asIs = try #require(plan.models.first { $0.variant == "as-is" })
        let book = try #require(asIs.entity("Book"))
        let types = Dictionary(uniqueKeysWithValues: book.attributes.map { ($0.name, $0.type) })
        #expect(
            types == [
                "coverImage": .binary, "inStock": .bool, "isbn": .string, "link": .string, "pageCount": .integer32,
                "price": .decimal, "published": .date, "rating": .float, "readCount": .integer64, "settings": .binary,
                "title": .string, "uuid": .binary, "weight": .double, "year": .integer16,
            ])
        #expect(book.attribute("displayTitle") == nil, "transient: not stored")
        #expect(book.attribute("isbn")?.optional == false)
        #expect(book.attribute("coverImage")?.allowsExternalStorage == true)
        let ddl = SchemaDDL(model: asIs).statements.joined(separator: "\n")
        #expect(ddl.contains("CREATE INDEX IF NOT EXISTS ZBOOK_ZTITLE_INDEX ON ZBOOK (ZTITLE)"))
        #expect(ddl.contains("Z_Book_byYearTitle ON ZBOOK (ZYEAR COLLATE BINARY DESC, ZTITLE COLLATE BINARY ASC)"))
        #expect(ddl.contains("CREATE UNIQUE INDEX"))
        #expect(ddl.contains("USING RTREE"), "Shop's R-tree fetch index")
        #expect(
            ddl.contains("CREATE TABLE Z_2TAGS") || ddl.contains("Z_1TAGS")
                || ddl.range(of: "Z_[0-9]+[A-Z]+", options: .regularExpression) != nil,
            "many-to-many join table")
        #expect(book.relationship("shop")?.foreignKeyColumn == "ZSHOP")
        #expect(asIs.entity("Shop")?.relationship("books")?.deleteRule == .cascade)
        let noIndexes = try #require(plan.models.first { $0.variant == "no-indexes" })
        #expect(noIndexes.entities.allSatisfy { e in e.indexes.allSatisfy(\.unique) }, "only the uniqueness constraints' indexes stay")
        #expect(noIndexes.entity("Book")?.uniquenessConstraints.count == 1)
        // Data set: Shop is the root, books per shop, tags from a pool.
        #expect(plan.scenario.dataset.entity == "Shop")
        #expect(plan.scenario.dataset.related.map(\.relationship) == ["books"])
        #expect(plan.scenario.dataset.related[0].related.first?.pool != nil)
        // Workloads: a fetch per index key, and a fetched-results controller on Book (the most rows).
        let names = plan.scenario.workloads.map(\.name)
        #expect(names.contains("fetch-Book-by-title") && names.contains("fetch-Book-by-year") && names.contains("fetch-Book-by-published"))
        #expect(names.contains("fetch-Shop-by-latitude") && names.contains("fetch-Tag"))
        #expect(names.last == "frc-Book")
        #expect(plan.scenario.workloads.last?.batchSize == 20)
        let notes = importer.notes.joined(separator: "\n")
        #expect(notes.contains("Book.displayTitle is transient"))
        #expect(notes.contains("Book.uuid is UUID: stored as Core Data stores it, 16 bytes in a BLOB column"))
        #expect(notes.contains("maxCount 10"))
    }

    @Test(
        "The importer builds typed specs, which its file holds: the text decodes back to the same scenario",
        arguments: [
            "Photos.xcdatamodeld", "Shops.xcdatamodeld", "Features.xcdatamodel", "Media.xcdatamodel", "Real/wp13.xcdatamodel",
            "Real/altstore20.xcdatamodel", "Real/mastodon_v1.xcdatamodel",
        ])
    func typedSpecs(model: String) throws {
        var importer = ScenarioImporter(model: try ModelSource.read(path: Self.models + "/" + model), name: "imported", today: "2026-11-25")
        let scenario = try importer.scenario()
        #expect(try ScenarioDecoder.decode(text: ScenarioEncoder.text(scenario), file: scenario.file) == scenario)
    }

    @Test("The importer's file is the encoder's: defaults left out, an ascending sort key as its name, a descending one as an object")
    func writtenByTheEncoder() throws {
        let text = try imported(Self.models + "/Shops.xcdatamodeld").text
        #expect(text.contains(#"{"name": "fetch-Book-by-title", "kind": "fetch", "entity": "Book", "sort": ["title", "isbn"]}"#), "\(text)")
        #expect(text.contains(#""sort": [{"key": "year", "ascending": false}, "isbn"]"#))
        #expect(text.contains(#"{"name": "fetch-Tag", "kind": "fetch", "entity": "Tag"}"#))
        #expect(!text.contains(#""touch": "all""#))
        let photos = try imported(Self.models + "/Photos.xcdatamodeld").text
        #expect(!photos.contains(#""indexes": []"#), "a model without indexes")
    }

    @Test("Imported scenarios follow the scenario format's JSON Schema")
    func followSchema() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var files: [String] = []
        for m in ["Photos.xcdatamodeld", "Shops.xcdatamodeld"] {
            let file = dir + "/" + m + ".json"
            try imported(Self.models + "/" + m).text.write(toFile: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        let report = try JSONSchemaValidator.validate(schema: TestSupport.packageRoot + "/scenarios/schema.json", documents: files)
        for f in files { #expect(report.documents[f]?.isEmpty == true, "\(f): \(report.documents[f] ?? [])") }
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

    @Test("A fetch index may name a to-one relationship: it indexes the foreign key")
    func relationshipIndex() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/R.xcdatamodel", withIntermediateDirectories: true)
        try """
        <model>
        <entity name="Folder"><attribute name="name" attributeType="String"/>
        <relationship name="notes" toMany="YES" destinationEntity="Note" inverseName="folder"/></entity>
        <entity name="Note"><attribute name="created" attributeType="Date"/>
        <relationship name="folder" maxCount="1" destinationEntity="Folder" inverseName="notes"/>
        <fetchIndex name="byFolderCreated"><fetchIndexElement property="folder" type="Binary" order="ascending"/>
        <fetchIndexElement property="created" type="Binary" order="descending"/></fetchIndex></entity></model>
        """.write(toFile: dir + "/R.xcdatamodel/contents", atomically: true, encoding: .utf8)
        let (plan, _, _) = try imported(dir + "/R.xcdatamodel")
        #expect(
            SchemaDDL(model: plan.models[0]).statements.contains(
                "CREATE INDEX IF NOT EXISTS Z_Note_byFolderCreated ON ZNOTE (ZFOLDER COLLATE BINARY ASC, ZCREATED COLLATE BINARY DESC)"))
    }

    @Test("An Xcode model with every lifted feature imports, and its store has each one's columns and triggers")
    func featuresImported() throws {
        let (plan, _, text) = try imported(Self.models + "/Features.xcdatamodel")
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
        #expect(text.contains(#"{"field": "entity", "generator": {"kind": "choice", "values": ["Photo", "Video", "Note"]}}"#))
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
        let (_, _, text) = try imported(dir + "/M.xcdatamodel")
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

    @Test("Two roots may each fill a relationship of one name ('for' tells them apart); one root may not fill it twice")
    func sameRelationshipTwoRoots() throws {
        func scenario(_ secondFor: String) -> String {
            """
            {"format": 1, "name": "two",
             "variants": [{"name": "A", "entities": [
               {"name": "Blog", "attributes": [{"name": "title", "type": "string"}],
                "relationships": [{"name": "comments", "destination": "Comment", "toMany": true, "inverse": "blog"}]},
               {"name": "Post", "attributes": [{"name": "title", "type": "string"}],
                "relationships": [{"name": "comments", "destination": "Comment", "toMany": true, "inverse": "post"}]},
               {"name": "Comment", "attributes": [{"name": "text", "type": "string"}],
                "relationships": [{"name": "blog", "destination": "Blog", "inverse": "comments"}, {"name": "post", "destination": "Post", "inverse": "comments"}]}]}],
             "dataset": {"seed": 1, "entity": "Blog", "counts": [20], "fields": [
               {"field": "entity", "generator": {"kind": "choice", "values": ["Blog", "Post"]}},
               {"field": "title", "generator": {"kind": "text", "minLength": 3, "maxLength": 9}}],
               "related": [
                 {"relationship": "comments", "for": "Blog", "fanOut": {"kind": "uniformInt", "min": 1, "max": 3},
                  "fields": [{"field": "text", "generator": {"kind": "text", "minLength": 3, "maxLength": 9}}]},
                 {"relationship": "comments", "for": "\(secondFor)", "fanOut": {"kind": "uniformInt", "min": 1, "max": 3},
                  "fields": [{"field": "text", "generator": {"kind": "text", "minLength": 3, "maxLength": 9}}]}]},
             "workloads": [{"name": "i", "kind": "insert"}]}
            """
        }
        _ = try TestSupport.decode(scenario("Post"))
        #expect {
            _ = try TestSupport.decode(scenario("Blog"))
        } throws: { "\($0)".contains("relationship 'comments' is filled twice") }
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
        let run = try TestSupport.runCLI(["run", file, "--out", dir + "/run", "--size", "60", "--reps", "1", "--warmup", "0", "--quiet"])
        #expect(run.status == 0, "\(run.err)")
        let results = try String(contentsOfFile: dir + "/run/results.csv", encoding: .utf8)
        #expect(!results.contains("differs"))
    }

    @Test("Entity inheritance imports as a hierarchy: one table, the parent and abstract kept, defaults kept")
    func inheritanceImported() throws {
        let (plan, _, text) = try imported(Self.models + "/Media.xcdatamodel")
        #expect(text.contains(#""parent": "Media""#), "\(text)")
        #expect(text.contains(#""abstract": true"#))
        #expect(text.contains(#"{"name": "width", "type": "integer32", "default": 0}"#))
        #expect(text.contains(#"{"field": "entity", "generator": {"kind": "choice", "values": ["Photo", "Video"]}}"#))
        let ddl = SchemaDDL(model: plan.models[0]).statements
        #expect(
            ddl.contains { $0.hasPrefix("CREATE TABLE ZMEDIA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZWIDTH INTEGER") })
        #expect(ddl.contains("CREATE INDEX IF NOT EXISTS ZMEDIA_Z_ENT_INDEX ON ZMEDIA (Z_ENT)"))
        #expect(!ddl.contains { $0.hasPrefix("CREATE TABLE ZPHOTO") })
    }

    @Test("A to-many relationship that is its own inverse is refused with the relationship and its line")
    func selfInverseRefused() throws {
        let e = try refusal(Self.models + "/Friends.xcdatamodel")
        #expect(e.line == 6)
        #expect(e.element == "relationship name=\"friends\"")
        #expect(e.description.hasSuffix("Friends.xcdatamodel/contents:6: <relationship name=\"friends\">: " + e.message))
    }

    @Test(
        "Unsupported or unreadable models say what and where",
        arguments: [
            (
                "<model><entity name=\"A\"><relationship name=\"bs\" toMany=\"YES\" destinationEntity=\"B\" inverseName=\"nope\"/></entity>\n<entity name=\"B\"><relationship name=\"a\" maxCount=\"1\" destinationEntity=\"A\" inverseName=\"bs\"/></entity></model>",
                1, "the inverse B.nope is not in the model"
            ),
            (
                "<model>\n<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"Undefined\"/></entity></model>", 3,
                "the attribute type 'Undefined' is not supported"
            ),
            ("<model>\n<entity name=\"A\">\n<attribute name=\"x\"", 3, "not well-formed XML"),
            ("<model>\n<entity name=\"A\">&nope;</entity></model>", 2, "an entity reference (&name;) that the document never declares"),
            (
                "<!DOCTYPE model [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\"><!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\"><!ENTITY f \"&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;\"><!ENTITY g \"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\">]>\n<model><entity name=\"A\">&g;</entity></model>",
                2, "an entity expansion attack"
            ),
            ("<plist>\n</plist>", 1, "not <model>"),
            ("<model>\n<entity name=\"A\">\n<widget/></entity></model>", 3, "an element the importer does not know inside <entity>"),
            (
                "<model>\n<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"String\"/>\n<fetchIndex name=\"i\">\n<fetchIndexElement expression=\"x\" type=\"Binary\"/></fetchIndex></entity></model>",
                5, "expression"
            ),
            ("<model>\n<entity name=\"My Entity\"/></model>", 2, "ASCII letters"),
            (
                "<model>\n<entity name=\"P\">\n<relationship name=\"friends\" toMany=\"YES\" destinationEntity=\"P\" inverseName=\"friends\"/></entity></model>",
                3, "its own inverse"
            ),
            (
                "<model>\n<entity name=\"A\">\n<attribute name=\"name\" attributeType=\"String\"/>\n<attribute name=\"Name\" attributeType=\"String\"/></entity></model>",
                4, "share the column ZNAME"
            ),
            (
                "<model>\n<entity name=\"A\">\n<attribute name=\"s\" attributeType=\"String\"/>\n<fetchIndex name=\"g\">\n<fetchIndexElement property=\"s\" type=\"RTree\"/></fetchIndex></entity></model>",
                5, "R-tree index takes numbers"
            ),
            ("not a model at all", 1, "not XML"),
        ])
    func refusals(_ xml: String, _ line: Int, _ message: String) throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try xml.write(toFile: dir + "/contents", atomically: true, encoding: .utf8)
        let e = try refusal(dir + "/contents")
        #expect(e.line == line, "\(e)")
        #expect(e.message.contains(message), "\(e)")
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
        let (plan, importer, _) = try imported(dir + "/contents")
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
        let run = try TestSupport.runCLI(["run", file, "--out", dir + "/run", "--size", "400", "--reps", "1", "--warmup", "0", "--quiet"])
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
        let run = try TestSupport.runCLI(["run", out, "--out", dir + "/run", "--size", "30", "--reps", "1", "--warmup", "0", "--quiet"])
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
