import Foundation
import Testing
@testable import SchemaLab
import SchemaLabTestSupport

/// Keeps docs/results.md in step with the run files' column definitions (``RunFiles``,
/// ``ClaimRecord/table``): every column a run writes is described there.
@Suite("docs/results.md describes every column the run files have")
struct ResultsDocTests {
    static let document = TestSupport.packageRoot + "/docs/results.md"

    @Test("Each results.csv column is in the first cell of a row of the results.csv table")
    func resultsColumns() throws {
        let text = try String(contentsOfFile: Self.document, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## results.csv").dropFirst().first?.components(separatedBy: "\n## ").first)
        let described = Set(
            section.split(separator: "\n").filter { $0.hasPrefix("| ") }.flatMap { line in
                line.split(separator: "|").first.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
            })
        let missing = RunFiles.results.header.filter { !described.contains($0) }
        #expect(missing.isEmpty, "docs/results.md's results.csv table lacks \(missing)")
    }

    @Test("Each column of samples.csv, plans.csv, the latency files, failures.csv, fills.csv and claims.csv is named in the text")
    func otherColumns() throws {
        let text = try String(contentsOfFile: Self.document, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## The other files of a run directory").dropFirst().first)
        let tables: [(String, [String])] = [
            ("samples.csv", RunFiles.samples.header), ("plans.csv", RunFiles.plans.header),
            ("latencies", RunFiles.latencies.header), ("failures.csv", RunFiles.failures.header), ("fills.csv", RunFiles.fills.header),
        ]
        for (file, header) in tables {
            let missing = header.filter { !section.contains($0) }
            #expect(missing.isEmpty, "docs/results.md does not name \(file)'s \(missing)")
        }
        let claimWords = ClaimRecord.header.filter { !["scenario", "claim", "case", "against", "size", "where"].contains($0) }
        let claimsText = try String(contentsOfFile: TestSupport.packageRoot + "/docs/claims.md", encoding: .utf8) + section
        #expect(claimWords.filter { !claimsText.contains($0) }.isEmpty, "claims.csv columns undocumented")
    }
}
