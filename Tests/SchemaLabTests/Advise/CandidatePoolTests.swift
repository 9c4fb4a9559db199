import Foundation
import Testing
@testable import SchemaLab
import SchemaLabCoreData
import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// The advisor's candidates come from the requests: equality terms, one range term, sort keys
/// with their directions, a section key first, prefetch lookups; merged; existing indexes
/// offered for removal. The search by measurement is tested end to end (AdviseEndToEndTests).
@Suite("Advise: candidates from the requests")
struct CandidatePoolTests {
    @Test("Photos V1: each sort becomes an index with the sort's directions, the section key first; no duplicate")
    func photos() throws {
        let plan = try TestSupport.photosPlan()
        let v1 = try #require(plan.models.first { $0.variant == "V1" })
        var pool = CandidatePool(model: v1)
        pool.gather(from: plan.scenario)
        let found = pool.candidates.map(\.description)
        #expect(found.contains("Photo(date)"), "\(found)")
        #expect(found.contains("Photo(likes DESC, date DESC)"), "\(found)")
        #expect(Set(found).count == found.count)
        let compound = try #require(pool.candidates.first { $0.description == "Photo(likes DESC, date DESC)" })
        #expect(compound.table == "ZPHOTO" && compound.columns == ["ZLIKES", "ZDATE"])
        #expect(compound.origins.contains("section key and sort of frc-sections"))
        #expect(compound.suggestedName == "byLikesDate")
    }

    @Test("A variant's own index is not offered again; its plain indexes are offered for removal")
    func existing() throws {
        let plan = try TestSupport.photosPlan()
        let indexed = try #require(plan.models.first { $0.variant == "V1+index" })
        var pool = CandidatePool(model: indexed)
        pool.gather(from: plan.scenario)
        #expect(!pool.candidates.contains { $0.description == "Photo(date)" })
        pool.addExistingForRemoval()
        let drops = pool.candidates.filter(\.isDrop).map(\.description).sorted()
        #expect(drops == ["drop Photo.date", "drop Photo.likes"], "\(drops)")
    }

    @Test("Equality terms, then one range term, on the entity's own keys; a sub-entity's sort is declared on the parent that has the key")
    func predicateTerms() throws {
        let plan = try ScenarioPlan(ScenarioDecoder.load(path: TestSupport.packageRoot + "/scenarios/inheritance.json"))
        let model = try #require(plan.models.first { $0.variant == "hierarchy" })
        var pool = CandidatePool(model: model)
        pool.gather(from: plan.scenario)
        let found = pool.candidates.map(\.description)
        #expect(found.contains("Note(starred, words)"), "\(found)")
        #expect(found.contains("Note(words)"), "\(found)")
        #expect(found.contains("Item(created DESC)"), "\(found)")
        let created = try #require(pool.candidates.first { $0.description == "Item(created DESC)" })
        #expect(created.table == "ZITEM")
    }

    @Test("Terms: a [c] comparison and an OR are not index terms; a constant on the left is read")
    func terms() throws {
        let plan = try TestSupport.photosPlan()
        let v1 = try #require(plan.models.first { $0.variant == "V1" })
        let photo = try #require(v1.entity("Photo"))
        func terms(_ text: String) -> RequestTerms {
            RequestTerms(workload: WorkloadSpec(name: "w", kind: .fetch, predicate: PredicateSpec(text: text)), entity: photo)
        }
        let mixed = terms("country == 'NL' AND likes > 5 AND width == 3264 AND date < CAST(0, 'NSDate')")
        #expect(mixed.equality.map(\.key) == ["country", "width"])
        #expect(mixed.range?.key == "likes")
        #expect(terms("country ==[c] 'nl'").equality.isEmpty)
        #expect(terms("likes == 1 OR width == 2").equality.isEmpty)
        #expect(terms("5 < likes").range?.key == "likes")
    }

    @Test("Candidates of one table that share their leading column are merged")
    func merging() throws {
        let plan = try TestSupport.photosPlan()
        let v1 = try #require(plan.models.first { $0.variant == "V1" })
        let photo = try #require(v1.entity("Photo"))
        var pool = CandidatePool(model: v1)
        pool.gather(
            from: WorkloadSpec(name: "a", kind: .fetch, predicate: PredicateSpec(text: "country == 'NL' AND likes > 3")), entity: photo)
        pool.gather(
            from: WorkloadSpec(
                name: "b", kind: .fetch, predicate: PredicateSpec(text: "country == 'NL'"), sort: [SortSpec(keyPath: "date")]),
            entity: photo)
        pool.merge()
        let found = pool.candidates.map(\.description)
        #expect(found.contains("Photo(country, likes)") && found.contains("Photo(country, date)"), "\(found)")
        #expect(found.contains("Photo(country, likes, date)"), "\(found)")
    }
}
