import Foundation
import Testing
@testable import SchemaLab
import SchemaLabEngine

/// The advice in the model's own XML: the `<fetchIndex>` element Xcode writes, added where
/// Xcode puts it, and a removed index taken out.
@Suite("Advise: fetchIndex XML")
struct FetchIndexXMLTests {
    let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Photo" representedClassName="Photo" syncable="YES">
                <attribute name="date" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="likes" optional="YES" attributeType="Integer 32" indexed="YES" usesScalarValueType="YES"/>
                <fetchIndex name="byDate">
                    <fetchIndexElement property="date" type="Binary" order="ascending"/>
                </fetchIndex>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="date"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Tag" representedClassName="Tag" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    @Test("The element: one fetchIndexElement per key, Binary, with its order")
    func element() {
        let xml = FetchIndexXML.element(
            name: "byLikesDate", elements: [IndexElementSpec(key: "likes", descending: true), IndexElementSpec(key: "date")])
        #expect(
            xml == """
                        <fetchIndex name="byLikesDate">
                            <fetchIndexElement property="likes" type="Binary" order="descending"/>
                            <fetchIndexElement property="date" type="Binary" order="ascending"/>
                        </fetchIndex>
                """)
    }

    @Test(
        "Added before the uniqueness constraints (or the entity's end); removed as a fetchIndex or as indexed=YES; other entities untouched"
    )
    func apply() throws {
        let add = FetchIndexXML.element(name: "byLikes", elements: [IndexElementSpec(key: "likes")])
        let tag = FetchIndexXML.element(name: "byName", elements: [IndexElementSpec(key: "name")])
        let out = try FetchIndexXML.apply(
            to: model, additions: [("Photo", add), ("Tag", tag)], removals: [("Photo", "byDate"), ("Photo", "likes")])
        #expect(!out.contains("<fetchIndex name=\"byDate\">"))
        #expect(!out.contains("indexed=\"YES\""))
        let added = try #require(out.range(of: "<fetchIndex name=\"byLikes\">"))
        let constraints = try #require(out.range(of: "<uniquenessConstraints>"))
        #expect(added.lowerBound < constraints.lowerBound)
        let byName = try #require(out.range(of: "<fetchIndex name=\"byName\">"))
        #expect(byName.lowerBound > constraints.lowerBound)
        #expect(out.contains("<attribute name=\"name\" optional=\"YES\" attributeType=\"String\"/>"))
        #expect(throws: OperationError.self) { try FetchIndexXML.apply(to: model, additions: [("Nope", add)], removals: []) }
    }
}
