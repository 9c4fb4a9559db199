import Testing
@testable import SchemaLabCoreData

/// The lab's SHA-256 (a scenario file's fingerprint, a store's Z_UUID) against known answers:
/// NIST's examples for FIPS 180-4 ("abc", one block; the 448-bit message, two), the million
/// 'a's of FIPS 180-2's appendix B.3, the empty and the 896-bit messages of the usual test
/// vectors (each also checked with `sha256sum`), and messages around the padding's boundaries.
@Suite("SHA-256: known answers")
struct SHA256Tests {
    @Test(
        "NIST's vectors: one block, two blocks, the empty message, 896 bits and a million 'a's",
        arguments: [
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
            (String(repeating: "a", count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
        ])
    func nistVectors(message: String, digest: String) {
        #expect(SHA256.hex(Array(message.utf8)) == digest)
    }

    /// 55 bytes leave room for the 0x80 byte and the 8-byte length in one block; 56 to 63 do
    /// not (a second block of padding); 64 fill a block exactly; 119 and 120 are the same edge
    /// one block on. The messages are the bytes 0, 1, 2, ... (`sha256sum` gave the digests).
    @Test(
        "Messages around the padding's boundaries",
        arguments: [
            (55, "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59"),
            (56, "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562"),
            (63, "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488"),
            (64, "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108"),
            (65, "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781"),
            (119, "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6"),
            (120, "f52b23db1fbb6ded89ef42a23ce0c8922c45f25c50b568a93bf1c075420bbb7c"),
        ])
    func paddingBoundaries(length: Int, digest: String) {
        #expect(SHA256.hex((0..<length).map { UInt8($0) }) == digest)
    }
}
