import Foundation
import Testing
@testable import SchemaLab
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// The index `.expert` advises, read back in a variant's terms (`schemalab explain` end to end
/// is `CaseExplanationEndToEndTests`, in SchemaLabCLITests).
@Suite("Explain: an advised index in the variant's terms")
struct CaseExplanationTests {
    @Test("An advised index is read back in the variant's terms; a column that is not an attribute is refused")
    func advisedIndex() throws {
        let plan = try TestSupport.photosPlan()
        let v1 = try #require(plan.models.first { $0.variant == "V1" })
        let a = try #require(AdvisedIndex(createIndex: "CREATE INDEX ZPHOTO_idx_1 ON ZPHOTO(ZLIKES DESC, ZDATE);", model: v1))
        #expect(a.entity == "Photo" && a.elements.map(\.attribute) == ["likes", "date"] && a.elements.map(\.descending) == [true, false])
        #expect(a.description == "Photo(likes DESC, date)")
        #expect(AdvisedIndex(createIndex: "CREATE INDEX x ON ZPHOTO(Z_ENT);", model: v1) == nil)
        #expect(AdvisedIndex(createIndex: "CREATE INDEX x ON ZNOPE(ZLIKES);", model: v1) == nil)
        #expect(AdvisedIndex(createIndex: "(no new indexes)", model: v1) == nil)
    }
}
