import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
import SchemaLabTestSupport

/// How ordered relationships number their members: keys 1,024 apart from 2,048, kept where they can stay,
/// renumbered only when a gap is full.
@Suite("Ordered relationships: order keys")
struct OrderKeysTests {
    @Test("Order keys: fresh, between neighbours, before the first, after the last, a move, a full gap")
    func keys() {
        #expect(OrderKeys.fresh(3) == [2048, 3072, 4096])
        #expect(OrderKeys.assign([0, 0]) == [2048, 3072])
        // One new member between two: the others keep their keys.
        #expect(OrderKeys.assign([2048, 0, 3072]) == [2048, 2560, 3072])
        #expect(OrderKeys.assign([0, 2048, 3072]) == [1024, 2048, 3072])
        #expect(OrderKeys.assign([2048, 3072, 0]) == [2048, 3072, 4096])
        // The last moved to the front: one key rewritten.
        #expect(OrderKeys.assign([4096, 2048, 3072]) == [1024, 2048, 3072])
        // No room between 2048 and 2049: everything afresh.
        #expect(OrderKeys.assign([2048, 0, 2049]) == [2048, 3072, 4096])
        #expect(OrderKeys.increasingRun([5, 1, 2, 9, 3, 4]) == [1, 2, 4, 5])
    }
}
