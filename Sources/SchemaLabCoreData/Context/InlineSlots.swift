/// A fixed number of slots, the first two stored inline and the rest in an array: an object's
/// to-one targets (``ToOneSlots``) and to-many targets (``ToManySlots``). Most entities have
/// at most two relationships of each kind, and an array per object cost an allocation and a
/// generic-metadata lookup (`Array(repeating:count:)` goes through the standard library's
/// unspecialized path) for every fault and every materialized row: 11% of a 10,000-row V3
/// photo fetch's instructions and 10% of a 1,000-author to-many fault workload's, under
/// callgrind.
public struct InlineSlots<Element> {
    @usableFromInline var first: Element
    @usableFromInline var second: Element
    @usableFromInline var rest: [Element]
    /// The number of slots.
    public let count: Int

    /// `count` slots, each `empty`.
    @inlinable init(count: Int, empty: Element) {
        self.count = count
        self.first = empty
        self.second = empty
        self.rest = count > 2 ? Array(repeating: empty, count: count - 2) : []
    }

    /// True when there is no slot.
    @inlinable public var isEmpty: Bool { count == 0 }

    /// Changes the content of `slot` in place (an array there is appended to without a copy).
    /// A closure, not a `_modify` accessor: a generic coroutine that is not inlined allocates
    /// its frame on every call (8% of a 10,000-row V3 photo fetch, which sets a slot per row).
    @inlinable mutating func update<Result>(_ slot: Int, _ body: (inout Element) -> Result) -> Result {
        precondition(slot >= 0 && slot < count, "slot \(slot) out of 0..<\(count)")
        switch slot {
        case 0: return body(&first)
        case 1: return body(&second)
        default: return body(&rest[slot - 2])
        }
    }

    /// The content of `slot`.
    @inlinable public internal(set) subscript(slot: Int) -> Element {
        get {
            precondition(slot >= 0 && slot < count, "slot \(slot) out of 0..<\(count)")
            switch slot {
            case 0: return first
            case 1: return second
            default: return rest[slot - 2]
            }
        }
        set {
            precondition(slot >= 0 && slot < count, "slot \(slot) out of 0..<\(count)")
            switch slot {
            case 0: first = newValue
            case 1: second = newValue
            default: rest[slot - 2] = newValue
            }
        }
    }
}
