/// A resolved key path turned into positions: which to-one slot to follow at each
/// step and which attribute value to read at the end, so reading it is array indexing.
///
/// The resolved key path itself is kept in a box: workloads copy accessors on every touched
/// object, and copying the models inside it (attributes with their columns, defaults and
/// derivations; relationships) retained each of their strings.
public struct KeyPathAccessor {
    /// The key path as resolved.
    package var keyPath: ResolvedKeyPath { box.value }
    private let box: Box
    @usableFromInline package let relationshipIndexes: [Int]
    @usableFromInline package let attributeIndex: Int

    private final class Box {
        let value: ResolvedKeyPath
        init(_ value: ResolvedKeyPath) { self.value = value }
    }

    package init(_ keyPath: ResolvedKeyPath, from entity: EntityDescription) {
        self.box = Box(keyPath)
        var e = entity
        var idxs: [Int] = []
        for r in keyPath.relationships {
            let i = e.toOneIndex(r.name)!
            idxs.append(i)
            e = e.destinations[i]
        }
        relationshipIndexes = idxs
        attributeIndex = e.model.attributes.firstIndex { $0.name == keyPath.attribute.name }!
    }
}
