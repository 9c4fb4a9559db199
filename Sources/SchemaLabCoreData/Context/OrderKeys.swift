/// How Core Data numbers the members of an ordered relationship (the `Z_FOK_` keys), as its
/// ordered-set fault computes them when it saves (the framework's
/// `_populateOrderKeysUsingSnapshot:`; docs/coredata.md, "Ordered relationships"):
///
/// - fresh keys are 2048, 3072, 4096, … (a step of 1024, starting at twice the step), unsigned
///   32-bit; with more than 4,194,302 members the step is 2^32 / (n + 1);
/// - otherwise the keys already stored are kept wherever they still increase along the new
///   order (the lab keeps the longest increasing run of them, so a move rewrites one key), and
///   the members between two kept keys are spread evenly between them; those before the first
///   kept key step down from it by 1024, those after the last step up by 1024;
/// - when a gap has no room left (two neighbours one apart, or the end of the 32-bit range),
///   every member is numbered afresh.
package enum OrderKeys {
    static let step: Int64 = 1024
    static let limit: Int64 = 0xFFFF_FFFF

    /// Fresh keys for `count` members.
    package static func fresh(_ count: Int) -> [Int64] {
        let step = count + 1 < 0x40_0000 ? Self.step : limit / Int64(count + 1)
        return (0..<count).map { 2 * step + Int64($0) * step }
    }

    /// The keys of the members in their new order, given each one's stored key (0 for a
    /// member not stored in this relationship yet).
    package static func assign(_ old: [Int64]) -> [Int64] {
        let n = old.count
        guard n > 0 else { return [] }
        let kept = increasingRun(old)
        guard !kept.isEmpty else { return fresh(n) }
        var keys = [Int64](repeating: 0, count: n)
        for i in kept { keys[i] = old[i] }
        // Before the first kept key.
        let first = kept[0]
        if first > 0 {
            let room = keys[first]
            let step = room > Self.step * Int64(first) ? Self.step : room / Int64(first + 1)
            if step == 0 { return fresh(n) }
            for i in 0..<first { keys[i] = room - step * Int64(first - i) }
        }
        // Between kept keys.
        for (a, b) in zip(kept, kept.dropFirst()) where b - a > 1 {
            let step = (keys[b] - keys[a]) / Int64(b - a)
            if step == 0 { return fresh(n) }
            for i in (a + 1)..<b { keys[i] = keys[a] + step * Int64(i - a) }
        }
        // After the last kept key.
        let last = kept[kept.count - 1]
        if last < n - 1 {
            let after = Int64(n - 1 - last)
            let room = limit - keys[last]
            let step = room > Self.step * after ? Self.step : room / (after + 1)
            if step == 0 { return fresh(n) }
            for i in (last + 1)..<n { keys[i] = keys[last] + step * Int64(i - last) }
        }
        return keys
    }

    /// The positions of the longest strictly increasing run of non-zero keys (patience
    /// sorting, O(n log n)), in order.
    static func increasingRun(_ keys: [Int64]) -> [Int] {
        var tails: [Int] = []  // tails[k]: index of the smallest last key of a run of length k + 1
        var previous = [Int](repeating: -1, count: keys.count)
        for (i, key) in keys.enumerated() where key > 0 {
            var low = 0
            var high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if keys[tails[mid]] < key { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[i] = tails[low - 1] }
            if low == tails.count { tails.append(i) } else { tails[low] = i }
        }
        var run: [Int] = []
        var i = tails.last ?? -1
        while i >= 0 {
            run.append(i)
            i = previous[i]
        }
        return run.reversed()
    }
}
