/// A resolved key path turned into positions: which to-one slot to follow at each
/// step and which attribute value to read at the end, so reading it is array indexing.
public struct KeyPathAccessor {
    public let keyPath: ResolvedKeyPath
    @usableFromInline package let relationshipIndexes: [Int]
    @usableFromInline package let attributeIndex: Int

    public init(_ keyPath: ResolvedKeyPath, from entity: EntityDescription) {
        self.keyPath = keyPath
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
