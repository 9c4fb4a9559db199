import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
@testable import SchemaLab
import SchemaLabTestSupport
import SchemaLabEngineTestSupport
import SchemaLabImportTestSupport

@Suite("Importing an Xcode Core Data model")
struct ModelImportTests {
    static let models = TestSupport.packageRoot + "/Tests/Fixtures/Models"

    func refusal(_ path: String) throws -> ModelImportError {
        do {
            _ = try TestSupport.imported(path)
        } catch let e as ModelImportError {
            return e
        }
        Issue.record("\(path) was imported")
        throw CancellationError()
    }

    @Test("The photo model's current version imports to a variant whose DDL is the photo matrix's V1")
    func photoModelMatchesV1() throws {
        let (plan, _, _) = try TestSupport.imported(Self.models + "/Photos.xcdatamodeld")
        let asIs = try #require(plan.models.first { $0.variant == "as-is" })
        let v1 = try #require(try TestSupport.photosPlan().models.first { $0.variant == "V1" })
        #expect(SchemaDDL(model: asIs).statements == SchemaDDL(model: v1).statements)
        #expect(plan.models.count == 1, "no indexes, so no no-indexes variant")
        #expect(plan.scenario.workloads.map(\.name) == ["fetch-Photo", "frc-Photo"])
    }

    @Test("An .xcdatamodel folder and its contents file import the same as the bundle's current version")
    func folderAndFile() throws {
        let bundle = try TestSupport.imported(Self.models + "/Photos.xcdatamodeld").text
        let folder = Self.models + "/Photos.xcdatamodeld/Photos 2.xcdatamodel"
        #expect(try TestSupport.imported(folder).text == bundle)
        #expect(try TestSupport.imported(folder + "/contents").text == bundle)
        #expect(bundle.contains("Imported by schemalab import from Photos.xcdatamodeld/Photos 2.xcdatamodel."))
        // The older version has two attributes only: the bundle took the current one.
        #expect(
            try TestSupport.imported(Self.models + "/Photos.xcdatamodeld/Photos.xcdatamodel").plan.models[0].entities[0].attributes.count
                == 2)
    }

    @Test("Every attribute type, relationships, fetch indexes and constraints map to the lab's model")
    func shopsModel() throws {
        let (plan, importer, _) = try TestSupport.imported(Self.models + "/Shops.xcdatamodeld")
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
        let text = try TestSupport.imported(Self.models + "/Shops.xcdatamodeld").text
        #expect(text.contains(#"{"name": "fetch-Book-by-title", "kind": "fetch", "entity": "Book", "sort": ["title", "isbn"]}"#), "\(text)")
        #expect(text.contains(#""sort": [{"key": "year", "ascending": false}, "isbn"]"#))
        #expect(text.contains(#"{"name": "fetch-Tag", "kind": "fetch", "entity": "Tag"}"#))
        #expect(!text.contains(#""touch": "all""#))
        let photos = try TestSupport.imported(Self.models + "/Photos.xcdatamodeld").text
        #expect(!photos.contains(#""indexes": []"#), "a model without indexes")
    }

    @Test("Imported scenarios follow the scenario format's JSON Schema, Entity.attribute field names too")
    func followSchema() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var files: [String] = []
        for m in ["Photos.xcdatamodeld", "Shops.xcdatamodeld", "Real/altstore20.xcdatamodel", "Real/mastodon_v1.xcdatamodel"] {
            let file = dir + "/" + m.replacingOccurrences(of: "/", with: "-") + ".json"
            try TestSupport.imported(Self.models + "/" + m).text.write(toFile: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        // The advisor's real-app fixtures: imported, their workloads written from the apps' code.
        for fixture in ["altstore-requests.json", "mastodon-requests.json"] {
            files.append(TestSupport.packageRoot + "/Tests/Fixtures/Advise/" + fixture)
        }
        let report = try JSONSchemaValidator.validate(schema: TestSupport.packageRoot + "/scenarios/schema.json", documents: files)
        for f in files { #expect(report.documents[f]?.isEmpty == true, "\(f): \(report.documents[f] ?? [])") }
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
        let (plan, _, _) = try TestSupport.imported(dir + "/R.xcdatamodel")
        #expect(
            SchemaDDL(model: plan.models[0]).statements.contains(
                "CREATE INDEX IF NOT EXISTS Z_Note_byFolderCreated ON ZNOTE (ZFOLDER COLLATE BINARY ASC, ZCREATED COLLATE BINARY DESC)"))
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

    @Test("Entity inheritance imports as a hierarchy: one table, the parent and abstract kept, defaults kept")
    func inheritanceImported() throws {
        let (plan, _, text) = try TestSupport.imported(Self.models + "/Media.xcdatamodel")
        #expect(text.contains(#""parent": "Media""#), "\(text)")
        #expect(text.contains(#""abstract": true"#))
        #expect(text.contains(#"{"name": "width", "type": "integer32", "default": 0}"#))
        #expect(text.contains(#"{"field": "entity", "generator": {"kind": "cycle", "values": ["Photo", "Video"]}}"#))
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

    @Test("a counter the app bumps is a sequence, and a sort never ends on bytes (a unique UUID stored as a BLOB)")
    func countersAndTieBreakers() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Status" representedClassName="Status" syncable="YES">
                    <attribute name="created" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                    <attribute name="modificationCounter" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                    <attribute name="uid" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
                    <uniquenessConstraints><uniquenessConstraint><constraint value="uid"/></uniquenessConstraint></uniquenessConstraints>
                    <fetchIndex name="byCreated"><fetchIndexElement property="created" type="Binary" order="ascending"/></fetchIndex>
                </entity>
            </model>
            """
        try FileManager.default.createDirectory(atPath: dir + "/App.xcdatamodel", withIntermediateDirectories: true)
        try xml.write(toFile: dir + "/App.xcdatamodel/contents", atomically: true, encoding: .utf8)
        let (plan, _, _) = try TestSupport.imported(dir + "/App.xcdatamodel")
        let counter = try #require(plan.scenario.dataset.fields.first { $0.names == ["modificationCounter"] })
        #expect(counter.generator == .sequence())
        for workload in plan.scenario.workloads {
            #expect(!workload.sort.contains { $0.keyPath == "uid" }, "\(workload.name) sorts by bytes")
        }
        #expect(plan.scenario.workloads.contains { $0.sort.map(\.keyPath) == ["created"] })
    }
}
