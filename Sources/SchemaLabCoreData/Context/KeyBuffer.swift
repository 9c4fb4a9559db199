#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Primary keys read a row at a time, in a buffer that grows with `realloc` (which extends a
/// block in place when it can, or moves a large one with `mremap`), where an `Array` that
/// grows allocates and copies at each doubling and checks uniqueness on every append. The keys
/// become an array once, at the end. Under callgrind, an indexed 10,000-key fetch's memcpy
/// fell from 126k to 80k instructions (the final copy) and its uniqueness checks (60k) went.
struct KeyBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<Int64>
    private var capacity: Int
    private(set) var count = 0

    init() {
        capacity = 1024
        guard let memory = malloc(capacity * MemoryLayout<Int64>.stride) else { fatalError("out of memory for \(capacity) keys") }
        base = memory.assumingMemoryBound(to: Int64.self)
    }

    deinit { free(base) }

    @inline(__always) mutating func append(_ key: Int64) {
        if count == capacity { grow() }
        base[count] = key
        count &+= 1
    }

    private mutating func grow() {
        let larger = capacity * 2
        guard let memory = realloc(base, larger * MemoryLayout<Int64>.stride) else { fatalError("out of memory for \(larger) keys") }
        base = memory.assumingMemoryBound(to: Int64.self)
        capacity = larger
    }

    /// The keys, in the order appended.
    var array: [Int64] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
