import Foundation
import Testing
@testable import SchemaLab
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// The CSV files are read by header name with one definition per column: a file without a
/// column a later version added reads with its default; a missing key column, a field
/// that is not a value of its column, or a short row is an error naming the file, the row and
/// the column.
@Suite("CSV tables: one definition per column, read by header name")
struct CSVTableTests {
    @Test("A file of an older version, without a column added since, reads with the column's default")
    func olderFileWithoutAColumn() throws {
        var summary = CaseSummary()
        summary.variant = "V1"
        summary.workload = "fetch"
        summary.size = 10
        summary.medianMs = 1.5
        summary.rawMs = 1.25
        let text = RunFiles.results.text([summary])
        let rows = CSVWriter.parse(text)
        let keep = rows[0].indices.filter { !["raw_ms", "raw_ratio", "instructions"].contains(rows[0][$0]) }
        var older = CSVWriter(header: keep.map { rows[0][$0] })
        older.append(keep.map { rows[1][$0] })
        let read = try RunFiles.results.rows(in: older.text, file: "old/results.csv", blank: CaseSummary())
        #expect(read.count == 1)
        #expect(read[0].rawMs == nil && read[0].instructions == nil)
        #expect(read[0].medianMs == 1.5 && read[0].key == summary.key)
    }

    @Test("Errors name the file, the row and the column")
    func errors() throws {
        let header = RunFiles.results.header
        #expect {
            _ = try RunFiles.results.rows(in: "scenario,median_ms\ns,1\n", file: "x/results.csv", blank: CaseSummary())
        } throws: { error in
            (error as? FileError)?.message == "x/results.csv has no column schema, workload, size"
        }
        var summary = CaseSummary()
        summary.variant = "V1"
        var fields = RunFiles.results.fields(summary)
        fields[header.firstIndex(of: "median_ms")!] = "fast"
        let bad = CSVWriter(header: header).text + CSVWriter.record(fields)
        #expect {
            _ = try RunFiles.results.rows(in: bad, file: "x/results.csv", blank: CaseSummary())
        } throws: { error in
            (error as? FileError)?.message == "x/results.csv, row 1, column median_ms: 'fast' is not a number"
        }
        let short = CSVWriter(header: header).text + "s,V1,w,3\n"
        #expect {
            _ = try RunFiles.results.rows(in: short, file: "x/results.csv", blank: CaseSummary())
        } throws: { error in
            (error as? FileError)?.message == "x/results.csv, row 1: 4 fields, the header has \(header.count)"
        }
    }

    @Test("Every column of every run file is written and read back as the same value")
    func roundTrip() throws {
        var summary = CaseSummary()
        summary.scenario = "s, with a comma"
        summary.variant = "V1+index"
        summary.workload = "fetch"
        summary.size = 1000
        summary.repetitions = 5
        summary.medianMs = 12.3456
        summary.counters.vmSteps = 123_456_789_012
        summary.referenceCheck = .same
        summary.floorMs = 2.5
        summary.reads = 100
        summary.readP99Ms = 0.125
        summary.instructions = 9_876_543
        summary.sqliteInstructions = 1_234
        let back = try RunFiles.results.rows(in: RunFiles.results.text([summary]), file: "r.csv", blank: CaseSummary())
        #expect(back == [summary])
        let fill = ScenarioRow(
            scenario: "s",
            value: FillMeasurement(
                variant: "V2", size: 10, chunkRows: 5, streamed: true, milliseconds: 3.25, peakRSSKB: 100, rssGrowthKB: -1, storeBytes: 4096
            ))
        let fills = try RunFiles.fills.rows(in: RunFiles.fills.text([fill]), file: "f.csv", blank: RunFiles.blankFill)
        #expect(fills.map(\.value) == [fill.value])
        let failure = CaseRow(
            scenario: "s", key: CaseKey(variant: "V", workload: "w", size: 3), value: CaseFailure(message: "SQLite error 19: x", sql: nil))
        let failures = try RunFiles.failures.rows(in: RunFiles.failures.text([failure]), file: "e.csv", blank: RunFiles.blankFailure)
        #expect(failures.map(\.value) == [failure.value] && failures.map(\.key) == [failure.key])
    }
}
