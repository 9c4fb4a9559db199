/// The statements a connection executed, in order, each with the values bound to it, kept
/// in a few flat arrays: recorded for the raw baseline and stepped by `RawStepper`.
///
/// Flat on purpose: a trace of 100,000 inserts kept as 100,000 small arrays and strings
/// would sit in the heap among the freed pages of the run that recorded it, where the
/// measured repetitions would reuse them and their memory growth would read too low (a
/// test saw 4.7 MB instead of 8-9 MB). Large flat arrays are mapped on their own.
public struct RawTrace: Sendable {
    /// The distinct SQL texts, and each execution's index among them.
    public private(set) var sqls: [String] = []
    private var sqlIndex: [String: Int32] = [:]
    private(set) var executions: [Int32] = []
    /// Where each execution's values start (one entry more than executions).
    private(set) var valueStart: [Int32] = [0]
    /// Per value: its kind, its number (an integer, a double's bits, or a text or blob's
    /// offset in `bytes`), and a text or blob's length.
    private(set) var kinds: [UInt8] = []
    private(set) var numbers: [UInt64] = []
    private(set) var lengths: [Int32] = []
    private(set) var bytes: [UInt8] = []

    static let null: UInt8 = 0, integer: UInt8 = 1, real: UInt8 = 2, text: UInt8 = 3, blob: UInt8 = 4

    public init() {}

    /// How many executions.
    public var count: Int { executions.count }
    public var isEmpty: Bool { executions.isEmpty }

    /// The prefix of the pseudo-statement that records an integer array's new contents.
    static let arrayBindingPrefix = "\u{0}bind integer array "

    /// The integer array a recorded entry fills, or nil for a statement.
    static func arrayName(_ sql: String) -> String? {
        sql.hasPrefix(arrayBindingPrefix) ? String(sql.dropFirst(arrayBindingPrefix.count)) : nil
    }

    /// Records that the integer array `name` now holds `values` (replayed before the statements after it).
    public mutating func appendArrayBinding(name: String, values: some Collection<Int64>) {
        append(sql: Self.arrayBindingPrefix + name, bindings: values.lazy.map { SQLValue.integer($0) })
    }

    /// Records one execution.
    public mutating func append(sql: String, bindings: some Collection<SQLValue>) {
        let index: Int32
        if let i = sqlIndex[sql] {
            index = i
        } else {
            index = Int32(sqls.count)
            sqls.append(sql)
            sqlIndex[sql] = index
        }
        executions.append(index)
        for v in bindings {
            switch v {
            case .null: add(Self.null, 0, 0)
            case .integer(let x): add(Self.integer, UInt64(bitPattern: x), 0)
            case .real(let x): add(Self.real, x.bitPattern, 0)
            case .text(let t):
                let start = bytes.count
                bytes.append(contentsOf: t.utf8)
                add(Self.text, UInt64(start), Int32(bytes.count - start))
            case .blob(let b):
                let start = bytes.count
                bytes.append(contentsOf: b)
                add(Self.blob, UInt64(start), Int32(b.count))
            }
        }
        valueStart.append(Int32(kinds.count))
    }

    private mutating func add(_ kind: UInt8, _ number: UInt64, _ length: Int32) {
        kinds.append(kind)
        numbers.append(number)
        lengths.append(length)
    }

    /// Execution `i` as SQL and values (for tests and inspection; not for hot paths).
    public func execution(_ index: Int) -> (sql: String, bindings: [SQLValue]) {
        let values = (Int(valueStart[index])..<Int(valueStart[index + 1])).map { j -> SQLValue in
            switch kinds[j] {
            case Self.integer: return .integer(Int64(bitPattern: numbers[j]))
            case Self.real: return .real(Double(bitPattern: numbers[j]))
            case Self.text:
                let r = Int(numbers[j])..<(Int(numbers[j]) + Int(lengths[j]))
                return .text(String(decoding: bytes[r], as: UTF8.self))
            case Self.blob:
                return .blob(Array(bytes[Int(numbers[j])..<(Int(numbers[j]) + Int(lengths[j]))]))
            default: return .null
            }
        }
        return (sqls[Int(executions[index])], values)
    }
}
