import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// Search and storage layout: the canonical search column the context keeps at save, the
/// generated Token and tag-string data, external binary storage's files, word replacement
/// and `verify` in updates.
@Suite("Canonical search columns, tokens, tags and external storage")
struct SearchAndStorageTests {
    static let people = """
        {"format": 1, "name": "people",
         "variants": [{"name": "v", "entities": [
            {"name": "Person", "attributes": [{"name": "name", "type": "string"}, {"name": "age", "type": "integer16"},
                                              {"name": "bio", "type": "string"},
                                              {"name": "nameSearch", "type": "string", "canonicalOf": "name"}],
             "relationships": [{"name": "tokens", "destination": "Token", "toMany": true, "inverse": "person", "deleteRule": "cascade"}]},
            {"name": "Token", "attributes": [{"name": "word", "type": "string"}],
             "relationships": [{"name": "person", "destination": "Person", "inverse": "tokens"}]}]}],
         "dataset": {"seed": 1, "entity": "Person", "counts": [50], "fields": [
            {"field": "name", "generator": {"kind": "choice", "values": ["Zoë Núñez", "José Müller", "ÅSA Ström"]}},
            {"field": "age", "generator": {"kind": "uniformInt", "min": 1, "max": 9}},
            {"field": "bio", "generator": {"kind": "text", "minLength": 5, "maxLength": 40, "words": ["Crème", "brûlée", "crème", "Tea"]}}],
           "related": [{"relationship": "tokens", "fanOut": {"kind": "wordsOf", "field": "bio"},
                        "fields": [{"field": "word", "generator": {"kind": "word"}}]}]},
         "workloads": [
           {"name": "rename", "kind": "update", "predicate": "age > %@", "arguments": [5], "set": {"name": "Chloé Lefèvre"}},
           {"name": "older", "kind": "update", "predicate": "age < %@", "arguments": [3], "set": {"age": 99}}],
         "measurement": {"warmup": 0, "repetitions": 1}}
        """

    /// A store filled with a scenario's data set, and a way to run its workloads on it.
    final class Filled {
        let dir: String
        let store: Store
        let mom: ManagedObjectModel
        let plan: ScenarioPlan
        let data: GeneratedData

        init(_ json: String, variant: Int = 0, count: Int? = nil) throws {
            plan = try TestSupport.decode(json)
            dir = try TestSupport.temporaryDirectory()
            mom = ManagedObjectModel(plan.models[variant])
            data = GeneratedData(spec: plan.scenario.dataset, count: count ?? plan.scenario.dataset.counts[0])
            store = try Store.create(path: dir + "/s.sqlite", model: plan.models[variant])
            let context = ManagedObjectContext(store: store, objectModel: mom)
            try InsertWorkload.insertAll(data, placement: try plan.placement(for: mom), into: context)
            try context.save()
        }

        deinit { try? FileManager.default.removeItem(atPath: dir) }

        func run(_ name: String) throws -> WorkloadOutcome {
            let spec = plan.scenario.workloads.first { $0.name == name }!
            let w = try WorkloadFactory.make(
                spec, model: mom, dataset: plan.scenario.dataset, data: data, placement: try plan.placement(for: mom))
            try w.prepare(store: store)
            return try w.run(store: store)
        }
    }

