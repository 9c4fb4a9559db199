import Foundation
import Testing
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// Keeps the JSON examples of `README.md` and `docs/*.md` true: every ```json block must
/// sit right below a marker comment saying what it is, and every block marked as a scenario,
/// or as a part of one, must decode and resolve as the lab reads a scenario file.
///
/// Markers (an HTML comment on the line right above the opening fence):
///
/// - `<!-- scenario -->`: the block is a whole scenario.
/// - `<!-- scenario: PART -->`: the block is one part of a scenario (``parts`` lists them and
///   where each goes). It is put into the base scenario ``bases``["photo"] at the part's
///   JSON path, and the result must decode and resolve.
/// - `<!-- scenario: PART in BASE -->`: the same, into the named base (``bases``), for a
///   part that names entities, attributes, variants or workloads the photo base lacks:
///   `photos` (the photo matrix's V1, V1+compound, V2, V3 and its three read workloads),
///   `quakes` (Quake, `code` unique, an index `byTime`), `library` (Author, Book, Tag),
///   `posts` (Post with a day and a location; an R-tree variant) and `people` (Person with a
///   bio; a variant with a Token entity).
/// - `<!-- not-a-scenario: REASON -->`: JSON that is not a scenario or a part of one
///   (env.json, run.json, the JSON Schema, ...); not checked.
///
/// A ```json block without a marker, or with another comment above it, is an error naming
/// the file and the line. Blocks of other languages are checked only when marked as a
/// scenario (```sh and the like are never read).
@Suite("JSON examples in README.md and docs/")
struct DocExamplesTests {
    // MARK: Where a part goes

    /// How a part is put into its base.
    enum Placement {
        /// The block is one element, appended to the array at the path (made if missing).
        case append
        /// The block is an array whose elements are each appended to the array at the path.
        case appendEach
        /// The block replaces the value at the path (added if missing).
        case replace
    }

    /// Each part a marker may name: the JSON path it goes to in the base, and how.
    /// A path is object keys, with `0` for an array's first element.
    static let parts: [String: (path: [String], placement: Placement)] = [
        "variant": (["variants"], .append),
        "variants": (["variants"], .appendEach),
        "entity": (["variants", "0", "entities"], .append),
        "attribute": (["variants", "0", "entities", "0", "attributes"], .append),
        "relationship": (["variants", "0", "entities", "0", "relationships"], .append),
        "index": (["variants", "0", "indexes"], .append),
        "indexes": (["variants", "0", "indexes"], .appendEach),
        "counter": (["variants", "0", "counters"], .append),
        "dataset": (["dataset"], .replace),
        "counts": (["dataset", "counts"], .replace),
        "field": (["dataset", "fields"], .append),
        "fields": (["dataset", "fields"], .appendEach),
        "related": (["dataset", "related"], .append),
        "workload": (["workloads"], .append),
        "workloads": (["workloads"], .appendEach),
        "measurement": (["measurement"], .replace),
        "pragmas": (["pragmas"], .replace),
        "assertion": (["assertions"], .append),
        "assertions": (["assertions"], .appendEach),
        "claim": (["claims"], .append),
        "claims": (["claims"], .appendEach),
    ]

    // MARK: The base scenarios

    /// The base a part goes into when its marker names none.
    static let defaultBase = "photo"

