/// What one to-one slot of an object holds: nothing, the related object, or the key of a
/// destination row whose object the context has not made yet.
///
/// A fetched row's foreign key is kept as a key (``key(_:_:)``) while the object is a fault
/// with its row; when the object is realized (`ManagedObjectContext/realizeToOnes(_:)`) or
/// the relationship is followed (``ManagedObjectContext/related(_:_:)``), the context makes the
/// destination's fault or finds the object it has registered for that key. Making the fault
/// with every fetched row cost an allocation and a registry entry per row and to-one (15% of
/// a 10,000-row V3 photo fetch's instructions under callgrind) for rows nothing touched.
public enum ToOneTarget {
    case none
    case object(ManagedObject)
    /// The destination entity (the concrete one, for a hierarchy) and the row's Z_PK. The
    /// entity is not retained: the model outlives the context's objects.
    case key(Unmanaged<EntityDescription>, Int64)
}

/// The targets of an object's to-one relationships, by slot (`EntityDescription/toOne`
/// order). Read a slot through the context (``ManagedObjectContext/related(_:_:)``), which
/// makes the object of a key the first time.
public typealias ToOneSlots = InlineSlots<ToOneTarget>

extension InlineSlots where Element == ToOneTarget {
    /// `count` empty to-one slots.
    @inlinable init(count: Int) { self.init(count: count, empty: .none) }

    /// Sets a slot to an object, or empties it.
    @inlinable mutating func set(_ slot: Int, _ target: ManagedObject?) {
        self[slot] = target.map(ToOneTarget.object) ?? .none
    }
}
