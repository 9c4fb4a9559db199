import Testing

@testable import SchemaLabCoreData

@Suite("KeyBuffer: keys read a row at a time")
struct KeyBufferTests {
    @Test("Keys appended past several doublings of the buffer come back in order", arguments: [0, 1, 1024, 1025, 100_000])
    func growsAndKeepsOrder(count: Int) {
        var keys = KeyBuffer()
        for key in 0..<count { keys.append(Int64(key) * 7 - 3) }
        #expect(keys.count == count)
        #expect(keys.array == (0..<count).map { Int64($0) * 7 - 3 })
    }
}
