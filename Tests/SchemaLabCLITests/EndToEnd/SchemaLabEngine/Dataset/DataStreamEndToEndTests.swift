import Foundation
import Testing
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// The data set a chunk at a time, through the built CLI's generate command.
@Suite("Data stream, end to end: schemalab generate")
struct DataStreamEndToEndTests {
    @Test(
        "schemalab generate: 1,000,000 photo rows stream in under 32 MB of growth, with the whole set's digest",
        .disabled(if: TestSupport.sanitizer != nil, "a sanitizer's shadow memory and redzones are not the memory this test bounds"))
    func generateMillionRowsCLI() throws {
        let r = try TestSupport.runCLI(["generate", TestSupport.photosScenario, "--size", "1000000"])
        #expect(r.status == 0, "\(r.err)")
        func value(_ key: String) -> String? {
            r.out.split(separator: "\n").first { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) }
        }
        #expect(value("rows") == "1000000")
        #expect(value("chunks")?.hasPrefix("100 (streamed") == true)
        let growth = try #require(value("rss_growth_kb").flatMap { Int($0) })
        #expect(growth < 32 * 1024, "generating 1,000,000 rows grew the resident set by \(growth) kB")
        // The digest is the one of the data set made at once (checked at a size a test can hold).
        let small = try TestSupport.runCLI(["generate", TestSupport.photosScenario, "--size", "20000", "--chunk", "3"])
        let whole = GeneratedData(spec: try TestSupport.photosPlan().scenario.dataset, count: 20_000)
        #expect(small.out.contains("digest: \(whole.digest)"))
        let bad = try TestSupport.runCLI(["generate", TestSupport.photosScenario, "--size", "0"])
        #expect(bad.status == 2 && bad.err.contains("--size must be at least 1"), "an option value is bad input, as in run: \(bad.err)")
    }
}
