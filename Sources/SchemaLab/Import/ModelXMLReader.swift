import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the `contents` XML of an `.xcdatamodel` into a `ImportedModel` with Foundation's
/// `XMLParser` (an event parser over libxml2), keeping each element's line for messages.
///
/// It reads what decides the SQLite schema and refuses nothing itself; `ScenarioImporter`
/// says what the lab does not support. Elements that do not reach the store (Xcode's diagram
/// positions, configurations, stored fetch requests, fetched properties, user info) are
/// skipped; an element it does not know inside an entity is an error, so that nothing is
/// dropped silently.
package enum ModelXMLReader {
    /// Parses `data` (the bytes of the file at `file`, which messages name).
    package static func read(data: Data, file: String) throws -> ImportedModel {
        guard data.count <= maxBytes else {
            throw ModelImportError(
                file: file, line: 0, element: "",
                message: "\(data.count) bytes: more than the \(maxBytes) a model's contents file may have (real apps' are under a megabyte)"
            )
        }
        // A model's contents file is UTF-8. Foundation's XMLParser traps (SIGILL) on a name
        // with bytes that are not UTF-8 (found by the model-xml fuzz target), so they are
        // refused here, at their line, before it sees them.
        if let bad = firstInvalidUTF8(data) {
            throw ModelImportError(
                file: file, line: bad.line, element: "",
                message:
                    "not UTF-8 text: byte \(bad.offset + 1) (0x\(String(bad.byte, radix: 16, uppercase: true))) does not begin or continue a UTF-8 character"
            )
        }
        let parser = XMLParser(data: data)
        let delegate = Delegate(file: file)
        parser.delegate = delegate
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if let error = delegate.error { throw error }
        if !ok {
            let reason = XMLErrorText.describe(parser.parserError)
            throw ModelImportError(file: file, line: parser.lineNumber, element: "", message: "not well-formed XML: \(reason)")
        }
        guard delegate.sawModel else {
            throw ModelImportError(
                file: file, line: 1, element: "", message: "no <model> element: this is not a Core Data model's contents file")
        }
        var model = ImportedModel(source: file, entities: delegate.entities)
        if !delegate.skipped.isEmpty {
            let list = delegate.skipped.sorted { $0.key < $1.key }.map { "<\($0.key)> x\($0.value)" }.joined(separator: ", ")
            model.unknowns.append("left out, as they do not reach the store: \(list)")
        }
        return model
    }

    /// The largest contents file the reader takes, and the deepest element nesting: a model
    /// nests four levels (model, entity, fetchIndex, fetchIndexElement).
    package static let maxBytes = 32 * 1_048_576
    package static let maxDepth = 64

    /// The first byte of `data` that is not part of a valid UTF-8 sequence: its offset, value
    /// and 1-based line; nil when all of it is UTF-8.
    static func firstInvalidUTF8(_ data: Data) -> (offset: Int, byte: UInt8, line: Int)? {
        let bytes = [UInt8](data)
        var index = 0, line = 1
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                if lead == 0x0A { line += 1 }
                index += 1
                continue
            }
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0
            guard length > 0, index + length <= bytes.count, lead <= 0xF4,
                String(validating: bytes[index..<index + length], as: UTF8.self) != nil
            else { return (index, lead, line) }
            index += length
        }
        return nil
    }

    /// Elements that describe the editor or the app, not the store: skipped with their children.
    static let ignored: Set<String> = [
        "elements", "element", "configuration", "memberEntity", "fetchRequest",
        "fetchedProperty", "userInfo", "entry",
    ]

    private final class Delegate: NSObject, XMLParserDelegate {
        let file: String
        var entities: [ImportedModel.Entity] = []
        var error: ModelImportError?
        var sawModel = false
        /// Open elements, innermost last.
        var stack: [String] = []
        /// Depth of an ignored element being skipped (0: none).
        var skipping = 0
        var constraint: [String]?
        /// The open `<compoundIndex>`: each `<index>` value and its line.
        var compound: [(value: String, line: Int)]?
        /// Elements skipped as not reaching the store, by name (outermost only).
        var skipped: [String: Int] = [:]

        init(file: String) { self.file = file }

        func fail(_ parser: XMLParser, _ element: String, _ message: String) {
            guard error == nil else { return }
            error = ModelImportError(file: file, line: parser.lineNumber, element: element, message: message)
            parser.abortParsing()
        }

        func bool(_ a: [String: String], _ key: String) -> Bool { a[key] == "YES" }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
            qualifiedName: String?, attributes a: [String: String] = [:]
        ) {
            defer { stack.append(name) }
            // After an error, abortParsing() does not stop every callback (swift-corelibs-foundation
            // delivers the rest of the element): an <attribute> under an <entity> refused for its
            // missing name trapped on the empty entity list (found by the model-xml fuzz target).
            guard error == nil else { return }
            guard stack.count < ModelXMLReader.maxDepth else {
                fail(parser, name, "elements nested deeper than \(ModelXMLReader.maxDepth) levels (a model nests four)")
                return
            }
            if skipping > 0 { skipping += 1; return }
            let line = parser.lineNumber
            let parent = stack.last
            func required(_ key: String) -> String? {
                guard let v = a[key], !v.isEmpty else {
                    fail(parser, name, "the attribute '\(key)' is missing")
                    return nil
                }
                return v
            }
            switch (parent, name) {
            case (nil, "model"):
                sawModel = true
            case (nil, _):
                fail(parser, name, "the root element is <\(name)>, not <model>: this is not a Core Data model's contents file")
            case ("model", "entity"):
                guard let n = required("name") else { return }
                var e = ImportedModel.Entity(name: n, line: line)
                e.parentEntity = a["parentEntity"]
                e.isAbstract = bool(a, "isAbstract")
                entities.append(e)
            case ("entity", "attribute"):
                guard let n = required("name") else { return }
                let type = a["attributeType"] ?? "Undefined"
                var at = ImportedModel.Attribute(name: n, type: type, line: line)
                at.optional = bool(a, "optional")
                at.transient = bool(a, "transient")
                at.indexed = bool(a, "indexed")
                at.allowsExternalBinaryDataStorage = bool(a, "allowsExternalBinaryDataStorage")
                at.preserveAfterDeletion = bool(a, "preserveAfterDeletion")
                at.defaultValue = a["defaultValueString"] ?? a["defaultDateTimeInterval"]
                if bool(a, "derived") {
                    guard let expression = a["derivationExpression"], !expression.isEmpty else {
                        fail(parser, "attribute name=\"\(n)\"", "a derived attribute without its derivationExpression")
                        return
                    }
                    at.derivation = expression
                }
                entities[entities.count - 1].attributes.append(at)
            case ("entity", "relationship"):
                guard let n = required("name") else { return }
                guard let d = required("destinationEntity") else { return }
                var r = ImportedModel.Relationship(name: n, destination: d, line: line)
                r.toMany = bool(a, "toMany")
                r.maxCount = a["maxCount"].flatMap { Int($0) }
                r.ordered = bool(a, "ordered")
                r.inverseName = a["inverseName"]
                r.deletionRule = a["deletionRule"] ?? "Nullify"
                entities[entities.count - 1].relationships.append(r)
            case ("entity", "fetchIndex"):
                guard let n = required("name") else { return }
                entities[entities.count - 1].fetchIndexes.append(ImportedModel.FetchIndex(name: n, line: line))
            case ("fetchIndex", "fetchIndexElement"):
                guard let p = a["property"], !p.isEmpty else {
                    fail(
                        parser, name,
                        a["expression"] != nil
                            ? "an index element on an expression is not supported (only properties)"
                            : "the attribute 'property' is missing")
                    return
                }
                let e = ImportedModel.FetchIndex.Element(
                    property: p, type: a["type"] ?? "Binary",
                    descending: a["order"] == "descending", line: line)
                let last = entities.count - 1
                entities[last].fetchIndexes[entities[last].fetchIndexes.count - 1].elements.append(e)
            case ("entity", "uniquenessConstraints"), ("entity", "compoundIndexes"):
                break
            case ("uniquenessConstraints", "uniquenessConstraint"):
                constraint = []
            case ("uniquenessConstraint", "constraint"):
                guard let v = required("value") else { return }
                constraint?.append(v)
            case ("compoundIndexes", "compoundIndex"):
                compound = []
            case ("compoundIndex", "index"):
                guard let v = required("value") else { return }
                compound?.append((v, line))
            case (_, _) where ModelXMLReader.ignored.contains(name):
                skipping = 1
                skipped[name, default: 0] += 1
            default:
                fail(parser, name, "an element the importer does not know inside <\(parent!)>")
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if !stack.isEmpty { stack.removeLast() }
            guard error == nil else { return }
            if skipping > 0 { skipping -= 1; return }
            switch name {
            case "uniquenessConstraint":
                if let c = constraint, !c.isEmpty { entities[entities.count - 1].uniquenessConstraints.append(c) }
                constraint = nil
            case "compoundIndex":
                // The pre-iOS 11 way to declare a compound index: the lab treats it as a binary fetch index.
                if let c = compound, !c.isEmpty {
                    var index = ImportedModel.FetchIndex(
                        name: "compound" + c.map { $0.value.prefix(1).uppercased() + $0.value.dropFirst() }.joined(),
                        line: c[0].line)
                    index.elements = c.map { .init(property: $0.value, type: "Binary", descending: false, line: $0.line) }
                    entities[entities.count - 1].fetchIndexes.append(index)
                }
                compound = nil
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            guard error == nil else { return }
            let message =
                stack.isEmpty && !sawModel
                ? "not XML: a model's contents file is XML with a <model> element (\(XMLErrorText.describe(parseError)))"
                : "not well-formed XML: \(XMLErrorText.describe(parseError))"
            error = ModelImportError(file: file, line: parser.lineNumber, element: stack.last ?? "", message: message)
        }
    }
}
