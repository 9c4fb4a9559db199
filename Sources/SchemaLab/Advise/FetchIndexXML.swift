import Foundation
import SchemaLabEngine

/// The advice in a model's own terms: `<fetchIndex>` elements as Xcode writes them into an
/// `.xcdatamodel`'s `contents`, and a copy of that XML with the additions made and the
/// removals undone (the user's file is never written).
package enum FetchIndexXML {
    /// `<fetchIndex name="byLikesDate">` with one `<fetchIndexElement property="…" type="Binary"
    /// order="ascending|descending"/>` per element, indented as Xcode indents it in an entity.
    package static func element(name: String, elements: [IndexElementSpec], indent: String = "        ") -> String {
        var lines = ["\(indent)<fetchIndex name=\"\(escaped(name))\">"]
        for element in elements {
            lines.append(
                "\(indent)    <fetchIndexElement property=\"\(escaped(element.key))\" type=\"Binary\" order=\"\(element.descending ? "descending" : "ascending")\"/>"
            )
        }
        lines.append("\(indent)</fetchIndex>")
        return lines.joined(separator: "\n")
    }

    /// `contents` with `additions` inserted in their entities (after the relationships, before
    /// the uniqueness constraints and user info, where Xcode puts fetch indexes) and `removals`
    /// taken out (a `<fetchIndex>` of that name, or an attribute's `indexed="YES"`). Throws
    /// when an entity is not in the XML.
    package static func apply(
        to contents: String, additions: [(entity: String, xml: String)], removals: [(entity: String, name: String)]
    ) throws(OperationError) -> String {
        var text = contents
        for removal in removals {
            guard let body = entityBody(in: text, entity: removal.entity) else {
                throw OperationError(.badInput, "the model has no entity \(removal.entity)")
            }
            var entity = String(text[body])
            let open = "<fetchIndex name=\"\(escaped(removal.name))\">"
            if let start = entity.range(of: open), let end = entity.range(of: "</fetchIndex>", range: start.upperBound..<entity.endIndex) {
                let lineStart = entity[..<start.lowerBound].lastIndex(of: "\n").map { entity.index(after: $0) } ?? start.lowerBound
                let lineEnd = entity[end.upperBound...].firstIndex(of: "\n").map { entity.index(after: $0) } ?? end.upperBound
                entity.removeSubrange(lineStart..<lineEnd)
            } else if let attribute = entity.range(of: "<attribute name=\"\(escaped(removal.name))\"") {
                let close = entity[attribute.upperBound...].firstIndex(of: ">") ?? entity.endIndex
                let tag = attribute.lowerBound..<close
                entity.replaceSubrange(tag, with: entity[tag].replacingOccurrences(of: " indexed=\"YES\"", with: ""))
            }
            text.replaceSubrange(body, with: entity)
        }
        for addition in additions {
            guard let body = entityBody(in: text, entity: addition.entity) else {
                throw OperationError(.badInput, "the model has no entity \(addition.entity)")
            }
            let entity = text[body]
            let before = ["<uniquenessConstraints>", "<userInfo>", "</entity>"].compactMap { entity.range(of: $0) }.first
            guard let anchor = before else { continue }
            let lineStart = entity[..<anchor.lowerBound].lastIndex(of: "\n").map { entity.index(after: $0) } ?? anchor.lowerBound
            text.insert(contentsOf: addition.xml + "\n", at: lineStart)
        }
        return text
    }

    /// The range of `<entity name="…" …> … </entity>` in `text`.
    private static func entityBody(in text: String, entity: String) -> Range<String.Index>? {
        guard let open = text.range(of: "<entity name=\"\(escaped(entity))\""),
            let close = text.range(of: "</entity>", range: open.upperBound..<text.endIndex)
        else { return nil }
        return open.lowerBound..<close.upperBound
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
    }
}