    @Test("The canonical column is set at insert and when its source changes, and only then")
    func canonicalMaintenance() throws {
        let f = try Filled(Self.people)
        let rows = try f.store.db.rows("SELECT ZNAME, ZNAMESEARCH FROM ZPERSON")
        #expect(rows.count == 50)
        let expected: [String: String] = ["Zoë Núñez": "zoe nunez", "José Müller": "jose muller", "ÅSA Ström": "asa strom"]
        for r in rows {
            #expect(expected[r[0].description.trimmingCharacters(in: ["'"])] == r[1].description.trimmingCharacters(in: ["'"]))
        }
        let renamed = try f.run("rename").rows
        #expect(renamed > 0)
        #expect(
            try f.store.db.scalar("SELECT COUNT(*) FROM ZPERSON WHERE ZNAME = 'Chloé Lefèvre' AND ZNAMESEARCH = 'chloe lefevre'")
                == .integer(Int64(renamed)))
        #expect(try f.store.db.scalar("SELECT COUNT(*) FROM ZPERSON WHERE ZNAMESEARCH IS NULL") == .integer(0))
        // An update of another attribute writes no canonical column: the UPDATE names age only.
        f.store.db.beginStatementLog()
        _ = try f.run("older")
        #expect(f.store.db.statementLog.contains { $0.hasPrefix("UPDATE OR FAIL ZPERSON SET ZAGE = ?, Z_OPT = ?") })
        #expect(!f.store.db.statementLog.contains { $0.contains("ZNAMESEARCH =") })
        // [n] on the canonical column selects what [cd] selects on the source.
        for q in ["zoe", "jose m", "asa"] {
            let plan = f.plan.models[0]
            let person = plan.entity("Person")!
            func keys(_ text: String) throws -> [SQLValue] {
                let c = try PredicateCompiler(model: plan, entity: person, joins: JoinPlanner(model: plan, entity: person)).compile(
                    text, arguments: [.string(q)])
                return try f.store.db.rows("SELECT t0.Z_PK FROM ZPERSON t0 WHERE \(c.sql) ORDER BY 1", c.bindings).map { $0[0] }
            }
            let n = try keys("nameSearch BEGINSWITH[n] %@")
            let cd = try keys("name BEGINSWITH[cd] %@")
            #expect(!n.isEmpty && n == cd, "\(q)")
        }
    }

    @Test("Canonical columns: a field filling one, a batch insert or a batch update of its source is an error")
    func canonicalErrors() throws {
        let cases: [(String, String, String)] = [
            (
                #""canonicalOf": "name"}"#, #""canonicalOf": "nope"}"#,
                "$.variants[0].entities[0].attributes[3].canonicalOf: in variant v, Person has no attribute 'nope'"
            ),
            (
                #"{"name": "nameSearch", "type": "string", "canonicalOf": "name"}"#,
                #"{"name": "nameSearch", "type": "integer16", "canonicalOf": "name"}"#,
                "$.variants[0].entities[0].attributes[3].canonicalOf: 'canonicalOf' makes a string attribute"
            ),
            (
                #"{"field": "age","#, #"{"field": "nameSearch", "generator": {"kind": "constant", "value": "x"}}, {"field": "age","#,
                "$.dataset.fields[1]: in variant v, 'nameSearch' is a canonical search attribute"
            ),
            (
                #""set": {"name": "Chloé Lefèvre"}"#,
                #""set": {"name": "Chloé Lefèvre"}}, {"name": "b", "kind": "batchUpdate", "set": {"name": "x"}"#,
                "$.workloads[1].set.name: in variant v, a batch update bypasses the context"
            ),
        ]
        for (old, new, message) in cases {
            #expect(Self.people.contains(old), "\(old)")
            #expect { _ = try TestSupport.decode(Self.people.replacingOccurrences(of: old, with: new)) } throws: { error in
                let e = error as! ScenarioError
                return "\(e.path): \(e.message)".hasPrefix(message)
                    ? true
                    : {
                        print("got: \(e.path): \(e.message)"); return false
                    }()
            }
        }
    }

    @Test("A wordsOf related entry makes one Token per distinct canonical word of each row's text")
    func tokens() throws {
        let f = try Filled(Self.people)
        let bios = try f.store.db.rows("SELECT Z_PK, ZBIO FROM ZPERSON")
        var expected = 0
        for r in bios {
            guard case .text(let bio) = r[1] else { continue }
            let words = GeneratedLevel.distinctWords(bio)
            expected += words.count
            let stored = try f.store.db.rows("SELECT ZWORD FROM ZTOKEN WHERE ZPERSON = ? ORDER BY Z_PK", [r[0]]).map { $0[0] }
            #expect(stored == words.map { SQLValue.text($0) })
            #expect(Set(words).count == words.count && words.allSatisfy { $0 == CanonicalString.of($0) })
        }
        #expect(expected > 50)
        #expect(GeneratedLevel.distinctWords("Crème brûlée, crème; TEA tea") == ["creme", "brulee", "tea"])
    }

    static let tags = try! String(contentsOfFile: TestSupport.packageRoot + "/scenarios/photo-tags.json", encoding: .utf8)

    @Test("joinedOf holds the linked pool members' names, in the variant without the relationship; the optional entry is left out there")
    func joinedTags() throws {
        let s = try Filled(Self.tags, variant: 0, count: 300)
        let e = try Filled(Self.tags, variant: 1, count: 300)
        #expect(try s.store.db.rows("SELECT name FROM sqlite_master WHERE name = 'ZTAG'").isEmpty)
        let strings = try s.store.db.rows("SELECT Z_PK, ZTAGLIST FROM ZPHOTO ORDER BY Z_PK")
        var nonEmpty = 0
        for r in strings {
            let linked = try e.store.db.rows(
                """
                SELECT t.ZNAME FROM Z_1TAGS j JOIN ZTAG t ON t.Z_PK = j.Z_2TAGS WHERE j.Z_1PHOTOS = ?
                """, [r[0]]
            ).map { $0[0].description.trimmingCharacters(in: ["'"]) }
            if case .text(let list) = r[1] {
                nonEmpty += 1
                #expect(Set(list.components(separatedBy: ",")) == Set(linked))
            } else {
                #expect(linked.isEmpty)
            }
        }
        #expect(nonEmpty > 150)
    }

    @Test("Renaming a tag: one Tag row against every photo's string; verify compares the photos that carry the new name")
    func renameTag() throws {
        let s = try Filled(Self.tags, variant: 0, count: 1000)
        let e = try Filled(Self.tags, variant: 1, count: 1000)
        let a = try s.run("rename-string"), b = try e.run("rename-entity")
        #expect(a.rows > 10 && b.rows == 1)
        #expect(try a.digest().digest == (try b.digest().digest))
        #expect(try s.store.db.scalar("SELECT COUNT(*) FROM ZPHOTO WHERE ',' || ZTAGLIST || ',' LIKE '%,tag-7,%'") == .integer(0))
        #expect(
            try s.store.db.scalar("SELECT COUNT(*) FROM ZPHOTO WHERE ',' || ZTAGLIST || ',' LIKE '%,sunset,%'") == .integer(Int64(a.rows)))
        // tag-70..79 are untouched.
        #expect(try s.store.db.scalar("SELECT COUNT(*) FROM ZPHOTO WHERE ',' || ZTAGLIST || ',' LIKE '%,tag-7_,%'") != .integer(0))
        #expect(WordReplacement(attribute: "t", word: "b", with: "x", separator: ",").apply(.text("a,b,bb,b")) == .text("a,x,bb,x"))
    }

    static let storage = """
        {"format": 1, "name": "st",
         "variants": [{"name": "v", "entities": [{"name": "Photo", "attributes": [
            {"name": "number", "type": "integer32"},
            {"name": "image", "type": "binary", "allowsExternalStorage": true, "externalStorageThreshold": 1000}]}]}],
         "dataset": {"seed": 3, "entity": "Photo", "counts": [20], "fields": [
            {"field": "number", "generator": {"kind": "sequence"}},
            {"field": "image", "generator": {"kind": "bytes", "minLength": 10, "maxLength": 3000}}]},
         "workloads": [
           {"name": "grow", "kind": "update", "predicate": "number <= %@", "arguments": [5], "set": {"image": null}},
           {"name": "drop", "kind": "delete", "predicate": "number > %@", "arguments": [15]}],
         "measurement": {"warmup": 0, "repetitions": 1}}
        """

    @Test("External storage: large values are files beside the store, read back when touched, replaced and removed with their objects")
    func externalStorage() throws {
        let f = try Filled(Self.storage)
        let dir = f.store.externalDataDirectory
        #expect(dir == f.dir + "/.s_SUPPORT/_EXTERNAL_DATA")
        let column = f.data.column("image")!
        let large = column.filter { if case .blob(let b) = $0 { return b.count > 1000 } else { return false } }.count
        #expect(large > 5 && large < 20)
        func files() throws -> Set<String> { Set(try FileManager.default.contentsOfDirectory(atPath: dir)) }
        #expect(try files().count == large)
        // Every column holds a tag: 1 + bytes, or 2 + the name of an existing file.
        for r in try f.store.db.rows("SELECT ZNUMBER, ZIMAGE FROM ZPHOTO ORDER BY ZNUMBER") {
            guard case .blob(let b) = r[1] else { Issue.record("no blob"); continue }
            if b[0] == 2 { #expect(try files().contains(String(decoding: b.dropFirst(), as: UTF8.self))) } else { #expect(b[0] == 1) }
        }
        // A fetch reads the reference; touching the attribute reads the file, equal to the data set's bytes.
        let context = ManagedObjectContext(store: f.store, objectModel: f.mom)
        let e = f.mom.entity("Photo")!
        let objects = try context.execute(try FetchRequest(entity: e, sortDescriptors: [], batchSize: 0, prefetch: [], predicate: nil))
            .allObjects()
        let image = KeyPathAccessor(try f.mom.model.resolve(keyPath: "image", from: "Photo"), from: e)
        let number = KeyPathAccessor(try f.mom.model.resolve(keyPath: "number", from: "Photo"), from: e)
        for o in objects {
            let n = Int(try context.value(of: o, at: number).integerValue!)
            #expect(try context.value(of: o, at: image) == column[n - 1])
        }
        // Setting five images to nil removes their files once the save commits.
        let before = try files()
        _ = try f.run("grow")
        let afterUpdate = try files()
        #expect(
            afterUpdate.isSubset(of: before)
                && before.count - afterUpdate.count
                    == column[0..<5].filter { if case .blob(let b) = $0 { return b.count > 1000 } else { return false } }.count
        )
        // Deleting objects removes their files.
        _ = try f.run("drop")
        let gone = column[15...].filter { if case .blob(let b) = $0 { return b.count > 1000 } else { return false } }.count
        #expect(afterUpdate.count - (try files()).count == gone)
        let referenced = Set(
            try f.store.db.rows("SELECT ZIMAGE FROM ZPHOTO").compactMap { r -> String? in
                guard case .blob(let b) = r[0], b.first == 2 else { return nil }
                return String(decoding: b.dropFirst(), as: UTF8.self)
            })
        #expect(referenced == (try files()), "no orphan and no missing file")
        // A copy of the store takes its files along; removing a store removes them.
        try Store.copy(from: f.store.path, to: f.dir + "/copy.sqlite")
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.dir + "/.copy_SUPPORT/_EXTERNAL_DATA").count == referenced.count)
        Store.remove(path: f.dir + "/copy.sqlite")
        #expect(!FileManager.default.fileExists(atPath: f.dir + "/.copy_SUPPORT"))
    }

    @Test("A save that fails leaves no new external file behind")
    func externalRollback() throws {
        let f = try Filled(Self.storage)
        let dir = f.store.externalDataDirectory
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: dir))
        try f.store.db.execute("CREATE UNIQUE INDEX u ON ZPHOTO (ZNUMBER)")
        let context = ManagedObjectContext(store: f.store, objectModel: f.mom)
        let e = f.mom.entity("Photo")!
        let a = e.model.attributes.firstIndex { $0.name == "image" }!
        var values = [SQLValue](repeating: .null, count: e.model.attributes.count)
        values[a] = .blob([UInt8](repeating: 7, count: 5000))
        values[e.model.attributes.firstIndex { $0.name == "number" }!] = .integer(1)  // a duplicate number
        _ = context.insert(e, values: values)
        #expect(throws: SQLiteError.self) { try context.save() }
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir)) == before)
    }
}
