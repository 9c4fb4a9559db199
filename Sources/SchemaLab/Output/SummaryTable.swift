/// The terminal summary, shaped like the article's table: one row per workload,
/// one column per variant, median milliseconds (and the statements a case ran).
public enum SummaryTable {
    public static func render(_ results: [CaseResult], variants: [String], workloads: [String]) -> String {
        var out: [String] = []
        let sizes = Array(Set(results.map(\.size))).sorted()
        for size in sizes {
            let rows = results.filter { $0.size == size }
            let cols = variants.filter { v in rows.contains { $0.variant == v } }
            let wls = workloads.filter { w in rows.contains { $0.workload == w } }
            out.append("median ms (statements), n=\(size)")
            var table: [[String]] = [["workload"] + cols]
            for w in wls {
                table.append([w] + cols.map { v in
                    guard let c = rows.first(where: { $0.variant == v && $0.workload == w }) else { return "-" }
                    return "\(Format.short(c.wall.median)) (\(c.statements))"
                })
            }
            let widths = (0..<table[0].count).map { i in table.map { $0[i].count }.max()! }
            for (k, row) in table.enumerated() {
                out.append(row.enumerated().map { i, cell in
                    i == 0 ? cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
                           : String(repeating: " ", count: widths[i] - cell.count) + cell
                }.joined(separator: "  "))
                if k == 0 { out.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
            }
            out.append("")
        }
        return out.joined(separator: "\n")
    }
}

import Foundation
