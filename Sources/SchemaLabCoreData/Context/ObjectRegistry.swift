/// A context's uniquing table: at most one object per (entity, Z_PK).
///
/// Core Data's primary keys are dense (1, 2, 3, … per entity from Z_PRIMARYKEY), so the
/// table is direct-mapped: per entity, pages of 256 slots indexed by the key, each page
/// made when a key in it is first registered. A lookup is two array reads, where a
/// `Dictionary<Int64, ManagedObject>` hashed every key with SipHash (6-16% of an object
/// fetch's instructions under callgrind). Pages are small (2 KB) because a context is often
/// short-lived: pages of 4,096 slots made zeroing them cost three times SQLite's work in a
/// 20-row page fetch. Keys outside 1..<2^32 go to a dictionary.
struct ObjectRegistry {
    private static let pageBits = 8
    private static let pageSize = 1 << pageBits
    private static let directLimit: Int64 = 1 << 32

    private final class Page {
        @exclusivity(unchecked) var slots: [ManagedObject?] = Array(repeating: nil, count: ObjectRegistry.pageSize)
    }

    /// Per entity number, its pages (nil until a key in that page is registered).
    private var pages: [[Page?]] = []
    private var overflow: [Int64: ManagedObject] = [:]

    @inline(__always)
    private static func overflowKey(_ entity: Int, _ pk: Int64) -> Int64 { Int64(entity) << 40 ^ pk }

    /// Every registered object, in no particular order.
    func forEach(_ body: (ManagedObject) -> Void) {
        for entityPages in pages {
            for case let page? in entityPages {
                for case let o? in page.slots { body(o) }
            }
        }
        for o in overflow.values { body(o) }
    }

    /// The object registered for (entity, pk), or the one `make` creates, registered now.
    @inline(__always)
    mutating func object(_ entity: Int, _ pk: Int64, make: () -> ManagedObject) -> ManagedObject {
        if pk > 0 && pk < Self.directLimit && entity < pages.count {
            let p = Int(pk >> Self.pageBits)
            if p < pages[entity].count, let page = pages[entity][p] {
                let i = Int(pk) & (Self.pageSize - 1)
                if let o = page.slots[i] { return o }
                let o = make()
                page.slots[i] = o
                return o
            }
        }
        if let o = self[entity, pk] { return o }
        let o = make()
        self[entity, pk] = o
        return o
    }

    subscript(entity: Int, pk: Int64) -> ManagedObject? {
        get {
            guard pk > 0 && pk < Self.directLimit else { return overflow[Self.overflowKey(entity, pk)] }
            guard entity < pages.count else { return nil }
            let p = Int(pk >> Self.pageBits)
            guard p < pages[entity].count, let page = pages[entity][p] else { return nil }
            return page.slots[Int(pk) & (Self.pageSize - 1)]
        }
        set {
            guard pk > 0 && pk < Self.directLimit else { overflow[Self.overflowKey(entity, pk)] = newValue; return }
            if entity >= pages.count { pages += Array(repeating: [], count: entity + 1 - pages.count) }
            let p = Int(pk >> Self.pageBits)
            if p >= pages[entity].count {
                guard newValue != nil else { return }
                pages[entity] += Array(repeating: nil, count: p + 1 - pages[entity].count)
            }
            let page: Page
            if let existing = pages[entity][p] {
                page = existing
            } else {
                guard newValue != nil else { return }
                page = Page()
                pages[entity][p] = page
            }
            page.slots[Int(pk) & (Self.pageSize - 1)] = newValue
        }
    }
}
