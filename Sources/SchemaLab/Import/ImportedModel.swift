import Foundation

/// A Core Data model as Xcode's model editor writes it (`.xcdatamodel/contents`), or as a
/// store's own tables reveal it: the input of `ScenarioImporter`.
///
/// Names and types are kept as the source spells them (`Integer 32`, `Transformable`);
/// `ScenarioImporter` maps them to the lab's scenario.
package struct ImportedModel: Sendable {
    /// Where the model came from (the `contents` file, or the store).
    package var source: String
    package var entities: [Entity]
    /// Things the source cannot tell (a model read from a store), said once each.
    package var unknowns: [String] = []
    /// The store tracks persistent history (it has Core Data's history tables); a model file
    /// cannot tell (history is a store option, not part of the model).
    package var persistentHistory = false

    package init(source: String, entities: [Entity]) {
        self.source = source
        self.entities = entities
    }

    /// An `<entity>` element.
    package struct Entity: Sendable {
        package var name: String
        package var parentEntity: String?
        package var isAbstract = false
        package var attributes: [Attribute] = []
        package var relationships: [Relationship] = []
        package var fetchIndexes: [FetchIndex] = []
        /// Each constraint: attribute names unique together.
        package var uniquenessConstraints: [[String]] = []
        /// The line of the element in the source (0 when not from XML).
        package var line: Int

        package init(name: String, line: Int) {
            self.name = name
            self.line = line
        }
    }

    /// An `<attribute>` element.
    package struct Attribute: Sendable {
        package var name: String
        /// `attributeType` as written: `Integer 16`, `String`, `UUID`, ...
        package var type: String
        package var optional = true
        package var transient = false
        package var indexed = false
        package var allowsExternalBinaryDataStorage = false
        /// `preserveAfterDeletion="YES"`: kept as a history tombstone.
        package var preserveAfterDeletion = false
        /// `defaultValueString` (or `defaultDateTimeInterval` of a date) as written.
        package var defaultValue: String?
        /// A derived attribute's `derivationExpression` as written (`lowercase:(name)`).
        package var derivation: String?
        package var line: Int

        package init(name: String, type: String, line: Int) {
            self.name = name
            self.type = type
            self.line = line
        }
    }

    /// A `<relationship>` element.
    package struct Relationship: Sendable {
        package var name: String
        package var destination: String
        package var toMany = false
        /// `maxCount` (1 on a to-one; a limit on a to-many, which only validation checks).
        package var maxCount: Int?
        package var ordered = false
        package var inverseName: String?
        /// `deletionRule` as written: `Nullify`, `Cascade`, `Deny`, `No Action`.
        package var deletionRule = "Nullify"
        package var line: Int

        package init(name: String, destination: String, line: Int) {
            self.name = name
            self.destination = destination
            self.line = line
        }
    }

    /// A `<fetchIndex>` element and its `<fetchIndexElement>`s.
    package struct FetchIndex: Sendable {
        package var name: String
        package var elements: [Element] = []
        package var line: Int

        package init(name: String, line: Int) {
            self.name = name
            self.line = line
        }

        /// One `<fetchIndexElement>`: a property, `Binary` or `RTree`, and its order.
        package struct Element: Sendable {
            package var property: String
            package var type: String
            package var descending: Bool
            package var line: Int
        }
    }

    package func entity(_ name: String) -> Entity? { entities.first { $0.name == name } }

    /// The model's name for people: `Photos.xcdatamodeld/Photos 2.xcdatamodel` for a
    /// version's contents file, else the source's file name.
    package var displayName: String {
        let url = URL(fileURLWithPath: source)
        guard url.lastPathComponent == "contents" else { return url.lastPathComponent }
        let version = url.deletingLastPathComponent()
        let bundle = version.deletingLastPathComponent()
        return bundle.pathExtension == "xcdatamodeld"
            ? bundle.lastPathComponent + "/" + version.lastPathComponent : version.lastPathComponent
    }
}

/// A model the importer cannot read or does not support: where (file, line, element) and what.
package struct ModelImportError: Error, CustomStringConvertible, Sendable {
    package let file: String
    /// 0 when the problem has no line (a missing file, a store).
    package let line: Int
    /// The XML element (`attribute name="date"`), or the store's table.
    package let element: String
    package let message: String

    package init(file: String, line: Int, element: String, message: String) {
        self.file = file
        self.line = line
        self.element = element
        self.message = message
    }

    package var description: String {
        let at = line > 0 ? "\(file):\(line)" : file
        return element.isEmpty ? "\(at): \(message)" : "\(at): <\(element)>: \(message)"
    }
}
