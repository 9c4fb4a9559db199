/// UUIDs as text and as the 16 bytes Core Data stores (a UUID attribute is a BLOB column of
/// the UUID's bytes in order, as `NSUUID.getUUIDBytes:` gives them).
package enum BinaryText {
    /// The 16 bytes of `E621E1F8-C36C-495A-93FC-0C247A3E6E5F` (either case); nil when the
    /// text is not 8-4-4-4-12 hexadecimal digits.
    package static func uuidBytes(_ text: String) -> [UInt8]? {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return nil }
        let digits = Array(groups.joined().utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for i in stride(from: 0, to: 32, by: 2) {
            guard let high = hexValue(digits[i]), let low = hexValue(digits[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// 16 bytes as `E621E1F8-C36C-495A-93FC-0C247A3E6E5F` (upper case, as `NSUUID` prints).
    package static func uuidText(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        var out = ""
        for (i, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(i) { out += "-" }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return out
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 65...70: return c - 55
        case 97...102: return c - 87
        default: return nil
        }
    }
}
