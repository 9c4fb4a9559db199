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
package struct RawComparison {
    /// The run directory.
    package var directory: String
    /// The raw program's CSV.
    package var rawCSV: String
    /// Also write the ratios to this CSV file.
    package var csv: String?

    /// The goal (lab/raw minimum time) of each photo-matrix workload.
    package static let goals = ["insert": 3.0, "fetch-sorted": 3.0, "frc-sections": 3.0, "frc-batched": 1.2]

    package init(directory: String, rawCSV: String) {
        self.directory = directory
        self.rawCSV = rawCSV
    }

    /// Prints a table of the cases both files have (and writes ``csv``).
    package func compare(console: any Console) throws(OperationError) {
        let lab: [CaseSummary], raw: [RawTime]
        do {
            lab = try RunFiles.results.read(path: directory + "/results.csv", blank: CaseSummary())
            raw = try RawTime.table.read(path: rawCSV, blank: RawTime())
        } catch {
            throw OperationError(.badInput, error.message)
        }
        var rawTimes: [String: RawTime] = [:]
        for row in raw { rawTimes["\(row.schema)|\(row.workload)|\(row.size)"] = row }
        var ratios: [RawRatio] = []
        console.print("schema        workload        size    lab min     raw min   ratio   goal")
        for row in lab {
            guard let times = rawTimes["\(row.variant)|\(row.workload)|\(row.size)"] else { continue }
            var ratio = RawRatio()
            ratio.schema = row.variant
            ratio.workload = row.workload
            ratio.size = row.size
            ratio.labMinMs = row.minMs
            ratio.rawMinMs = times.minMs
            ratio.labMedianMs = row.medianMs
            ratio.rawMedianMs = times.medianMs
            ratio.goal = Self.goals[row.workload]
            ratios.append(ratio)
            let within = ratio.withinGoal.map { $0 ? "yes" : "no" } ?? ""
            console.print(
                row.variant.padding(toLength: 13, withPad: " ", startingAt: 0) + " "
                    + row.workload.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + String(
                        format: " %6@ %9.3f %11.3f %7.2f   %@", String(row.size) as NSString, row.minMs, times.minMs, ratio.ratioMin,
                        (ratio.goal.map { "\($0)x \(within)" } ?? "-") as NSString))
        }
        if let csv {
            do { try Data(RawRatio.table.text(ratios).utf8).write(to: URL(fileURLWithPath: csv), options: .atomic) } catch {
                throw OperationError(.failed, "cannot write \(csv): \(error.localizedDescription)")
            }
        }
    }
}

/// A row of the raw program's CSV: a case's minimum and median times measured outside the lab.
struct RawTime: Sendable {
    var schema = ""
    var workload = ""
    var size = 0
    var minMs = 0.0
    var medianMs = 0.0

    static let table = CSVTable<RawTime>(
        [
            .text("schema", \.schema), .text("workload", \.workload), .integer("n", \.size),
            .milliseconds("min_ms", \.minMs), .milliseconds("median_ms", \.medianMs),
        ],
        required: ["schema", "workload", "n", "min_ms", "median_ms"])
}

/// A row of `compare-raw --csv`: the lab's times over the raw program's, and the goal.
struct RawRatio: Sendable {
    var schema = ""
    var workload = ""
    var size = 0
    var labMinMs = 0.0
    var rawMinMs = 0.0
    var labMedianMs = 0.0
    var rawMedianMs = 0.0
    var goal: Double?

    var ratioMin: Double { labMinMs / rawMinMs }
    var ratioMedian: Double { labMedianMs / rawMedianMs }
    var withinGoal: Bool? { goal.map { ratioMin <= $0 } }

    static let table = CSVTable<RawRatio>(
        [
            .text("schema", \.schema), .text("workload", \.workload), .integer("size", \.size), .milliseconds("lab_min_ms", \.labMinMs),
            .milliseconds("raw_min_ms", \.rawMinMs), .derived("ratio_min", unit: .ratio) { Format.ratio($0.ratioMin) },
            .milliseconds("lab_median_ms", \.labMedianMs), .milliseconds("raw_median_ms", \.rawMedianMs),
            .derived("ratio_median", unit: .ratio) { Format.ratio($0.ratioMedian) },
            .optionalNumber("goal", \.goal, unit: .ratio, format: { String($0) }),
            .derived("within_goal", unit: .none) { $0.withinGoal.map { $0 ? "yes" : "no" } ?? "" },
        ],
        required: ["schema", "workload", "size"])
}
