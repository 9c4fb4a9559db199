/// A key path resolved against one variant: the to-one relationships to follow
/// from the fetched entity, and the attribute at the end.
///
/// In V1, `likes` is `Photo.likes`; in V2 it is `Photo.meta.likes`, one LEFT OUTER
/// JOIN away; in V3 it is `Photo.likes` again, on the denormalized copy.
package struct ResolvedKeyPath: Sendable, Equatable {
    /// The key path as written in the scenario.
    package let text: String
    /// The to-one relationships to follow, in order (empty: the attribute is on the entity).
    package let relationships: [RelationshipModel]
    /// The entity that holds the attribute.
    package let owner: String
    package let attribute: AttributeModel
    /// In a sort: the collation of its string comparison (`NSCollateLocaleSensitive`), nil for none.
    package var sortCollation: String? = nil

    /// The ORDER BY term for this key path at `column`: `t0.ZNAME COLLATE NSCollateLocaleSensitive DESC`.
    package func orderTerm(_ column: String, ascending: Bool) -> String {
        column + (sortCollation.map { " COLLATE " + $0 } ?? "") + (ascending ? "" : " DESC")
    }

    /// The relationship names joined by dots (`meta`), "" when direct.
    package var relationshipPath: String { relationships.map(\.name).joined(separator: ".") }

    /// Memberwise.
    package init(text: String, relationships: [RelationshipModel], owner: String, attribute: AttributeModel) {
        self.text = text
        self.relationships = relationships
        self.owner = owner
        self.attribute = attribute
    }
}

extension ResolvedModel {
    /// Resolves a sort key: an attribute key path as ``resolve(keyPath:from:)`` does, or
    /// `objectID` (after to-one relationships, `meta.objectID`), a sort on the object's ID:
    /// `ORDER BY t0.Z_PK`, the sort SwiftData adds to every fetch it makes (a name the
    /// entity's own attributes cannot take: NSManagedObject's `objectID`).
    package func resolve(sortKey: String, from entity: String) throws(KeyPathError) -> ResolvedKeyPath {
        let parts = sortKey.split(separator: ".").map(String.init)
        guard parts.last == "objectID" else { return try resolve(keyPath: sortKey, from: entity) }
        var current = self.entity(entity)
        var rels: [RelationshipModel] = []
        for name in parts.dropLast() {
            guard let e = current, let r = e.relationship(name), r.foreignKeyColumn != nil else {
                throw KeyPathError(message: "in variant \(variant), '\(sortKey)' is not a path of to-one relationships from \(entity)")
            }
            rels.append(r)
            current = self.entity(r.destination)
        }
        guard let owner = current else { throw KeyPathError(message: "variant \(variant) has no entity \(entity)") }
        return ResolvedKeyPath(text: sortKey, relationships: rels, owner: owner.name, attribute: .objectID)
    }

    /// Resolves `keyPath` from `entity`. A dotted path is followed as written (to-one
    /// relationships only). A single name is the entity's own attribute if it has one,
    /// else the nearest attribute of that name reachable through to-one relationships.
    /// Returns nil when nothing matches; throws a message when the name is ambiguous.
    package func resolve(keyPath: String, from entity: String) throws(KeyPathError) -> ResolvedKeyPath {
        guard let start = self.entity(entity) else { throw KeyPathError(message: "variant \(variant) has no entity \(entity)") }
        let parts = keyPath.split(separator: ".").map(String.init)
        if parts.count > 1 {
            var current = start
            var rels: [RelationshipModel] = []
            for name in parts.dropLast() {
                guard let r = current.relationship(name) else {
                    throw KeyPathError(message: "in variant \(variant), \(current.name) has no relationship '\(name)'")
                }
                guard r.foreignKeyColumn != nil else {
                    throw KeyPathError(message: "in variant \(variant), \(current.name).\(name) is not a to-one relationship")
                }
                rels.append(r)
                current = self.entity(r.destination)!
            }
            guard let a = current.attribute(parts.last!) else {
                throw KeyPathError(message: "in variant \(variant), \(current.name) has no attribute '\(parts.last!)'")
            }
            return ResolvedKeyPath(text: keyPath, relationships: rels, owner: current.name, attribute: a)
        }
        let found = reachableAttributes(named: keyPath, from: start.name)
        guard let nearest = found.first else {
            throw KeyPathError(
                message: "in variant \(variant), no attribute '\(keyPath)' is reachable from \(entity) through to-one relationships")
        }
        let tied = found.filter { $0.relationships.count == nearest.relationships.count }
        if tied.count > 1 {
            let paths = tied.map { ($0.relationships.map(\.name) + [$0.attribute.name]).joined(separator: ".") }
            throw KeyPathError(
                message: "in variant \(variant), '\(keyPath)' is ambiguous: \(paths.joined(separator: " or ")); write the full key path")
        }
        return nearest
    }

    /// Every attribute named `name` reachable from `entity` through to-one relationships
    /// (each entity visited once), nearest first.
    package func reachableAttributes(named name: String, from entity: String) -> [ResolvedKeyPath] {
        var out: [ResolvedKeyPath] = []
        var visited: Set<String> = [entity]
        var frontier: [(String, [RelationshipModel])] = [(entity, [])]
        while !frontier.isEmpty {
            var next: [(String, [RelationshipModel])] = []
            for (ename, rels) in frontier {
                let e = self.entity(ename)!
                if let a = e.attribute(name) {
                    let text = (rels.map(\.name) + [name]).joined(separator: ".")
                    out.append(ResolvedKeyPath(text: text, relationships: rels, owner: ename, attribute: a))
                }
                for r in e.toOneRelationships where visited.insert(r.destination).inserted {
                    next.append((r.destination, rels + [r]))
                }
            }
            frontier = next
        }
        return out
    }
}

/// Why a key path does not resolve in a variant.
package struct KeyPathError: Error, Sendable {
    package let message: String
    /// Where in the workload the problem is, relative to the workload's JSON path
    /// (`.touchKeys[2]`), when known.
    package var at: String?

    package init(message: String, at: String? = nil) {
        self.message = message
        self.at = at
    }
}
