import Foundation
import SchemaLab
import Testing

/// The getting-started article (Sources/SchemaLab/SchemaLab.docc/GettingStarted.md), as a
/// package of one's own runs it: a scenario built in Swift and run from Swift, and a shipped
/// scenario loaded and judged.
@Suite("SchemaLab from Swift")
struct GettingStartedTests {
    /// Photos with a date and a like count; the variant `indexed` adds an index on the date.
    static func photos() -> Scenario {
        let photo = EntitySpec(
            name: "Photo",
            attributes: [AttributeSpec(name: "date", type: .date), AttributeSpec(name: "likes", type: .integer32)])
        return Scenario(
            name: "photos-by-date",
            variants: [
                VariantSpec(name: "plain", entities: [photo]),
                VariantSpec(
                    name: "indexed", extends: "plain",
                    addIndexes: [IndexSpec(name: "byDate", entity: "Photo", elements: [IndexElementSpec(key: "date")])]),
            ],
            dataset: DatasetSpec(
                seed: 42, entity: "Photo", counts: [2_000],
                fields: [
                    // Dates are seconds since 2001-01-01 UTC, as Core Data stores them: 2010 to 2014.
                    FieldSpec(
                        names: ["date"],
                        generator: .dateRange(
                            from: CivilDate.midnight(year: 2010, month: 1, day: 1), to: CivilDate.midnight(year: 2015, month: 1, day: 1))),
                    FieldSpec(names: ["likes"], generator: .uniformInt(min: 0, max: 500)),
                ]),
            workloads: [WorkloadSpec(name: "newest", kind: .fetch, sort: [SortSpec(keyPath: "date", ascending: false)])],
            measurement: MeasurementSpec(warmup: 1, repetitions: 3))
    }

    /// The `count-case` program this package builds, beside the test bundle.
    static var countCase: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("count-case").path
    }

    @Test("A scenario built in Swift runs: the sorted fetch uses the index, and the indexed variant takes fewer instructions")
    func scenarioInSwift() throws {
        var options = RunOptions(repetitions: 3)
        options.instructionCounter = CallgrindCounter(executable: Self.countCase)
        let result = try Lab.run(Self.photos(), options: options)

        #expect(result.failures.isEmpty)
        let plain = try #require(result.result(variant: "plain", workload: "newest", size: 2_000))
        let indexed = try #require(result.result(variant: "indexed", workload: "newest", size: 2_000))
        // The plan says why: without the index SQLite sorts in a temporary B-tree.
        #expect(plain.plans.contains { $0.planLines.contains { $0.contains("USE TEMP B-TREE FOR ORDER BY") } })
        #expect(indexed.plans.contains { $0.planLines.contains { $0.contains("USING INDEX Z_Photo_byDate") } })
        #expect(indexed.referenceCheck == .same, "both variants return the same photos")
        // Instruction counts repeat exactly, so one run decides.
        let fewer = try #require(indexed.instructions?.total), more = try #require(plain.instructions?.total)
        #expect(fewer < more)
    }

    @Test("A shipped scenario loads, runs small, and its claims are judged")
    func shippedScenario() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let scenario = try ScenarioDecoder.load(path: root.appendingPathComponent("scenarios/photos-matrix.json").path)
        let options = RunOptions(
            sizes: [500], repetitions: 3, variants: ["V1+index", "V1+compound"], workloads: ["frc-sections"])
        let result = try Lab.run(scenario, options: options)

        let claim = try #require(result.claim("compound-no-sort"))
        // A count of sorts is exact: the compound index serves both of the controller's sorts.
        #expect(claim.verdict == .holds)
        #expect(claim.headline?.basis == .sorts)
    }
}
