import Foundation
import Testing
import SchemaLab
import SchemaLabTestSupport

/// The advisor's known answers, measured on small data sets: on SQLite's VM steps (counted in
/// the process, the same on every run) for the search's logic, and once on instructions
/// counted by callgrind through the built CLI (`count-case`). What the search proposes is
/// asserted, never a count.
@Suite(
    "Advise, end to end: the known answers, measured",
    .disabled(if: TestSupport.sanitizer != nil, "callgrind cannot run a sanitized binary"))
struct AdviseEndToEndTests {
    /// Options for a quick advice on VM steps: one size, two timed repetitions.
    static func options(variant: String, size: Int = 200) -> AdviceOptions {
        var options = AdviceOptions(variant: variant, size: size, basis: .vmSteps)
        options.secondSize = nil
        options.repetitions = 2
        return options
    }

    @Test("On instructions counted by callgrind: the date index for a sorted fetch, its share proved by leaving it out")
    func instructions() throws {
        var scenario = try ScenarioDecoder.load(path: TestSupport.photosScenario)
        scenario.workloads = scenario.workloads.filter { $0.name == "fetch-sorted" || $0.name == "insert" }
        scenario.claims = []
        scenario.assertions = []
        var options = AdviceOptions(
            variant: "V1", size: 200, instructionCounter: CallgrindCounter(executable: TestSupport.executable))
        options.secondSize = nil
        options.checksAnalyze = false
        options.repetitions = 2
        let advice = try Advisor.advise(scenario, options: options)
        #expect(advice.basis == .instructions)
        #expect(advice.additions.map(\.description) == ["Photo(date)"], "\(advice.steps) \(advice.declined)")
        let date = try #require(advice.additions.first)
        #expect(date.serves == ["fetch-sorted"] && date.readGain > 0 && date.writeCost > 0)
        #expect(advice.readAfter < advice.readBefore && advice.writeAfter > advice.writeBefore)
    }

