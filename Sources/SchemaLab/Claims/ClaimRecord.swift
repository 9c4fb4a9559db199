import Foundation
import SchemaLabEngine

/// One row of a run directory's `claims.csv`: a claim at one size, with everything a page
/// needs to show it without the scenario (the source, the claim's words, the expected
/// effect, the measured ratio, its interval and the verdict). The headline row of each claim
/// (`headline` = `yes`) carries its verdict; a claim the run could not measure has one row,
/// without a size, `not measured`.
package struct ClaimRecord: Sendable, Equatable {
    /// The file's name in a run directory.
    package static let fileName = "claims.csv"

    // One field per column of ``header``, in its order (numbers nil when empty).
    package var scenario: String
    package var id: String
    package var document: String
    package var year: Int
    package var location: String
    package var statement: String
    package var metric: String
    /// The metric compared: `instructions` for a time claim in a counted run.
    package var basis: String
    package var subject: String
    package var against: String
    package var direction: String
    package var expectedLow: Double?
    package var expectedHigh: Double?
    package var figure: String
    package var tolerance: Double
    package var claimSize: Int?
    package var size: Int?
    package var subjectValue: Double?
    package var againstValue: Double?
    package var ratio: Double?
    package var ratioLow: Double?
    package var ratioHigh: Double?
    package var verdict: ClaimVerdict
    /// The repetitions of each case behind the interval (nil for a counted figure).
    package var repetitions: Int?
    package var headline: Bool
    package var change: String

    /// The rows of one evaluated claim: one per measured size, or one `not measured`.
    package static func rows(scenario: String, _ evaluation: ClaimEvaluation) -> [ClaimRecord] {
        let c = evaluation.claim
        let base = ClaimRecord(
            scenario: scenario, id: c.id, document: c.source.document, year: c.source.year, location: c.source.location,
            statement: c.statement, metric: c.metric.rawValue, basis: c.metric.rawValue, subject: c.subject.description,
            against: c.against.description, direction: c.expectation.direction.rawValue,
            expectedLow: c.expectation.ratio?.lowerBound, expectedHigh: c.expectation.ratio?.upperBound,
            figure: c.expectation.figure ?? "", tolerance: c.expectation.tolerance, claimSize: c.size, size: nil, subjectValue: nil,
            againstValue: nil, ratio: nil, ratioLow: nil, ratioHigh: nil, verdict: .notMeasured, headline: true, change: "")
        guard !evaluation.measurements.isEmpty else { return [base] }
        return evaluation.measurements.map { m in
            var r = base
            r.basis = m.basis.rawValue
            r.size = m.size
            r.subjectValue = m.subject
            r.againstValue = m.against
            r.ratio = m.interval.ratio
            r.ratioLow = m.interval.low
            r.ratioHigh = m.interval.high
            r.verdict = m.verdict
            r.repetitions = m.repetitions
            r.headline = m.size == evaluation.headline?.size
            r.change = r.headline ? evaluation.change : ""
            return r
        }
    }

    /// claims.csv's columns.
    package static let table = CSVTable<ClaimRecord>(
        [
            .text("scenario", \.scenario), .text("claim", \.id), .text("document", \.document), .integer("year", \.year, unit: .none),
            .text("where", \.location), .text("statement", \.statement), .text("metric", \.metric), .text("basis", \.basis),
            .text("case", \.subject), .text("against", \.against), .text("direction", \.direction),
            .optionalNumber("expected_low", \.expectedLow, unit: .ratio, format: number),
            .optionalNumber("expected_high", \.expectedHigh, unit: .ratio, format: number), .text("figure", \.figure),
            .number("tolerance", \.tolerance, unit: .ratio, format: number), .optionalInteger("claim_size", \.claimSize),
            .optionalInteger("size", \.size), .optionalNumber("case_value", \.subjectValue, unit: .none, format: number),
            .optionalNumber("against_value", \.againstValue, unit: .none, format: number),
            .optionalNumber("ratio", \.ratio, unit: .ratio, format: number),
            .optionalNumber("ratio_low", \.ratioLow, unit: .ratio, format: number),
            .optionalNumber("ratio_high", \.ratioHigh, unit: .ratio, format: number), .word("verdict", \.verdict),
            .flag("headline", \.headline), .text("change", \.change), .optionalInteger("repetitions", \.repetitions),
        ],
        required: ["scenario", "claim", "verdict"])

    /// The columns of claims.csv.
    package static var header: [String] { table.header }

    /// A claims.csv number: an integer as one, anything else with 6 significant digits.
    @Sendable static func number(_ value: Double) -> String {
        if value.rounded() == value && abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.6g", value)
    }

    /// An empty row, filled column by column when claims.csv is read.
    static let blank = ClaimRecord(
        scenario: "", id: "", document: "", year: 0, location: "", statement: "", metric: "", basis: "", subject: "", against: "",
        direction: "", expectedLow: nil, expectedHigh: nil, figure: "", tolerance: 2, claimSize: nil, size: nil, subjectValue: nil,
        againstValue: nil, ratio: nil, ratioLow: nil, ratioHigh: nil, verdict: .notMeasured, headline: false, change: "")

    init(
        scenario: String, id: String, document: String, year: Int, location: String, statement: String, metric: String, basis: String,
        subject: String, against: String, direction: String, expectedLow: Double?, expectedHigh: Double?, figure: String,
        tolerance: Double, claimSize: Int?, size: Int?, subjectValue: Double?, againstValue: Double?, ratio: Double?,
        ratioLow: Double?, ratioHigh: Double?, verdict: ClaimVerdict, headline: Bool, change: String
    ) {
        self.scenario = scenario
        self.id = id
        self.document = document
        self.year = year
        self.location = location
        self.statement = statement
        self.metric = metric
        self.basis = basis
        self.subject = subject
        self.against = against
        self.direction = direction
        self.expectedLow = expectedLow
        self.expectedHigh = expectedHigh
        self.figure = figure
        self.tolerance = tolerance
        self.claimSize = claimSize
        self.size = size
        self.subjectValue = subjectValue
        self.againstValue = againstValue
        self.ratio = ratio
        self.ratioLow = ratioLow
        self.ratioHigh = ratioHigh
        self.verdict = verdict
        self.headline = headline
        self.change = change
    }

    /// The expected effect in words: "lower, ratio 0.34 (0.500 s -> 0.168 s)".
    package var expectedText: String {
        var text = direction
        if let lo = expectedLow, let hi = expectedHigh {
            text += lo == hi ? ", ratio \(Self.ratioText(lo))" : ", ratio \(Self.ratioText(lo))-\(Self.ratioText(hi))"
        }
        return figure.isEmpty ? text : text + " (\(figure))"
    }

    /// The measured ratio and its interval in words: "0.31 (0.29-0.33)".
    package var measuredText: String {
        guard let ratio else { return "-" }
        guard let lo = ratioLow, let hi = ratioHigh, lo != hi else { return Self.ratioText(ratio) + " (exact)" }
        return "\(Self.ratioText(ratio)) (\(Self.ratioText(lo))-\(Self.ratioText(hi)))"
    }

    /// What decided the verdict: `medianTime over 15 repetitions a case`, or a figure counted
    /// once (`statements, counted`; `medianTime on instructions, counted` in a counted run).
    package var basisText: String {
        let on = basis != metric ? "\(metric) on \(basis)" : metric
        if let repetitions { return "\(on) over \(repetitions) repetition\(repetitions == 1 ? "" : "s") a case" }
        switch basis {
        case ClaimMetric.readP99.rawValue: return "\(on), from every read's latency"
        case ClaimMetric.storeBytes.rawValue, ClaimMetric.memoryGrowth.rawValue: return "\(on), measured once"
        default: return "\(on), counted"
        }
    }

    /// A ratio with 3 significant digits (0.336, 0.0612, 12.4).
    package static func ratioText(_ value: Double) -> String {
        value.isFinite ? String(format: "%.3g", value) : "inf"
    }

    /// A measured value: counts with thousands separators, others with 3 decimals or so.
    package static func valueText(_ value: Double) -> String {
        value.rounded() == value || abs(value) >= 1000 ? Format.number(value) : Format.short(value)
    }
}

