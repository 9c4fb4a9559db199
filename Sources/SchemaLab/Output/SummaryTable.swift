/// The terminal summary, shaped like the article's table: one row per workload,
/// one column per variant, median milliseconds (and the statements a case ran).
package enum SummaryTable {
    package static func render(_ results: [RecordedCase], variants: [String], workloads: [String]) -> String {
        var out: [String] = []
        let sizes = Array(Set(results.map(\.key.size))).sorted()
        for size in sizes {
            let rows = results.filter { $0.key.size == size }.map(Row.init)
            let cols = variants.filter { v in rows.contains { $0.variant == v } }
            let wls = workloads.filter { w in rows.contains { $0.workload == w } }
            out.append("median ms (statements), n=\(size)")
            var table: [[String]] = [["workload"] + cols]
            for w in wls {
                table.append(
                    [w]
                        + cols.map { v in
                            guard let c = rows.first(where: { $0.variant == v && $0.workload == w }) else { return "-" }
                            let mark = c.referenceCheck == .differs || c.agreementCheck == .differs ? " !" : ""
                            return "\(Format.short(c.median)) (\(c.statements))\(mark)"
                        })
            }
            let widths = (0..<table[0].count).map { i in table.map { $0[i].count }.max()! }
            for (k, row) in table.enumerated() {
                out.append(
                    row.enumerated().map { i, cell in
                        i == 0
                            ? cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
                            : String(repeating: " ", count: widths[i] - cell.count) + cell
                    }.joined(separator: "  "))
                if k == 0 { out.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
            }
            let floors = rows.filter { $0.floor != nil }
            if !floors.isEmpty {
                out.append("SQLite floor (same statements, bare C API): lab/floor median ratio")
                for c in floors {
                    out.append("  \(c.variant) \(c.workload): \(Format.ratio(c.median / c.floor!))x (floor \(Format.short(c.floor!)) ms)")
                }
            }
            for c in rows where c.referenceCheck == .differs {
                out.append("! \(c.variant) \(c.workload): the result differs from the reference variant's")
            }
            for c in rows where c.agreementCheck == .differs {
                out.append("! \(c.variant) \(c.workload): the result differs from the workload it must agree with")
            }
            out.append("")
        }
        return out.joined(separator: "\n")
    }

    /// What the table shows of one case.
    private struct Row {
        let variant, workload: String
        let median: Double
        let statements: String
        let floor: Double?
        let referenceCheck, agreementCheck: ResultCheck

        init(_ r: RecordedCase) {
            variant = r.key.variant
            workload = r.key.workload
            median = r.summary.medianMs
            statements = String(r.summary.statements)
            floor = r.summary.floorMs
            referenceCheck = r.summary.referenceCheck
            agreementCheck = r.summary.agreementCheck
        }
    }
}

import Foundation
import SchemaLabEngine
