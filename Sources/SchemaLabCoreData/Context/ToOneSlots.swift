/// What one to-one slot of an object holds: nothing, the related object, or the key of a
/// destination row whose object the context has not made yet.
///
/// A fetched row's foreign key is kept as a key (``key(_:_:)``) while the object is a fault
/// with its row; when the object is realized (``ManagedObjectContext/realizeToOnes(_:)``) or
/// the relationship is followed (``ManagedObjectContext/related(_:_:)``), the context makes the
/// destination's fault or finds the object it has registered for that key. Making the fault
/// with every fetched row cost an allocation and a registry entry per row and to-one (15% of
/// a 10,000-row V3 photo fetch's instructions under callgrind) for rows nothing touched.
@usableFromInline enum ToOneTarget {
    case none
    case object(ManagedObject)
    /// The destination entity (the concrete one, for a hierarchy) and the row's Z_PK. The
    /// entity is not retained: the model outlives the context's objects.
    case key(Unmanaged<EntityDescription>, Int64)
}

/// The targets of an object's to-one relationships, by slot (``EntityDescription/toOne``
/// order). The first two slots are stored inline, the rest in an array: most entities have
/// at most two to-one relationships, and an array per object cost an allocation and a
/// generic-metadata lookup for every fault and every materialized row (11% of a 10,000-row
/// V3 fetch's instructions under callgrind).
///
/// Read a slot through the context (``ManagedObjectContext/related(_:_:)``), which makes
/// the object of a key the first time.
public struct ToOneSlots {
    @usableFromInline var first: ToOneTarget = .none
    @usableFromInline var second: ToOneTarget = .none
    @usableFromInline var rest: [ToOneTarget]
    /// The number of slots.
    public let count: Int

    /// `count` empty slots.
    @inlinable init(count: Int) {
        self.count = count
        self.rest = count > 2 ? Array(repeating: .none, count: count - 2) : []
    }

    /// True when the entity has no to-one relationship.
    @inlinable public var isEmpty: Bool { count == 0 }

    @inlinable subscript(slot: Int) -> ToOneTarget {
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

    /// Sets a slot to an object, or empties it.
    @inlinable mutating func set(_ slot: Int, _ target: ManagedObject?) {
        self[slot] = target.map(ToOneTarget.object) ?? .none
    }
}
