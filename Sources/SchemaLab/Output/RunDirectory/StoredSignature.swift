import Foundation
import SchemaLabSQLite
import SchemaLabEngine

/// A `ResultSignature` as a run directory stores it (`signatures/<case>.json`), so
/// that a resumed run checks its new cases against cases an earlier process measured
/// exactly as an uninterrupted run would: value by value, reals within the tolerance.
///
/// Each value is a string with a storage-class prefix: `n` (NULL), `i:42`, `r:` and the
/// real's 64-bit pattern in hex (exact, and NaN or infinity survive), `t:` and the
/// text, `b:` and the blob in hex.
enum StoredSignature {
    struct File: Codable {
        var digest: String
        var values: [[String]]?
    }

    static func encode(_ s: ResultSignature) throws -> [UInt8] {
        let file = File(digest: s.digest, values: s.values.map { $0.map { $0.map(encode) } })
        return Array(try JSONEncoder().encode(file))
    }

    static func decode(_ bytes: Data, path: String) throws -> ResultSignature {
        guard let file = try? JSONDecoder().decode(File.self, from: bytes) else {
            throw FileError(path: path, message: "\(path) is not a result signature this build wrote")
        }
        var rows: [[SQLValue]]?
        if let values = file.values {
            rows = try values.map {
                try $0.map { v in
                    guard let value = decode(v) else { throw FileError(path: path, message: "\(path): bad value '\(v.prefix(40))'") }
                    return value
                }
            }
        }
        return ResultSignature(digest: file.digest, values: rows)
    }

    static func encode(_ v: SQLValue) -> String {
        switch v {
        case .null: return "n"
        case .integer(let i): return "i:\(i)"
        case .real(let r): return "r:" + String(r.bitPattern, radix: 16)
        case .text(let t): return "t:" + t
        case .blob(let b): return "b:" + b.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        }
    }

    static func decode(_ s: String) -> SQLValue? {
        if s == "n" { return .null }
        let tag = s.prefix(2), body = String(s.dropFirst(2))
        switch tag {
        case "i:": return Int64(body).map { .integer($0) }
        case "r:": return UInt64(body, radix: 16).map { .real(Double(bitPattern: $0)) }
        case "t:": return .text(body)
        case "b:":
            guard body.count % 2 == 0 else { return nil }
            var bytes: [UInt8] = []
            var i = body.startIndex
            while i < body.endIndex {
                let j = body.index(i, offsetBy: 2)
                guard let b = UInt8(body[i..<j], radix: 16) else { return nil }
                bytes.append(b)
                i = j
            }
            return .blob(bytes)
        default: return nil
        }
    }
}
