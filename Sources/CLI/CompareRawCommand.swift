import ArgumentParser
import Foundation
import SchemaLab
import SchemaLabEngine

struct CompareRawCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare-raw",
        abstract: "Compares a run with times measured outside the lab (a raw-SQLite program), case by case.",
        discussion: """
            Joins <dir>/results.csv with a CSV that has the columns schema, workload, n, min_ms \
            and median_ms (one row per case, as a C program doing the same workloads on raw \
            SQLite would write it) on schema, workload and size, and prints lab/raw ratios of \
            the minimum and median times. Goals, for the photo matrix's workloads: 3x for the \
            object paths (insert, fetch-sorted, frc-sections), 1.2x for frc-batched, whose time \
            is its ID and section-count queries.
            """
    )

    @Argument(help: "A directory written by `schemalab run`.")
    var directory: String

    @Argument(help: "The raw program's CSV (columns schema, workload, n, min_ms, median_ms).")
    var rawCSV: String

    @Option(name: .long, help: "Also write the ratios to this CSV file.")
    var csv: String?

    static let goals = ["insert": 3.0, "fetch-sorted": 3.0, "frc-sections": 3.0, "frc-batched": 1.2]

    func run() throws {
        guard let ours = try? String(contentsOfFile: directory + "/results.csv", encoding: .utf8) else {
            throw fail("cannot read \(directory)/results.csv", code: 2)
        }
        guard let theirs = try? String(contentsOfFile: rawCSV, encoding: .utf8) else {
            throw fail("cannot read \(rawCSV)", code: 2)
        }
        let a = CSVWriter.parse(ours), b = CSVWriter.parse(theirs)
        guard let ha = a.first, let hb = b.first, ha == ResultsFiles.resultsHeader,
              ["schema", "workload", "n", "min_ms", "median_ms"].allSatisfy(hb.contains) else {
            throw fail("\(rawCSV): expected the columns schema, workload, n, min_ms, median_ms (and \(directory)/results.csv from `schemalab run`)", code: 2)
        }
        let ia = { (n: String) in ha.firstIndex(of: n)! }, ib = { (n: String) in hb.firstIndex(of: n)! }
        var raw: [String: (Double, Double)] = [:]
        for r in b.dropFirst() where r.count == hb.count {
            raw["\(r[ib("schema")])|\(r[ib("workload")])|\(r[ib("n")])"] = (Double(r[ib("min_ms")]) ?? .nan, Double(r[ib("median_ms")]) ?? .nan)
        }
        var out = CSVWriter(header: ["schema", "workload", "size", "lab_min_ms", "raw_min_ms", "ratio_min", "lab_median_ms",
                                     "raw_median_ms", "ratio_median", "goal", "within_goal"])
        print("schema        workload        size    lab min     raw min   ratio   goal")
        for r in a.dropFirst() where r.count == ha.count {
            let (s, w, n) = (r[ia("schema")], r[ia("workload")], r[ia("size")])
            guard let l = raw["\(s)|\(w)|\(n)"], let lmin = Double(r[ia("min_ms")]), let lmed = Double(r[ia("median_ms")]) else { continue }
            let ratioMin = lmin / l.0, ratioMed = lmed / l.1
            let goal = Self.goals[w]
            let within = goal.map { ratioMin <= $0 ? "yes" : "no" } ?? ""
            out.append([s, w, n, Format.ms(lmin), Format.ms(l.0), String(format: "%.2f", ratioMin), Format.ms(lmed), Format.ms(l.1),
                        String(format: "%.2f", ratioMed), goal.map { String($0) } ?? "", within])
            print(s.padding(toLength: 13, withPad: " ", startingAt: 0) + " " + w.padding(toLength: 14, withPad: " ", startingAt: 0)
                + String(format: " %6@ %9.3f %11.3f %7.2f   %@", n as NSString, lmin, l.0, ratioMin,
                         (goal.map { "\($0)x \(within)" } ?? "-") as NSString))
        }
        if let csv { try Data(out.text.utf8).write(to: URL(fileURLWithPath: csv), options: .atomic) }
    }
}
