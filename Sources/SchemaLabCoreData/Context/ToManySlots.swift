/// The targets of an object's to-many relationships, by slot (``EntityDescription/toMany``
/// order); nil while that relationship is a fault. The first two slots are stored inline,
/// the rest in an array: an array per object went through the standard library's
/// unspecialized allocation (`Array(repeating:count:)` of an optional array), whose generic
/// metadata lookup cost about 800 instructions for every object of an entity with a to-many,
/// 10% of a 1,000-author to-many fault workload's count under callgrind.
public struct ToManySlots {
    @usableFromInline var first: [ManagedObject]? = nil
    @usableFromInline var second: [ManagedObject]? = nil
    @usableFromInline var rest: [[ManagedObject]?]
    /// The number of slots.
    public let count: Int

    /// `count` slots, every one a fault.
    @inlinable init(count: Int) {
        self.count = count
        self.rest = count > 2 ? Array(repeating: nil, count: count - 2) : []
    }

    /// True when the entity has no to-many relationship.
    @inlinable public var isEmpty: Bool { count == 0 }

    /// The targets of to-many `slot`, nil while it is a fault.
    @inlinable public subscript(slot: Int) -> [ManagedObject]? {
        get {
            precondition(slot >= 0 && slot < count, "to-many slot \(slot) out of 0..<\(count)")
            switch slot {
            case 0: return first
            case 1: return second
            default: return rest[slot - 2]
            }
        }
        _modify {
            precondition(slot >= 0 && slot < count, "to-many slot \(slot) out of 0..<\(count)")
            switch slot {
            case 0: yield &first
            case 1: yield &second
            default: yield &rest[slot - 2]
            }
        }
    }
}