    /// Small valid scenarios the documents' parts are put into. Each names only what a part
    /// may need (entities, attributes, variants, workloads), and leaves the lists that parts
    /// append to short, so an example's names do not collide with the base's.
    static let bases: [String: String] = [
        // The photo matrix's V1: one Photo entity, no index; one field, one workload.
        "photo": #"""
        {
          "format": 1, "name": "photo",
          "variants": [
            {"name": "V1", "entities": [
              {"name": "Photo", "attributes": [
                {"name": "assetURL", "type": "string"}, {"name": "country", "type": "string"},
                {"name": "date", "type": "date"}, {"name": "height", "type": "integer32"},
                {"name": "latitude", "type": "double"}, {"name": "likes", "type": "integer32"},
                {"name": "locationDesc", "type": "string"}, {"name": "longitude", "type": "double"},
                {"name": "size", "type": "integer64"}, {"name": "width", "type": "integer32"}]}]}
          ],
          "dataset": {"seed": 1, "entity": "Photo", "counts": [10],
                      "fields": [{"field": "date", "generator": {"kind": "dateRange", "from": "2010-01-01", "to": "2014-12-31"}}]},
          "workloads": [{"name": "base-fetch", "kind": "fetch", "sort": ["date"]}]
        }
        """#,
        // The photo matrix's variants V1, V1+compound, V2 and V3 and its three read workloads.
        "photos": #"""
        {
          "format": 1, "name": "photos",
          "variants": [
            {"name": "V1", "entities": [
              {"name": "Photo", "attributes": [
                {"name": "assetURL", "type": "string"}, {"name": "date", "type": "date"},
                {"name": "likes", "type": "integer32"}]}]},
            {"name": "V1+compound", "extends": "V1",
             "addIndexes": [{"name": "byLikesDate", "entity": "Photo", "elements": ["likes", "date"]}]},
            {"name": "V2", "extends": "V1",
             "addEntities": [{"name": "PhotoMeta", "relationships": [{"name": "photo", "destination": "Photo", "inverse": "meta"}]}],
             "moveAttributes": [{"from": "Photo", "to": "PhotoMeta", "names": ["date", "likes"]}],
             "addRelationships": [{"entity": "Photo", "relationship": {"name": "meta", "destination": "PhotoMeta", "inverse": "photo", "deleteRule": "cascade"}}]},
            {"name": "V3", "extends": "V2",
             "copyAttributes": [{"from": "PhotoMeta", "to": "Photo", "names": ["likes", "date"]}]}
          ],
          "dataset": {"seed": 1, "entity": "Photo", "counts": [10],
                      "fields": [{"field": "date", "generator": {"kind": "dateRange", "from": "2010-01-01", "to": "2014-12-31"}},
                                 {"field": "likes", "generator": {"kind": "uniformInt", "min": 0, "max": 500}}]},
          "workloads": [
            {"name": "fetch-sorted", "kind": "fetch", "sort": ["date"], "touch": "all"},
            {"name": "frc-sections", "kind": "fetchedResults", "sort": [{"key": "likes", "ascending": false}, {"key": "date", "ascending": false}],
             "sectionKey": "likes", "touch": "all"},
            {"name": "frc-batched", "kind": "fetchedResults", "sort": [{"key": "likes", "ascending": false}, {"key": "date", "ascending": false}],
             "sectionKey": "likes", "batchSize": 30, "touch": 30}
          ]
        }
        """#,
        // The quake scenarios' Quake entity, its code unique, with an index on time.
        "quakes": #"""
        {
          "format": 1, "name": "quakes",
          "variants": [
            {"name": "plain", "entities": [
              {"name": "Quake", "attributes": [
                {"name": "code", "type": "string"}, {"name": "magnitude", "type": "double"},
                {"name": "magnitudeClass", "type": "integer16"}, {"name": "place", "type": "string"},
                {"name": "time", "type": "date"}, {"name": "depth", "type": "double"},
                {"name": "validated", "type": "bool"}],
               "uniquenessConstraints": [["code"]]}],
             "indexes": [{"name": "byTime", "entity": "Quake", "elements": ["time"]}]}
          ],
          "dataset": {"seed": 1, "entity": "Quake", "counts": [10],
                      "fields": [{"field": "code", "generator": {"kind": "uuid", "prefix": "ci"}},
                                 {"field": "magnitude", "generator": {"kind": "uniformDouble", "min": 0, "max": 8}},
                                 {"field": "time", "generator": {"kind": "dateRange", "from": "2020-05-01", "to": "2020-05-30"}}]},
          "workloads": [{"name": "base-fetch", "kind": "fetch", "sort": ["time"]}]
        }
        """#,
        // Authors, books (one-to-many) and tags (many-to-many), and a denormalized variant.
        "library": #"""
        {
          "format": 1, "name": "library",
          "variants": [
            {"name": "normalized", "entities": [
              {"name": "Author", "attributes": [{"name": "name", "type": "string"}],
               "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "author", "deleteRule": "cascade"}]},
              {"name": "Book", "attributes": [{"name": "title", "type": "string"}, {"name": "year", "type": "integer16"}],
               "relationships": [{"name": "author", "destination": "Author", "inverse": "books"},
                                 {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "books"}]},
              {"name": "Tag", "attributes": [{"name": "name", "type": "string"}],
               "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "tags"}]}]},
            {"name": "denormalized", "extends": "normalized", "addAttributes": [
              {"entity": "Author", "attribute": {"name": "bookCount", "type": "integer32"}},
              {"entity": "Book", "attribute": {"name": "authorName", "type": "string"}}]}
          ],
          "dataset": {"seed": 1, "entity": "Author", "counts": [10],
                      "fields": [{"field": "name", "generator": {"kind": "uuid", "prefix": "author-"}}]},
          "workloads": [{"name": "base-fetch", "kind": "fetch", "sort": ["name"]}]
        }
        """#,
        // Posts with a day and a location, and a variant with an R-tree index on the location.
        "posts": #"""
        {
          "format": 1, "name": "posts",
          "variants": [
            {"name": "scan", "entities": [
              {"name": "Post", "attributes": [
                {"name": "timestamp", "type": "date"}, {"name": "day", "type": "integer32"},
                {"name": "latitude", "type": "double"}, {"name": "longitude", "type": "double"},
                {"name": "title", "type": "string"}]}]},
            {"name": "rtree", "extends": "scan",
             "addIndexes": [{"name": "byLocation", "entity": "Post", "kind": "rtree", "elements": ["latitude", "longitude"]}]}
          ],
          "dataset": {"seed": 1, "entity": "Post", "counts": [10],
                      "fields": [{"field": "timestamp", "generator": {"kind": "dateRange", "from": "2018-05-06", "to": "2018-06-04"}},
                                 {"field": "day", "generator": {"kind": "derived", "from": "timestamp", "function": "day"}},
                                 {"field": "latitude", "generator": {"kind": "uniformDouble", "min": 40, "max": 41}},
                                 {"field": "longitude", "generator": {"kind": "uniformDouble", "min": -74, "max": -73}}]},
          "workloads": [{"name": "base-fetch", "kind": "fetch", "sort": ["timestamp"]}]
        }
        """#,
        // People with a name and a bio, and a variant with a Token entity for word search.
        "people": #"""
        {
          "format": 1, "name": "people",
          "variants": [
            {"name": "raw", "entities": [
              {"name": "Person", "attributes": [
                {"name": "name", "type": "string"}, {"name": "age", "type": "integer16"}, {"name": "bio", "type": "string"}]}]},
            {"name": "tokens", "extends": "raw",
             "addEntities": [{"name": "Token", "attributes": [{"name": "word", "type": "string"}],
                              "relationships": [{"name": "person", "destination": "Person", "inverse": "tokens"}]}],
             "addRelationships": [{"entity": "Person", "relationship": {"name": "tokens", "destination": "Token", "toMany": true, "inverse": "person", "deleteRule": "cascade"}}]}
          ],
          "dataset": {"seed": 1, "entity": "Person", "counts": [10],
                      "fields": [{"field": "name", "generator": {"kind": "text", "minLength": 5, "maxLength": 20}},
                                 {"field": "bio", "generator": {"kind": "text", "minLength": 40, "maxLength": 160}}]},
          "workloads": [{"name": "base-fetch", "kind": "fetch", "sort": ["name"]}]
        }
        """#,
        // Playlists of songs: an ordered relationship, and a position attribute for the other way.
        "playlists": #"""
        {
          "format": 1, "name": "playlists",
          "variants": [
            {"name": "ordered", "entities": [
              {"name": "Playlist", "attributes": [{"name": "name", "type": "string"}],
               "relationships": [{"name": "songs", "destination": "Song", "toMany": true, "ordered": true, "inverse": "playlist"}]},
              {"name": "Song", "attributes": [{"name": "title", "type": "string"}],
               "relationships": [{"name": "playlist", "destination": "Playlist", "inverse": "songs"}]}]},
            {"name": "position", "entities": [
              {"name": "Playlist", "attributes": [{"name": "name", "type": "string"}],
               "relationships": [{"name": "songs", "destination": "Song", "toMany": true, "inverse": "playlist"}]},
              {"name": "Song", "attributes": [{"name": "title", "type": "string"}, {"name": "position", "type": "integer32"}],
               "relationships": [{"name": "playlist", "destination": "Playlist", "inverse": "songs"}]}]}
          ],
          "dataset": {"seed": 1, "entity": "Playlist", "counts": [10],
                      "fields": [{"field": "name", "generator": {"kind": "text", "minLength": 5, "maxLength": 20}}],
                      "related": [{"relationship": "songs", "fanOut": {"kind": "uniformInt", "min": 1, "max": 5},
                                   "fields": [{"field": "title", "generator": {"kind": "text", "minLength": 5, "maxLength": 20}},
                                              {"field": "position", "generator": {"kind": "position"}, "optional": true}]}]},
          "workloads": [{"name": "base-read", "kind": "reorder", "relationship": "songs", "count": 5, "positionKey": "position"}]
        }
        """#,
        // An abstract Item with Note and Photo sub-entities, each row one of them.
        "inheritance": #"""
        {
          "format": 1, "name": "inheritance",
          "variants": [
            {"name": "hierarchy", "entities": [
              {"name": "Item", "abstract": true, "attributes": [{"name": "title", "type": "string"}, {"name": "created", "type": "date"}]},
              {"name": "Note", "parent": "Item", "attributes": [{"name": "body", "type": "string"}]},
              {"name": "Photo", "parent": "Item", "attributes": [{"name": "width", "type": "integer32"}]}]}
          ],
          "dataset": {"seed": 1, "entity": "Note", "counts": [10],
                      "fields": [{"field": "entity", "generator": {"kind": "choice", "values": ["Note", "Photo"]}},
                                 {"field": "title", "generator": {"kind": "text", "minLength": 5, "maxLength": 20}}]},
          "workloads": [{"name": "base-fetch", "kind": "fetch", "entity": "Item", "sort": ["created"]}]
        }
        """#,
    ]

    // MARK: Reading the documents

    /// The documents checked: README.md and every docs/*.md, as paths relative to the package root.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: TestSupport.packageRoot + "/docs")
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md"] + docs
    }

    /// What the comment above a block says.
    enum Marker: Equatable {
        /// `<!-- scenario -->`
        case scenario
        /// `<!-- scenario: PART -->` or `<!-- scenario: PART in BASE -->`
        case part(String, base: String)
        /// `<!-- not-a-scenario: REASON -->`
        case notAScenario(String)
    }

    /// The marker in `comment` (the line above a block); nil when it is not a marker comment.
    /// Throws for a marker that names an unknown part or base, or gives no reason.
    static func marker(_ comment: String) throws -> Marker? {
        guard comment.hasPrefix("<!--") && comment.hasSuffix("-->") else { return nil }
        let inner = comment.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
        if inner == "scenario" { return .scenario }
        if inner.hasPrefix("scenario:") {
            let words = inner.dropFirst("scenario:".count).split(separator: " ").map(String.init)
            guard words.count == 1 || (words.count == 3 && words[1] == "in") else {
                throw DocError("write <!-- scenario: PART --> or <!-- scenario: PART in BASE -->, not \(comment)")
            }
            guard parts[words[0]] != nil else {
                throw DocError("unknown part '\(words[0])' in \(comment); parts: \(parts.keys.sorted().joined(separator: ", "))")
            }
            let base = words.count == 3 ? words[2] : defaultBase
            guard bases[base] != nil else {
                throw DocError("unknown base '\(base)' in \(comment); bases: \(bases.keys.sorted().joined(separator: ", "))")
            }
            return .part(words[0], base: base)
        }
        if inner.hasPrefix("not-a-scenario:") {
            let reason = inner.dropFirst("not-a-scenario:".count).trimmingCharacters(in: .whitespaces)
            guard !reason.isEmpty else { throw DocError("<!-- not-a-scenario: REASON --> needs a reason") }
            return .notAScenario(reason)
        }
        return nil
    }

    struct DocError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Checking a block

    /// The problems of one block, each naming its file and line; empty when it is fine.
    /// A ```json block must carry a marker; a block of another language is checked only when
    /// it is marked as a scenario or a part of one.
    static func problems(of block: MarkdownBlock) -> [String] {
        let isJSON = block.language.lowercased() == "json"
        let found: Marker?
        do {
            found = try marker(block.above)
        } catch {
            return isJSON || block.above.hasPrefix("<!-- scenario") ? ["\(block.location): \(error)"] : []
        }
        guard let found else {
            guard isJSON else { return [] }
            let what = block.above.isEmpty ? "an empty line" : "'\(block.above)'"
            return [
                "\(block.location): a ```json block needs <!-- scenario -->, <!-- scenario: PART [in BASE] --> or <!-- not-a-scenario: REASON --> on the line right above it (found \(what))"
            ]
        }
        switch found {
        case .notAScenario:
            return []
        case .scenario:
            return validate(text: block.text, block: block, note: "")
        case .part(let part, let base):
            let document: String, landed: [String]
            do {
                (document, landed) = try insert(block.text, as: part, into: base, block: block)
            } catch {
                return ["\(block.location): \(error)"]
            }
            return validate(
                text: document, block: block,
                note: " (the example, a '\(part)', is at \(landed.joined(separator: ", ")) of base '\(base)')")
        }
    }

    /// Decodes and resolves scenario text; the problem, if any, with the decoder's message
    /// (file, line and JSON path).
    static func validate(text: String, block: MarkdownBlock, note: String) -> [String] {
        do {
            _ = try ScenarioPlan(ScenarioDecoder.decode(text: text, file: block.location))
            return []
        } catch let e as ScenarioError where e.path == "$" && e.message.hasPrefix("invalid JSON at line") {
            return ["\(block.location): the block is not valid JSON: \(e.message) (line 1 is the line below the fence)\(note)"]
        } catch {
            return ["\(error)\(note)"]
        }
    }

    /// `fragment` put into the base at the part's path: the scenario's text, and the JSON
    /// paths where the fragment's values landed.
    static func insert(_ fragment: String, as part: String, into base: String, block: MarkdownBlock) throws -> (String, [String]) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(fragment)
        } catch let e as JSONSyntaxError {
            throw DocError(
                "the block is not valid JSON: line \(e.line) (file line \(block.line + e.line)), column \(e.column): \(e.message)")
        }
        guard let (path, placement) = parts[part], let baseText = bases[base] else { throw DocError("unknown part or base") }
        var items: [JSONValue]
        switch placement {
        case .append, .replace:
            items = [value]
        case .appendEach:
            guard case .array(let list) = value else {
                throw DocError("a '\(part)' block is an array of them, found \(value.typeName); write the part in the singular for one")
            }
            items = list
        }
        var root = try JSONParser.parse(baseText)
        var landed: [String] = []
        root = try place(items, at: path[...], in: root, replace: placement == .replace, jsonPath: "$", landed: &landed)
        return (JSONWriter.text(root), landed)
    }

    /// `items` appended to (or, with `replace`, put in place of) the value at `path` below `node`.
    static func place(
        _ items: [JSONValue], at path: ArraySlice<String>, in node: JSONValue, replace: Bool,
        jsonPath: String, landed: inout [String]
    ) throws -> JSONValue {
        guard let key = path.first else {
            if replace {
                landed.append(jsonPath)
                return items[0]
            }
            guard case .array(let list) = node else { throw DocError("base value at \(jsonPath) is not an array") }
            for i in items.indices { landed.append("\(jsonPath)[\(list.count + i)]") }
            return .array(list + items)
        }
        let rest = path.dropFirst()
        switch node {
        case .array(var list):
            guard let i = Int(key), list.indices.contains(i) else { throw DocError("base has no \(jsonPath)[\(key)]") }
            list[i] = try place(items, at: rest, in: list[i], replace: replace, jsonPath: "\(jsonPath)[\(i)]", landed: &landed)
            return .array(list)
        case .object(var members):
            let child = "\(jsonPath).\(key)"
            if let i = members.firstIndex(where: { $0.key == key }) {
                members[i].value = try place(items, at: rest, in: members[i].value, replace: replace, jsonPath: child, landed: &landed)
            } else {
                // A missing list (indexes, related, assertions) starts empty.
                let empty: JSONValue = rest.isEmpty && !replace ? .array([]) : .object([])
                members.append((key, try place(items, at: rest, in: empty, replace: replace, jsonPath: child, landed: &landed)))
            }
            return .object(members)
        default:
            throw DocError("base value at \(jsonPath) is \(node.typeName), not an object or array")
        }
    }

    /// Every block of every document.
    static func allBlocks() throws -> [MarkdownBlock] {
        try documents().flatMap { file in
            try MarkdownBlock.blocks(of: String(contentsOfFile: TestSupport.packageRoot + "/" + file, encoding: .utf8), file: file)
        }
    }

    // MARK: Tests

    @Test("the base scenarios decode and resolve")
    func basesAreValid() {
        for (name, text) in Self.bases.sorted(by: { $0.key < $1.key }) {
            #expect(throws: Never.self, "base '\(name)'") {
                _ = try ScenarioPlan(ScenarioDecoder.decode(text: text, file: "base \(name)"))
            }
        }
    }

    @Test("every ```json block is marked, and every example marked as a scenario or a part decodes and resolves")
    func examplesAreTrue() throws {
        let blocks = try Self.allBlocks()
        var checked = 0
        for b in blocks {
            let problems = Self.problems(of: b)
            for p in problems { Issue.record(Comment(rawValue: p)) }
            switch try? Self.marker(b.above) {
            case .scenario, .part: checked += 1
            default: break
            }
        }
        #expect(checked >= 20, "the documents should check their JSON examples; \(checked) blocks are marked as scenarios or parts")
    }

    @Test("the scenario format page's examples cover the main parts of the format")
    func formatPageCoversTheFormat() throws {
        let file = "docs/scenario-format.md"
        let blocks = try MarkdownBlock.blocks(of: String(contentsOfFile: TestSupport.packageRoot + "/" + file, encoding: .utf8), file: file)
        var parts = Set<String>(), texts: [String] = []
        for b in blocks {
            guard let m = try Self.marker(b.above) else { continue }
            switch m {
            case .scenario: parts.insert("scenario"); texts.append(b.text)
            case .part(let p, _):
                parts.insert(p.hasSuffix("s") && Self.parts[String(p.dropLast())] != nil ? String(p.dropLast()) : p); texts.append(b.text)
            case .notAScenario: break
            }
        }
        for needed in ["scenario", "variant", "dataset", "related", "workload", "assertion", "measurement", "pragmas"] {
            #expect(parts.contains(needed), "\(file) has no checked '\(needed)' example; it has: \(parts.sorted())")
        }
        let all = texts.joined(separator: "\n")
        for (needle, what) in [
            ("\"extends\"", "a variant that extends another"), ("\"moveAttributes\"", "a variant edit"),
            ("\"related\"", "related objects"), ("\"kind\": \"fetch\"", "a fetch workload"),
            ("\"kind\": \"fetchedResults\"", "a fetched-results controller"),
            ("\"kind\": \"batchInsert\"", "a batch insert"), ("\"kind\": \"updateOrInsert\"", "an update-or-insert"),
            ("\"kind\": \"batchDelete\"", "a batch delete"), ("\"predicate\"", "a predicate"),
            ("\"usesIndex\"", "a plan assertion"), ("\"kind\": \"pareto\"", "a generator"),
        ] {
            #expect(all.contains(needle), "\(file): no checked example shows \(what) (\(needle))")
        }
    }

    /// The checker itself: each kind of mistake in a document is reported with its file and line.
    @Test("a broken, unmarked or wrongly marked example fails, naming the file, the line and the JSON path")
    func checkerCatchesMistakes() throws {
        let doc = """
            # Title

            ```json
            {"name": "x"}
            ```
            <!-- scenario: wrokload -->
            ```json
            {"name": "w", "kind": "fetch"}
            ```
            <!-- scenario: workload -->
            ```json
            {"name": "w", "kind": "fetch", "sort": ["lieks"]}
            ```
            <!-- scenario: workload in photos -->
            ```json
            {"name": "w", "kind": "fetch", "sort": ["likes"],}
            ```
            <!-- scenario -->
            ```json
            {"format": 1}
            ```
            <!-- scenario: workload -->
            ```json
            {"name": "ok", "kind": "fetch", "sort": ["likes"]}
            ```
            <!-- not-a-scenario: an env.json excerpt -->
            ```json
            {"cores": 2}
            ```
            ```sh
            schemalab run x.json
            ```
            <!-- scenario: workload -->
            ```jsonc
            {"name": "w2", "kind": "fetch", "touch": "sometimes"}
            ```
            """
        let found = try MarkdownBlock.blocks(of: doc, file: "test.md").map(Self.problems(of:))
        #expect(found.count == 9)
        guard found.count == 9 else { return }
        #expect(found[0].first?.hasPrefix("test.md:3: a ```json block needs") == true, "\(found[0])")
        #expect(found[1].first?.contains("test.md:7: unknown part 'wrokload'") == true, "\(found[1])")
        #expect(found[2].first?.contains("test.md:11: $.workloads[1].sort[0]") == true, "\(found[2])")
        #expect(found[2].first?.contains("lieks") == true, "\(found[2])")
        #expect(found[3].first?.contains("test.md:15: the block is not valid JSON") == true, "\(found[3])")
        #expect(found[4].first?.hasPrefix("test.md:19: $") == true, "\(found[4])")
        #expect(found[5].isEmpty, "\(found[5])")
        #expect(found[6].isEmpty, "\(found[6])")
        #expect(found[7].isEmpty, "\(found[7])")
        #expect(found[8].first?.contains("test.md:34: $.workloads[1].touch") == true, "\(found[8])")
    }
}
