/// The targets of an object's to-one relationships, by slot (``EntityDescription/toOne``
/// order). The first two slots are stored inline, the rest in an array: most entities have
/// at most two to-one relationships, and an array per object cost an allocation and a
/// generic-metadata lookup for every fault and every materialized row (11% of a 10,000-row
/// V3 fetch's instructions under callgrind).
public struct ToOneSlots: RandomAccessCollection, MutableCollection {
    @usableFromInline var first: ManagedObject?
    @usableFromInline var second: ManagedObject?
    @usableFromInline var rest: [ManagedObject?]
    public let count: Int

    /// `count` empty slots.
    @inlinable init(count: Int) {
        self.count = count
        self.rest = count > 2 ? Array(repeating: nil, count: count - 2) : []
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable public subscript(slot: Int) -> ManagedObject? {
        get {
            switch slot {
            case 0: return first
            case 1: return second
            default: return rest[slot - 2]
            }
        }
        set {
            precondition(slot >= 0 && slot < count, "to-one slot \(slot) out of 0..<\(count)")
            switch slot {
            case 0: first = newValue
            case 1: second = newValue
            default: rest[slot - 2] = newValue
            }
        }
    }
}