    @Test(
        "Photos V1 through the CLI, on VM steps: the (likes, date) compound index for the sectioned controllers and the date index for the sorted fetch; the scenario, the report and the model's copy written"
    )
    func photosThroughTheCLI() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let model = dir + "/Photos.xcdatamodel"
        try FileManager.default.createDirectory(atPath: model, withIntermediateDirectories: true)
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Photo" representedClassName="Photo" syncable="YES">
                    <attribute name="date" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                    <attribute name="likes" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                </entity>
            </model>
            """
        try Data(contents.utf8).write(to: URL(fileURLWithPath: model + "/contents"))
        let run = try TestSupport.runCLI(
            [
                "advise", TestSupport.photosScenario, "--variant", "V1", "--size", "200", "--second-size", "100", "--reps", "2",
                "--basis", "vm-steps", "--out", dir + "/advised.json", "--report", dir + "/advice.md", "--model", model,
                "--model-out", dir + "/Advised.xcdatamodel",
            ], environment: ["TMPDIR": dir])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("Add fetch index byLikesDate (likes DESC, date DESC) to entity Photo"), "\(run.out)")
        #expect(run.out.contains("Add fetch index byDate (date) to entity Photo: fetch-sorted faster"), "\(run.out)")
        let scenario = try ScenarioDecoder.load(path: dir + "/advised.json")
        let advised = try #require(scenario.variants.first { $0.name == "advised" })
        #expect(advised.extends == "V1")
        #expect(advised.addIndexes.map(\.name) == ["byLikesDate", "byDate"])
        let report = try String(contentsOfFile: dir + "/advice.md", encoding: .utf8)
        #expect(report.contains("| add Photo(likes DESC, date DESC) | frc-batched, frc-sections |"), "\(report)")
        #expect(report.contains("USING INDEX Z_Photo_byDate"))
        #expect(report.contains("<fetchIndexElement property=\"likes\" type=\"Binary\" order=\"descending\"/>"))
        let copy = try String(contentsOfFile: dir + "/Advised.xcdatamodel/contents", encoding: .utf8)
        #expect(copy.contains("<fetchIndex name=\"byLikesDate\">") && copy.contains("<fetchIndex name=\"byDate\">"))
        let original = try String(contentsOfFile: model + "/contents", encoding: .utf8)
        #expect(original == contents, "the user's model is never written")
        // Outputs that exist are refused before anything is measured.
        let again = try TestSupport.runCLI(["advise", TestSupport.photosScenario, "--variant", "V1", "--out", dir + "/advised.json"])
        #expect(again.status == 2 && again.err.contains("advised.json exists"), "\(again.err)")
    }

    @Test("Photos V1 with an insert-heavy weight: every index is declined, its write cost exceeding its read gain")
    func insertHeavy() throws {
        var scenario = try ScenarioDecoder.load(path: TestSupport.photosScenario)
        scenario.workloads = scenario.workloads.map { workload in
            var workload = workload
            if workload.kind == .insert { workload.weight = 10_000 }
            return workload
        }
        let advice = try Advisor.advise(scenario, options: Self.options(variant: "V1"))
        #expect(advice.additions.isEmpty, "\(advice.additions.map(\.description))")
        #expect(advice.declined.contains { $0.contains("exceeds its read gain") }, "\(advice.declined)")
        #expect(advice.advisedScenario == nil)
    }

    @Test("Inheritance: the index on the shared table that serves a sub-entity's sorted fetch")
    func inheritance() throws {
        let scenario = try ScenarioDecoder.load(path: TestSupport.packageRoot + "/scenarios/inheritance.json")
        var options = Self.options(variant: "hierarchy", size: 300)
        options.checksAnalyze = true
        let advice = try Advisor.advise(scenario, options: options)
        let created = try #require(advice.additions.first { $0.elements.first?.key == "created" }, "\(advice.steps)")
        #expect(created.entity == "Item" && created.readGain > 0)
        #expect(created.serves.contains("items-recent"), "\(created.serves)")
        // Without statistics SQLite reads a sub-entity's rows through the Z_ENT index and sorts
        // them; with ANALYZE's it walks the shared table in the new index's order instead.
        #expect(!created.serves.contains("photos-recent"), "\(created.serves)")
        let analyzed = try #require(created.checks.first { $0.label == "with ANALYZE" })
        #expect(analyzed.serves.contains("photos-recent"), "\(analyzed.serves)")
        #expect(advice.workloads.allSatisfy { $0.sameResult })
    }

    @Test("An index that duplicates a prefix of another is removed: likes beside (likes DESC, date DESC)")
    func duplicatePrefix() throws {
        var scenario = try ScenarioDecoder.load(path: TestSupport.photosScenario)
        scenario.variants.append(
            VariantSpec(
                name: "dup", extends: "V1",
                addIndexes: [
                    IndexSpec(name: "likes", entity: "Photo", elements: [IndexElementSpec(key: "likes")]),
                    IndexSpec(
                        name: "byLikesDate", entity: "Photo",
                        elements: [IndexElementSpec(key: "likes", descending: true), IndexElementSpec(key: "date", descending: true)]),
                    IndexSpec(name: "byDate", entity: "Photo", elements: [IndexElementSpec(key: "date")]),
                ]))
        scenario.claims = []
        scenario.assertions = []
        let advice = try Advisor.advise(scenario, options: Self.options(variant: "dup"))
        #expect(advice.removals.map(\.name) == ["likes"], "\(advice.steps) \(advice.declined)")
        #expect(advice.additions.isEmpty)
    }
}

/// Beyond indexes: per-row faults answered with a prefetch, measured.
@Suite("Advise, end to end: prefetching proposed by measurement")
struct AdvisePrefetchEndToEndTests {
    @Test(
        "A fetch that faults every author's books one by one is measured again with books prefetched; the same objects, far fewer statements"
    )
    func prefetch() throws {
        let scenario = try ScenarioDecoder.load(path: TestSupport.packageRoot + "/scenarios/relationships.json")
        var options = AdviceOptions(variant: "normalized", size: 200, basis: .vmSteps)
        options.secondSize = nil
        options.checksAnalyze = false
        options.repetitions = 2
        options.maxIndexes = 1
        let advice = try Advisor.advise(scenario, options: options)
        let titles = try #require(advice.prefetches.first { $0.workload == "author-titles-faults" }, "\(advice.prefetches.map(\.workload))")
        #expect(titles.keyPaths == ["books"] && titles.sameResult)
        #expect(titles.statementsAfter == 2 && titles.statementsBefore > 100, "\(titles.statementsBefore) -> \(titles.statementsAfter)")
        // A fetch that already prefetches is not probed.
        #expect(!advice.prefetches.contains { $0.workload == "author-titles-prefetch" })
        #expect(advice.additions.count <= 1)
    }
}

/// A real app: Mastodon for iOS's model (imported) with twelve fetches written from the app's
/// own code (Tests/Fixtures/Advise/sources.md), which declares no index.
@Suite("Advise, end to end: a real app's model and requests")
struct AdviseRealAppEndToEndTests {
    @Test(
        "Mastodon: the domain-and-id lookups the app runs for every status and user get their indexes; every proposal gains on its own; the advised variant reads less, returns the same"
    )
    func mastodon() throws {
        let scenario = try ScenarioDecoder.load(path: TestSupport.packageRoot + "/Tests/Fixtures/Advise/mastodon-requests.json")
        var options = AdviceOptions(variant: "as-is", size: 200, basis: .vmSteps)
        options.secondSize = nil
        options.checksAnalyze = false
        options.repetitions = 2
        let advice = try Advisor.advise(scenario, options: options)
        let added = advice.additions.map(\.description)
        for entity in ["Status", "MastodonUser"] {
            #expect(
                advice.additions.contains { $0.entity == entity && $0.elements.prefix(2).map(\.key) == ["domain", "id"] },
                "an index on \(entity) led by (domain, id): \(added)")
        }
        #expect(advice.additions.allSatisfy { $0.readGain - $0.writeCost > 0 && !$0.serves.isEmpty }, "\(added)")
        #expect(advice.readAfter < advice.readBefore)
        #expect(advice.workloads.allSatisfy { $0.sameResult })
        #expect(
            advice.unusedIndexes.allSatisfy { !$0.contains("UNIQUE") }, "a uniqueness constraint's index is behaviour, not an unused index")
    }
}
