import Foundation
import SchemaLabEngine

/// A finished run read back from its directory (or a baseline): each case's results.csv
/// row, its samples, its statements' plans, and the environment it ran in.
public struct RunSnapshot: Sendable {
    /// One case as the files hold it.
    public struct Case: Sendable {
        public let key: CaseKey
        /// results.csv, column name to value.
        public let fields: [String: String]
        /// samples.csv: each repetition's wall time, heap retained, rows and statements.
        public var wallMs: [Double] = []
        /// Each repetition's CPU time.
        public var cpuMs: [Double] = []
        public var heapRetainedKB: [Double] = []
        /// Each repetition's longest write transaction.
        public var longestWriteMs: [Double] = []
        public var sampleRows: [String] = []
        public var sampleStatements: [String] = []
        /// plans.csv: each statement's SQL and its plan's lines, in statement order.
        public var plans: [(sql: String, plan: [String])] = []

        public func field(_ name: String) -> String { fields[name] ?? "" }
        public func number(_ name: String) -> Double? { Double(field(name)) }
    }

    public let path: String
    public let scenario: String
    public let cases: [CaseKey: Case]
    /// The scenario's case order.
    public let order: [CaseKey]
    public let environment: EnvironmentFingerprint
    /// fills.csv: the store file's size after each variant's fill, by variant and size.
    public let storeBytes: [String: [Int: Double]]

    /// Reads `path`; a message names the missing or malformed file.
    public init(path: String) throws(FileError) {
        self.path = path
        func read(_ name: String, _ header: [String]) throws(FileError) -> [[String]] {
            let file = path + "/" + name
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw FileError(path: file, message: "cannot read \(file)", isBadInput: true)
            }
            let rows = CSVWriter.parse(text)
            guard rows.first == header else {
                throw FileError(
                    path: file, message: "\(file) does not have the columns this build writes (a run from another version?)",
                    isBadInput: true)
            }
            return Array(rows.dropFirst())
        }
        let results = try read("results.csv", ResultsFiles.resultsHeader)
        var cases: [CaseKey: Case] = [:]
        var order: [CaseKey] = []
        func key(_ row: [String]) -> CaseKey { CaseKey(variant: row[1], workload: row[2], size: Int(row[3]) ?? 0) }
        for row in results where row.count == ResultsFiles.resultsHeader.count {
            let k = key(row)
            cases[k] = Case(key: k, fields: Dictionary(uniqueKeysWithValues: zip(ResultsFiles.resultsHeader, row)))
            order.append(k)
        }
        let h = ResultsFiles.samplesHeader
        for row in try read("samples.csv", h) where row.count == h.count {
            let k = key(row)
            guard cases[k] != nil else { continue }
            cases[k]!.wallMs.append(Double(row[h.firstIndex(of: "wall_ms")!]) ?? .nan)
            cases[k]!.cpuMs.append(Double(row[h.firstIndex(of: "cpu_ms")!]) ?? .nan)
            cases[k]!.heapRetainedKB.append(Double(row[h.firstIndex(of: "heap_retained_kb")!]) ?? .nan)
            cases[k]!.longestWriteMs.append(Double(row[h.firstIndex(of: "longest_write_ms")!]) ?? .nan)
            cases[k]!.sampleRows.append(row[h.firstIndex(of: "rows")!])
            cases[k]!.sampleStatements.append(row[h.firstIndex(of: "statements")!])
        }
        let p = ResultsFiles.plansHeader
        var lastStatement: [CaseKey: String] = [:]
        for row in try read("plans.csv", p) where row.count == p.count {
            let k = key(row)
            guard cases[k] != nil else { continue }
            let sql = row[p.firstIndex(of: "sql")!], detail = row[p.firstIndex(of: "detail")!]
            let statement = row[p.firstIndex(of: "statement")!]
            // A statement's lines share its number (two statements may have the same SQL).
            if !cases[k]!.plans.isEmpty, lastStatement[k] == statement {
                if !detail.isEmpty { cases[k]!.plans[cases[k]!.plans.count - 1].plan.append(detail) }
            } else {
                cases[k]!.plans.append((sql, detail.isEmpty ? [] : [detail]))
                lastStatement[k] = statement
            }
        }
        var bytes: [String: [Int: Double]] = [:]
        if let text = try? String(contentsOfFile: path + "/fills.csv", encoding: .utf8) {
            let rows = CSVWriter.parse(text)
            if let header = rows.first, let v = header.firstIndex(of: "schema"), let n = header.firstIndex(of: "size"),
                let b = header.firstIndex(of: "store_bytes")
            {
                for row in rows.dropFirst() where row.count == header.count {
                    if let size = Int(row[n]), let value = Double(row[b]), value >= 0 { bytes[row[v], default: [:]][size] = value }
                }
            }
        }
        storeBytes = bytes
        self.cases = cases
        self.order = order
        scenario = results.first?[0] ?? ""
        environment = try RunManifest.read(directory: path, purpose: "read").environment
    }

    /// Every read's latency (ms) of a case that kept them (`latencies/<variant>-<workload>-<size>.csv`:
    /// a reader under a writer, a box set), in file order; empty when it kept none.
    public static func latencies(directory: String, _ key: CaseKey) -> [Double] {
        let file = "\(directory)/latencies/\(key.variant)-\(key.workload)-\(key.size).csv"
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return [] }
        let h = ResultsFiles.latenciesHeader
        let rows = CSVWriter.parse(text)
        guard rows.first == h, let col = h.firstIndex(of: "latency_ms") else { return [] }
        return rows.dropFirst().compactMap { $0.count == h.count ? Double($0[col]) : nil }
    }
}
