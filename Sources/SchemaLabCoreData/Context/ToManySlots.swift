/// The targets of an object's to-many relationships, by slot (`EntityDescription/toMany`
/// order); nil while that relationship is a fault.
public typealias ToManySlots = InlineSlots<[ManagedObject]?>

extension InlineSlots where Element == [ManagedObject]? {
    /// `count` to-many slots, every one a fault.
    @inlinable init(count: Int) { self.init(count: count, empty: nil) }
}
