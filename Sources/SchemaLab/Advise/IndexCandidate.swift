import SchemaLabCoreData
import SchemaLabEngine

/// One index the advisor may add (or, with ``isDrop``, an index of the starting variant it may
/// remove): where it is declared, its elements in order, the table it is built on, and why it
/// is in the pool.
package struct IndexCandidate: Sendable, Equatable {
    /// The entity that declares it (the highest entity of its hierarchy that has every key).
    package var entity: String
    /// The keys in index order, each with its direction.
    package var elements: [IndexElementSpec]
    /// The table the index is built on (`ZPHOTO`).
    package var table: String
    /// The columns of the elements, in order (`ZLIKES`, `ZDATE`).
    package var columns: [String]
    /// An existing index of the starting variant, proposed for removal; its name.
    package var dropName: String?
    /// Where it came from: "sort of frc-sections", "equality and range of notes-starred",
    /// "SQLite's expert on fetch-sorted", "merged", "existing".
    package var origins: [String]

    /// A removal of the starting variant's index `name`.
    package var isDrop: Bool { dropName != nil }

    /// The index's identity: its table and its columns with their directions. Two candidates
    /// declared on different entities of one hierarchy are the same index.
    package var identity: String {
        table + "(" + zip(columns, elements).map { $0.0 + ($0.1.descending ? " DESC" : "") }.joined(separator: ",") + ")"
            + (isDrop ? " drop" : "")
    }

    /// The columns without directions: what SQLite's planner can use for lookups.
    package var columnKey: String { table + "(" + columns.joined(separator: ",") + ")" }

    /// `Photo(likes DESC, date DESC)`, or `drop Photo.likes`.
    package var description: String {
        if let dropName { return "drop \(entity).\(dropName)" }
        return "\(entity)(\(elements.map { $0.key + ($0.descending ? " DESC" : "") }.joined(separator: ", ")))"
    }

    /// The `addIndexes` entry of the advised variant, under `name`.
    package func spec(name: String) -> IndexSpec {
        IndexSpec(name: name, entity: entity, elements: elements)
    }

    /// A name for the index in the model: its keys joined (`byLikesDate`).
    package var suggestedName: String {
        "by" + elements.map { $0.key.prefix(1).uppercased() + $0.key.dropFirst() }.joined()
    }

    /// True when `self`'s columns start with `other`'s, in order, and `self` has more of them.
    package func extends(_ other: IndexCandidate) -> Bool {
        table == other.table && columns.count > other.columns.count && Array(columns.prefix(other.columns.count)) == other.columns
    }
}
