import Foundation
import SchemaLabEngine

/// `schemalab compare-raw DIR RAW.csv`: a run against times measured outside the lab (a
/// raw-SQLite program doing the same workloads), case by case.
///
/// Joins `DIR/results.csv` with a CSV that has the columns schema, workload, n, min_ms and
/// median_ms on schema, workload and size, and gives lab/raw ratios of the minimum and median
/// times. Goals, for the photo matrix's workloads: 3x for the object paths (insert,
/// fetch-sorted, frc-sections), 1.2x for frc-batched, whose time is its ID and section-count
/// queries.
public struct RawComparison {
    /// The run directory.
    public var directory: String
    /// The raw program's CSV.
    public var rawCSV: String
    /// Also write the ratios to this CSV file.
    public var csv: String?

    /// The goal (lab/raw minimum time) of each photo-matrix workload.
    public static let goals = ["insert": 3.0, "fetch-sorted": 3.0, "frc-sections": 3.0, "frc-batched": 1.2]

    public init(directory: String, rawCSV: String) {
        self.directory = directory
        self.rawCSV = rawCSV
    }

    /// Prints a table of the cases both files have (and writes ``csv``).
    public func compare(console: any Console) throws(OperationError) {
        guard let ours = try? String(contentsOfFile: directory + "/results.csv", encoding: .utf8) else {
            throw OperationError(.badInput, "cannot read \(directory)/results.csv")
        }
        guard let theirs = try? String(contentsOfFile: rawCSV, encoding: .utf8) else {
            throw OperationError(.badInput, "cannot read \(rawCSV)")
        }
        let lab = CSVWriter.parse(ours), raw = CSVWriter.parse(theirs)
        guard let labHeader = lab.first, let rawHeader = raw.first, labHeader == ResultsFiles.resultsHeader,
            ["schema", "workload", "n", "min_ms", "median_ms"].allSatisfy(rawHeader.contains)
        else {
            throw OperationError(
                .badInput,
                "\(rawCSV): expected the columns schema, workload, n, min_ms, median_ms (and \(directory)/results.csv from `schemalab run`)"
            )
        }
        let labColumn = { (name: String) in labHeader.firstIndex(of: name)! },
            rawColumn = { (name: String) in rawHeader.firstIndex(of: name)! }
        var rawTimes: [String: (min: Double, median: Double)] = [:]
        for row in raw.dropFirst() where row.count == rawHeader.count {
            rawTimes["\(row[rawColumn("schema")])|\(row[rawColumn("workload")])|\(row[rawColumn("n")])"] =
                (Double(row[rawColumn("min_ms")]) ?? .nan, Double(row[rawColumn("median_ms")]) ?? .nan)
        }
        var out = CSVWriter(header: [
            "schema", "workload", "size", "lab_min_ms", "raw_min_ms", "ratio_min", "lab_median_ms",
            "raw_median_ms", "ratio_median", "goal", "within_goal",
        ])
        console.print("schema        workload        size    lab min     raw min   ratio   goal")
        for row in lab.dropFirst() where row.count == labHeader.count {
            let (schema, workload, size) = (row[labColumn("schema")], row[labColumn("workload")], row[labColumn("size")])
            guard let times = rawTimes["\(schema)|\(workload)|\(size)"], let labMin = Double(row[labColumn("min_ms")]),
                let labMedian = Double(row[labColumn("median_ms")])
            else { continue }
            let ratioMin = labMin / times.min, ratioMedian = labMedian / times.median
            let goal = Self.goals[workload]
            let within = goal.map { ratioMin <= $0 ? "yes" : "no" } ?? ""
            out.append([
                schema, workload, size, Format.ms(labMin), Format.ms(times.min), String(format: "%.2f", ratioMin), Format.ms(labMedian),
                Format.ms(times.median), String(format: "%.2f", ratioMedian), goal.map { String($0) } ?? "", within,
            ])
            console.print(
                schema.padding(toLength: 13, withPad: " ", startingAt: 0) + " "
                    + workload.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + String(
                        format: " %6@ %9.3f %11.3f %7.2f   %@", size as NSString, labMin, times.min, ratioMin,
                        (goal.map { "\($0)x \(within)" } ?? "-") as NSString))
        }
        if let csv {
            do { try Data(out.text.utf8).write(to: URL(fileURLWithPath: csv), options: .atomic) } catch {
                throw OperationError(.failed, "cannot write \(csv): \(error.localizedDescription)")
            }
        }
    }
}
