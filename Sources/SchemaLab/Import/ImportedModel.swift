import Foundation

/// A Core Data model as Xcode's model editor writes it (`.xcdatamodel/contents`), or as a
/// store's own tables reveal it: the input of ``ScenarioImporter``.
///
/// Names and types are kept as the source spells them (`Integer 32`, `Transformable`);
/// ``ScenarioImporter`` maps them to the lab's scenario.
public struct ImportedModel: Sendable {
    /// Where the model came from (the `contents` file, or the store).
    public var source: String
    public var entities: [Entity]
    /// Things the source cannot tell (a model read from a store), said once each.
    public var unknowns: [String] = []

    public init(source: String, entities: [Entity]) {
        self.source = source
        self.entities = entities
    }

    /// An `<entity>` element.
    public struct Entity: Sendable {
        public var name: String
        public var parentEntity: String?
        public var isAbstract = false
        public var attributes: [Attribute] = []
        public var relationships: [Relationship] = []
        public var fetchIndexes: [FetchIndex] = []
        /// Each constraint: attribute names unique together.
        public var uniquenessConstraints: [[String]] = []
        /// The line of the element in the source (0 when not from XML).
        public var line: Int

        public init(name: String, line: Int) {
            self.name = name
            self.line = line
        }
    }

    /// An `<attribute>` element.
    public struct Attribute: Sendable {
        public var name: String
        /// `attributeType` as written: `Integer 16`, `String`, `UUID`, ...
        public var type: String
        public var optional = true
        public var transient = false
        public var indexed = false
        public var allowsExternalBinaryDataStorage = false
        /// `defaultValueString` (or `defaultDateTimeInterval` of a date) as written.
        public var defaultValue: String?
        /// A derived attribute's `derivationExpression` as written (`lowercase:(name)`).
        public var derivation: String?
        public var line: Int

        public init(name: String, type: String, line: Int) {
            self.name = name
            self.type = type
            self.line = line
        }
    }

    /// A `<relationship>` element.
    public struct Relationship: Sendable {
        public var name: String
        public var destination: String
        public var toMany = false
        /// `maxCount` (1 on a to-one; a limit on a to-many, which only validation checks).
        public var maxCount: Int?
        public var ordered = false
        public var inverseName: String?
        /// `deletionRule` as written: `Nullify`, `Cascade`, `Deny`, `No Action`.
        public var deletionRule = "Nullify"
        public var line: Int

        public init(name: String, destination: String, line: Int) {
            self.name = name
            self.destination = destination
            self.line = line
        }
    }

    /// A `<fetchIndex>` element and its `<fetchIndexElement>`s.
    public struct FetchIndex: Sendable {
        public var name: String
        public var elements: [Element] = []
        public var line: Int

        public init(name: String, line: Int) {
            self.name = name
            self.line = line
        }

        /// One `<fetchIndexElement>`: a property, `Binary` or `RTree`, and its order.
        public struct Element: Sendable {
            public var property: String
            public var type: String
            public var descending: Bool
            public var line: Int
        }
    }

    public func entity(_ name: String) -> Entity? { entities.first { $0.name == name } }

    /// The model's name for people: `Photos.xcdatamodeld/Photos 2.xcdatamodel` for a
    /// version's contents file, else the source's file name.
    public var displayName: String {
        let url = URL(fileURLWithPath: source)
        guard url.lastPathComponent == "contents" else { return url.lastPathComponent }
        let version = url.deletingLastPathComponent()
        let bundle = version.deletingLastPathComponent()
        return bundle.pathExtension == "xcdatamodeld"
            ? bundle.lastPathComponent + "/" + version.lastPathComponent : version.lastPathComponent
    }
}

/// A model the importer cannot read or does not support: where (file, line, element) and what.
public struct ModelImportError: Error, CustomStringConvertible, Sendable {
    public let file: String
    /// 0 when the problem has no line (a missing file, a store).
    public let line: Int
    /// The XML element (`attribute name="date"`), or the store's table.
    public let element: String
    public let message: String

    public init(file: String, line: Int, element: String, message: String) {
        self.file = file
        self.line = line
        self.element = element
        self.message = message
    }

    public var description: String {
        let at = line > 0 ? "\(file):\(line)" : file
        return element.isEmpty ? "\(at): \(message)" : "\(at): <\(element)>: \(message)"
    }
}
