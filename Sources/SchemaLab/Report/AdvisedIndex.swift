import Foundation
import SchemaLabCoreData
import SchemaLabEngine

/// An index `.expert` suggested, read back from its `CREATE INDEX` statement and named in
/// a variant's terms (entity and attributes), so that it can be added to a scenario as a
/// new variant's `addIndexes` entry.
package struct AdvisedIndex: Sendable, Equatable {
    package let entity: String
    /// The attributes in index order, each with its direction.
    package let elements: [(attribute: String, descending: Bool)]

    package static func == (lhs: AdvisedIndex, rhs: AdvisedIndex) -> Bool {
        lhs.entity == rhs.entity && lhs.elements.map(\.attribute) == rhs.elements.map(\.attribute)
            && lhs.elements.map(\.descending) == rhs.elements.map(\.descending)
    }

    /// Reads `CREATE INDEX name ON TABLE(COLUMN [DESC], ...)` against `model`: nil when the
    /// statement is not of that form or names a table or column that is not an entity's
    /// attribute (a foreign key column, Z_ENT).
    package init?(createIndex sql: String, model: ResolvedModel) {
        guard let on = sql.range(of: " ON "), let open = sql.range(of: "(", range: on.upperBound..<sql.endIndex),
            let close = sql.range(of: ")", options: .backwards), open.upperBound <= close.lowerBound
        else { return nil }
        let table = sql[on.upperBound..<open.lowerBound].trimmingCharacters(in: .whitespaces)
        guard let entity = model.entities.first(where: { $0.table == table }) else { return nil }
        var elements: [(String, Bool)] = []
        for part in sql[open.upperBound..<close.lowerBound].split(separator: ",") {
            let words = part.split(separator: " ").map(String.init)
            guard let column = words.first, words.count <= 2,
                let attribute = entity.attributes.first(where: { $0.column == column })
            else { return nil }
            let order = words.count == 2 ? words[1].uppercased() : "ASC"
            guard order == "ASC" || order == "DESC" else { return nil }
            elements.append((attribute.name, order == "DESC"))
        }
        guard !elements.isEmpty else { return nil }
        self.entity = entity.name
        self.elements = elements
    }

    /// This index as a variant's `addIndexes` entry, under `name`.
    package func spec(name: String) -> IndexSpec {
        IndexSpec(
            name: name, entity: entity, elements: elements.map { IndexElementSpec(key: $0.attribute, descending: $0.descending) })
    }

    /// `Entity(attr DESC, attr)` for people.
    package var description: String {
        "\(entity)(\(elements.map { $0.attribute + ($0.descending ? " DESC" : "") }.joined(separator: ", ")))"
    }
}