/// `claims.csv` of a run directory: written when a run finishes, read by the report, the
/// findings page and `compare`.
package enum ClaimsFile {
    /// Evaluates `scenario`'s claims on the run in `directory` and writes `claims.csv` (nothing
    /// when the scenario states none). Returns the evaluations.
    @discardableResult
    package static func write(scenario: Scenario, directory: String) throws(FileError) -> [ClaimEvaluation] {
        let path = directory + "/" + ClaimRecord.fileName
        guard !scenario.claims.isEmpty else {
            try? FileManager.default.removeItem(atPath: path)
            return []
        }
        let evaluations = ClaimEvaluation.evaluate(scenario, run: try RunSnapshot(path: directory))
        try write(evaluations, scenario: scenario.name, directory: directory)
        return evaluations
    }

    /// Writes `evaluations` (the claims of the scenario named `scenario`) as `directory/claims.csv`.
    package static func write(_ evaluations: [ClaimEvaluation], scenario: String, directory: String) throws(FileError) {
        let path = directory + "/" + ClaimRecord.fileName
        let text = ClaimRecord.table.text(evaluations.flatMap { ClaimRecord.rows(scenario: scenario, $0) })
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw FileError(path: path, message: "cannot write \(path): \(error.localizedDescription)", isBadInput: false)
        }
    }

    /// The rows of `directory/claims.csv`; empty when there is none; an error when it is not
    /// the file this build writes.
    package static func read(directory: String) throws(FileError) -> [ClaimRecord] {
        let path = directory + "/" + ClaimRecord.fileName
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return try ClaimRecord.table.rows(in: text, file: path, blank: ClaimRecord.blank)
    }
}
