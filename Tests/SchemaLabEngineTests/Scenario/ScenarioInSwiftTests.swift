import Foundation
import SchemaLabCoreData
import SchemaLabEngine
import SchemaLabSQLite
import Testing
import SchemaLabTestSupport

/// Scenarios built in Swift with the public initializers only (this file imports the
/// libraries without `@testable`): they encode to JSON that follows scenarios/schema.json and
/// decodes back equal, and a mistake in one is reported at the JSON path of the part.
@Suite("A scenario built in Swift")
struct ScenarioInSwiftTests {
    @Test("docs/scenario-format.md's example builds a scenario that checks, plans and encodes")
    func docExample() throws {
        // docs/scenario-format.md, "Building a scenario in Swift" (docExampleIsTheDocs keeps them equal):
        // begin example
        let scenario = Scenario(
            name: "photos-date",
            variants: [
                VariantSpec(
                    name: "V1",
                    entities: [
                        EntitySpec(
                            name: "Photo",
                            attributes: [AttributeSpec(name: "date", type: .date), AttributeSpec(name: "likes", type: .integer32)])
                    ]),
                VariantSpec(
                    name: "V1+index", extends: "V1",
                    addIndexes: [IndexSpec(name: "date", entity: "Photo", elements: [IndexElementSpec(key: "date")], attributeStyle: true)]),
            ],
            dataset: DatasetSpec(
                seed: 42, entity: "Photo", counts: [1000, 10000],
                fields: [
                    FieldSpec(
                        names: ["date"],
                        generator: .dateRange(
                            from: CivilDate.midnight(year: 2010, month: 1, day: 1), to: CivilDate.midnight(year: 2015, month: 1, day: 1))),
                    FieldSpec(names: ["likes"], generator: .pareto(scale: 8, alpha: 1.5, max: 500)),
                ]),
            workloads: [
                WorkloadSpec(name: "insert", kind: .insert),
                WorkloadSpec(name: "fetch-sorted", kind: .fetch, sort: [SortSpec(keyPath: "date")]),
            ],
            assertions: [AssertionSpec(workload: "fetch-sorted", variant: "V1+index", kind: .usesIndex("ZPHOTO_ZDATE_INDEX"))])
        let checked = try ScenarioDecoder.check(scenario)  // the decoder's rules; an error names $.workloads[1]...
        let plan = try ScenarioPlan(checked)  // every variant resolved, every workload built in each
        let text = ScenarioEncoder.text(scenario)  // the scenario file
        // end example
        #expect(checked == scenario)
        #expect(plan.models.map(\.variant) == ["V1", "V1+index"])
        #expect(text.hasPrefix("{\n  \"format\": 1,\n  \"name\": \"photos-date\",\n  \"variants\": [\n"))
        #expect(text.contains("{\"name\": \"fetch-sorted\", \"kind\": \"fetch\", \"sort\": [\"date\"]}"), "\(text)")
        #expect(
            text.contains(
                "{\"field\": \"date\", \"generator\": {\"kind\": \"dateRange\", \"from\": \"2010-01-01\", \"to\": \"2014-12-31\"}}"),
            "\(text)")
        // A part added later gets its path too: the plan names it.
        var wrong = scenario
        wrong.workloads.append(WorkloadSpec(name: "by-nothing", kind: .fetch, sort: [SortSpec(keyPath: "nosuch")]))
        #expect(wrong.workloads[2].path == "$.workloads[2]")
        #expect {
            _ = try ScenarioPlan(wrong)
        } throws: { e in
            (e as? ScenarioError)?.path.hasPrefix("$.workloads[2]") == true && "\(e)".hasPrefix("photos-date: $.workloads[2]")
        }
    }

    @Test("The example in docs/scenario-format.md is the one docExample runs")
    func docExampleIsTheDocs() throws {
        let docs = TestSupport.packageRoot + "/docs/scenario-format.md"
        let blocks = try MarkdownBlock.blocks(of: String(contentsOfFile: docs, encoding: .utf8), file: docs)
        let block = try #require(blocks.first { $0.language == "swift" && $0.above == "<!-- swift: ScenarioInSwiftTests.docExample -->" })
        let source = try String(contentsOfFile: #filePath, encoding: .utf8).components(separatedBy: "\n")
        let begin = try #require(source.firstIndex { $0.hasSuffix("// begin example") })
        let end = try #require(source.firstIndex { $0.hasSuffix("// end example") })
        let indent = source[begin].prefix { $0 == " " }.count
        let tested = source[(begin + 1)..<end].map { String($0.dropFirst(indent)) }
        let documented = block.text.components(separatedBy: "\n").drop { $0.hasPrefix("import ") || $0.isEmpty }
        #expect(Array(documented) == tested, "the docs' block:\n\(block.text)")
    }

    @Test("A mistake in a scenario built in Swift is reported at the JSON path of the part")
    func mistakesSayWhere() throws {
        var scenario = Self.rich()
        scenario.workloads[1].name = "two words"
        #expect {
            _ = try ScenarioDecoder.check(scenario)
        } throws: { e in
            (e as? ScenarioError)?.path == "$.workloads[1].name" && "\(e)".hasPrefix("library-in-swift: $.workloads[1].name: ")
        }
    }

    @Test("A scenario using every part of the format encodes to JSON that follows schema.json and decodes back equal")
    func everyPart() throws {
        let scenario = Self.rich()
        let text = ScenarioEncoder.text(scenario)
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/library-in-swift.json"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let report = try JSONSchemaValidator.validate(schema: ScenarioSchemaTests.schema, documents: [file])
        #expect(report.documents[file]?.isEmpty == true, "\(report.documents[file] ?? [])\n\(text)")
        let decoded = try ScenarioDecoder.decode(text: text, file: scenario.file)
        #expect(decoded == scenario, "\(text)")
        #expect(ScenarioEncoder.text(decoded) == text)
        #expect(decoded.workloads[4].boxes?.path == "$.workloads[4].boxes")
        #expect(decoded.dataset.related[1].relationshipPath == "Author/tokens")
        #expect(decoded.dataset.related[0].related[0].relationshipPath == "books.tags")
    }

    /// Authors, books and tags, with every edit, generator, workload kind, assertion kind and
    /// claim form: what the format can say, said in Swift.
    static func rich() -> Scenario {
        let author = EntitySpec(
            name: "Author",
            attributes: [
                AttributeSpec(name: "name", type: .string, optional: false),
                AttributeSpec(name: "nameSearch", type: .string, canonicalOf: "name"),
                AttributeSpec(name: "born", type: .date),
                AttributeSpec(name: "bookCount", type: .integer32, defaultValue: .integer(0)),
                AttributeSpec(name: "featured", type: .bool, defaultValue: .integer(1)),
            ],
            relationships: [
                RelationshipSpec(name: "books", destination: "Book", toMany: true, ordered: true, inverse: "author", deleteRule: .cascade)
            ])
        let book = EntitySpec(
            name: "Book",
            attributes: [
                AttributeSpec(name: "title", type: .string), AttributeSpec(name: "year", type: .integer16),
                AttributeSpec(name: "rating", type: .double, defaultValue: .real(2.5)),
                AttributeSpec(name: "cover", type: .binary, allowsExternalStorage: true, externalStorageThreshold: 4096),
                AttributeSpec(name: "titleLower", type: .string, derivation: "lowercase:(title)"),
            ],
            relationships: [
                RelationshipSpec(name: "author", destination: "Author", inverse: "books"),
                RelationshipSpec(name: "tags", destination: "Tag", toMany: true, inverse: "books", deleteRule: .noAction),
            ])
        let tag = EntitySpec(
            name: "Tag", attributes: [AttributeSpec(name: "name", type: .string)],
            relationships: [RelationshipSpec(name: "books", destination: "Book", toMany: true, inverse: "tags")],
            uniquenessConstraints: [UniquenessConstraintSpec(attributes: ["name"])])
        let item = EntitySpec(name: "Item", abstract: true)
        let note = EntitySpec(name: "Note", attributes: [AttributeSpec(name: "body", type: .string)], parent: "Item")
        let flat = VariantSpec(
            name: "flat", entities: [author, book, tag, item, note],
            indexes: [
                IndexSpec(
                    name: "byYearTitle", entity: "Book",
                    elements: [IndexElementSpec(key: "year", descending: true), IndexElementSpec(key: "title")]),
                IndexSpec(name: "title", entity: "Book", elements: [IndexElementSpec(key: "title")], unique: true, attributeStyle: true),
                IndexSpec(name: "byRating", entity: "Book", elements: [IndexElementSpec(key: "rating")], kind: .rtree, combinedQuery: true),
            ])
        let edited = VariantSpec(
            name: "edited", description: "Every edit once.", extends: "flat",
            addEntities: [
                EntitySpec(
                    name: "YearCount",
                    attributes: [AttributeSpec(name: "year", type: .integer16), AttributeSpec(name: "books", type: .integer32)])
            ],
            addAttributes: [AddedAttributeSpec(entity: "Book", attribute: AttributeSpec(name: "pages", type: .integer32))],
            moveAttributes: [AttributeTransferSpec(from: "Author", to: "Book", names: ["born"])],
            copyAttributes: [AttributeTransferSpec(from: "Book", to: "Author", names: ["year"])],
            removeAttributes: [EntityMemberRef(entity: "Book", name: "cover")],
            addRelationships: [
                AddedRelationshipSpec(entity: "Author", relationship: RelationshipSpec(name: "favourite", destination: "Book"))
            ],
            dropIndexes: [EntityMemberRef(entity: "Book", name: "byYearTitle")],
            addIndexes: [IndexSpec(name: "byYear", entity: "Book", elements: [IndexElementSpec(key: "year")])],
            addUniquenessConstraints: [
                AddedConstraintSpec(entity: "Author", constraint: UniquenessConstraintSpec(attributes: ["name", "born"]))
            ],
            counters: [CounterSpec(entity: "YearCount", key: "year", count: "books", of: "Book", by: "year")])
        return Scenario(
            name: "library-in-swift", description: "Built in Swift.", variants: [flat, edited], dataset: dataset(),
            workloads: readWorkloads() + writeWorkloads(),
            measurement: MeasurementSpec(warmup: 2, repetitions: 5, maxSeconds: 10, timeout: 120),
            pragmas: [Pragma(name: "synchronous", value: "normal"), Pragma(name: "cache_size", value: "-4000")], reference: "edited",
            assertions: [
                AssertionSpec(workload: "books-by-year", variant: "flat", kind: .usesIndex("Z_Book_byYearTitle"), description: "the index"),
                AssertionSpec(workload: "books-by-year", variant: "flat", kind: .noTempBTree),
                AssertionSpec(workload: "authors", variant: "flat", kind: .usesTempBTree),
                AssertionSpec(workload: "books-by-year", variant: "edited", kind: .noFullScan),
                AssertionSpec(workload: "authors", variant: "edited", kind: .maxStatements(3)),
                AssertionSpec(workload: "authors", kind: .sameResults(["flat", "edited"])),
                AssertionSpec(workload: "authors", variant: "edited", kind: .faster(than: "flat")),
            ],
            claims: [
                ClaimSpec(
                    id: "half", source: ClaimSpec.Source(document: "An article", year: 2014, location: "table 1"),
                    statement: "Prefetching halves the time.", subject: ClaimSpec.Side(variant: "edited", workload: "authors"),
                    against: ClaimSpec.Side(variant: "flat", workload: "authors"), metric: .medianTime,
                    expectation: ClaimSpec.Expectation(direction: .lower, ratio: 0.4...0.6, figure: "about half", tolerance: 3), size: 1000,
                    description: "a range of ratios"),
                ClaimSpec(
                    id: "more-sorts", source: ClaimSpec.Source(document: "A talk", year: 2018, location: "slide 9"),
                    statement: "The controller sorts more.", subject: ClaimSpec.Side(variant: "edited", workload: "year-sections"),
                    against: ClaimSpec.Side(variant: "edited", workload: "books-by-year"), metric: .sorts,
                    expectation: ClaimSpec.Expectation(direction: .higher)),
            ])
    }

    /// A root of authors (a token per word of a bio) and their books, each with tags from a pool.
    static func dataset() -> DatasetSpec {
        let location = FieldSpec(
            names: ["latitude", "longitude", "country"],
            generator: .clusteredLocation(
                clusters: [
                    LocationCluster(latitude: 51.5, longitude: -0.13, sigma: 0.1, label: "United Kingdom"),
                    LocationCluster(latitude: 48.86, longitude: 2.35, sigma: 0.07, weight: 0.4, label: "France"),
                ], scatter: 0.1, scatterLabels: ["elsewhere"]), optional: true)
        let tags = RelatedSpec(
            relationship: "tags", pool: PoolSpec(count: 50, fields: [FieldSpec(names: ["name"], generator: .uuid(prefix: "tag-"))]),
            popularity: 1.2, fanOut: .uniformInt(min: 0, max: 3))
        let books = RelatedSpec(
            relationship: "books", fanOut: .pareto(scale: 2, alpha: 1.5, max: 8),
            fields: [
                FieldSpec(names: ["title"], generator: .text(minLength: 5, maxLength: 30, words: ["red", "sea", "old"])),
                FieldSpec(names: ["year"], generator: .uniformInt(min: 1950, max: 2024)),
                FieldSpec(names: ["rating"], generator: .uniformDouble(min: 0, max: 5)),
                FieldSpec(names: ["authorName"], generator: .parentField(field: "name"), optional: true),
                FieldSpec(names: ["position"], generator: .position, optional: true),
                FieldSpec(names: ["tagList"], generator: .joinedOf(relationship: "tags", field: "name", separator: ";"), optional: true),
                FieldSpec(names: ["cover"], generator: .bytes(minLength: 16, maxLength: 64)),
            ],
            related: [tags])
        let tokens = RelatedSpec(
            relationship: "tokens", forEntity: "Author", optional: true, fanOut: .wordsOf(field: "bio"),
            fields: [FieldSpec(names: ["word"], generator: .word)])
        return DatasetSpec(
            seed: 7, entity: "Author", counts: [100, 1000],
            fields: [
                FieldSpec(names: ["name"], generator: .uuid(prefix: "author-", suffix: "!")),
                FieldSpec(
                    names: ["born"],
                    generator: .dateRange(
                        from: CivilDate.midnight(year: 1950, month: 1, day: 1), to: CivilDate.midnight(year: 2001, month: 1, day: 1))),
                FieldSpec(names: ["bornDay"], generator: .derived(from: "born", function: .day), optional: true),
                FieldSpec(names: ["bookCount"], generator: .countOf(relationship: "books")),
                FieldSpec(names: ["featured"], generator: .bool(probability: 0.25)),
                FieldSpec(names: ["code"], generator: .sequence(start: 10, step: 5, prefix: "A"), optional: true),
                FieldSpec(names: ["score"], generator: .normal(mean: 3, stddev: 1.5, min: 0, max: 10), optional: true),
                FieldSpec(
                    names: ["followers"], generator: .pareto(scale: 5, alpha: 1.2, max: 100_000, roundAbove: 1000, roundTo: 100),
                    optional: true),
                FieldSpec(
                    names: ["genre"], generator: .choice(values: [.text("poetry"), .text("prose"), .integer(3)], weights: [3, 2, 1]),
                    optional: true),
                FieldSpec(names: ["shelf"], generator: .constant(.real(1.5)), optional: true),
                FieldSpec(names: ["bio"], generator: .text(minLength: 20, maxLength: 80), optional: true),
                location,
            ],
            related: [books, tokens])
    }

    /// One of each read shape: objects, dictionaries, a controller, boxes, a count, a reduction, pages.
    static func readWorkloads() -> [WorkloadSpec] {
        [
            WorkloadSpec(name: "insert", kind: .insert, saveEvery: 100),
            WorkloadSpec(
                name: "authors", kind: .fetch,
                predicate: PredicateSpec(
                    text: "born > %@ AND name != %@ AND bookCount IN %@ AND featured == %@ AND shelf < %@ AND code != %@",
                    arguments: [
                        .date(CivilDate.midnight(year: 1960, month: 6, day: 1) + 3600), .string("x"), .array([.integer(1), .integer(2)]),
                        .bool(true), .real(2.5), .null,
                    ]),
                sort: [SortSpec(keyPath: "name", comparator: .localized), SortSpec(keyPath: "born", ascending: false)], batchSize: 20,
                returnsObjectsAsFaults: false, prefetch: ["books"], keyBinding: .parameters, touch: .first(10),
                touchKeys: ["name", "books.title"]),
            WorkloadSpec(
                name: "books-per-year", kind: .fetch, entity: "Book", sort: [SortSpec(keyPath: "year")], resultType: .dictionaries,
                propertiesToFetch: [.keyPath("year"), .expression(name: "n", function: .count, keyPath: "title")], groupBy: ["year"],
                having: PredicateSpec(text: "n > %@", arguments: [.integer(1)]), distinct: true),
            WorkloadSpec(
                name: "year-sections", kind: .fetchedResults, entity: "Book", sort: [SortSpec(keyPath: "year")], sectionKey: "year",
                batchSize: 30),
            WorkloadSpec(
                name: "boxes", kind: .fetch,
                predicate: PredicateSpec(text: "latitude BETWEEN {%@, %@} AND longitude BETWEEN {%@, %@}"),
                touchKeys: ["name"],
                boxes: BoxSetSpec(count: 10, seed: 5, keys: ["latitude", "longitude"], minSelectivity: 0.0005, maxSelectivity: 0.1)),
            WorkloadSpec(name: "count", kind: .fetch, entity: "Book", predicate: PredicateSpec(text: "year > 2000"), resultType: .count),
            WorkloadSpec(
                name: "mean-rating", kind: .fetch, entity: "Book", includesPropertyValues: true, touch: .none,
                reduce: [.expression(name: "mean", function: .avg, keyPath: "rating")], agreesWith: "books-per-year"),
            WorkloadSpec(name: "pages", kind: .fetch, sort: [SortSpec(keyPath: "name")], pageSize: 50, touch: .array, variants: ["flat"]),
            WorkloadSpec(
                name: "books-by-year", kind: .fetch, entity: "Book",
                sort: [SortSpec(keyPath: "year", ascending: false), SortSpec(keyPath: "title")], fetchLimit: 20, fetchOffset: 10),
        ]
    }

    /// One workload of each write kind.
    static func writeWorkloads() -> [WorkloadSpec] {
        [
            WorkloadSpec(
                name: "append", kind: .append, count: 40, saveEvery: 10,
                measurement: MeasurementSpec(warmup: 0, repetitions: 3, maxSeconds: 10, timeout: 120)),
            WorkloadSpec(
                name: "batch", kind: .batchInsert, source: .handler, mergePolicy: .objectTrump,
                feed: FeedSpec(size: 0.5, existing: 0.8, seed: 3)),
            WorkloadSpec(
                name: "upsert", kind: .updateOrInsert, saveEvery: 50, feed: FeedSpec(), key: ["name"], strategy: .sortedMerge,
                mergeBatch: 100),
            WorkloadSpec(
                name: "batch-update", kind: .batchUpdate, entity: "Book",
                predicate: PredicateSpec(text: "year < %@", arguments: [.integer(1990)]),
                set: [AttributeAssignment(attribute: "rating", value: .real(4.5))],
                verify: PredicateSpec(text: "rating == %@", arguments: [.real(4.5)])),
            WorkloadSpec(
                name: "update", kind: .update, entity: "Book", set: [AttributeAssignment(attribute: "title", value: .string("x"))],
                replacements: [WordReplacement(attribute: "tagList", word: "tag-1", with: "tag-one", separator: ";")],
                agreesWith: "batch-update"),
            WorkloadSpec(
                name: "batch-delete", kind: .batchDelete, entity: "Book", predicate: PredicateSpec(text: "year < 1960"), fetchLimit: 10),
            WorkloadSpec(name: "delete", kind: .delete, entity: "Book", predicate: PredicateSpec(text: "year < 1960")),
            WorkloadSpec(
                name: "reader", kind: .readerUnderWriter, sort: [SortSpec(keyPath: "name")], fetchLimit: 20, touch: .first(20), count: 100,
                saveEvery: 10, reads: 50, journalMode: .delete),
            WorkloadSpec(
                name: "reorder", kind: .reorder, entity: "Author", relationship: "books", operation: .insertMiddle, positionKey: "position",
                count: 10),
            WorkloadSpec(
                name: "logged", kind: .sql, entity: "Book",
                sql: "SELECT t0.Z_PK, t0.ZTITLE FROM ZBOOK t0 WHERE t0.ZYEAR > ? ORDER BY t0.ZTITLE",
                sqlArguments: [.integer(2000)], reason: "kept as logged", weight: 12.5,
                device: DeviceUsage(runs: 25, rows: 500, seconds: 0.4)),
        ]
    }
}
