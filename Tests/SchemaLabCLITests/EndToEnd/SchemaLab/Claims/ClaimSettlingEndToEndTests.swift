import Foundation
import Testing
@testable import SchemaLab
import SchemaLabTestSupport

/// A claim whose two cases run the same work: its interval straddles 1 wider than a
/// direction's 10% margin unless the machine is quiet, so the run measures it again; what
/// the run prints, the repetitions claims.csv records and the verdict agree.
@Suite("Claims, end to end: undecided claims measured again")
struct ClaimSettlingEndToEndTests {
    static let scenario = """
        {"format": 1, "name": "twins",
         "variants": [{"name": "a", "entities": [{"name": "Note", "attributes": [{"name": "title", "type": "string"}]}]},
                      {"name": "b", "extends": "a"}],
         "dataset": {"seed": 1, "entity": "Note", "counts": [200], "fields": [
           {"field": "title", "generator": {"kind": "text", "minLength": 5, "maxLength": 20}}]},
         "workloads": [{"name": "all", "kind": "fetch", "sort": ["title"]}],
         "measurement": {"warmup": 1, "repetitions": 3},
         "claims": [{"id": "twins", "source": {"document": "none", "year": 2026, "where": "here"},
           "claim": "b reads faster than a (it cannot: the same schema).", "case": {"variant": "b", "workload": "all"},
           "against": {"variant": "a"}, "metric": "medianTime", "expect": {"direction": "lower"}}]}
        """

    @Test("Rounds of five more repetitions while undecided; claims.csv's repetitions and the printed lines agree with the verdict")
    func settles() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.scenario.write(toFile: dir + "/twins.json", atomically: true, encoding: .utf8)
        let run = try TestSupport.runCLI(["run", dir + "/twins.json", "--out", dir + "/out", "--settle-seconds", "60"])
        #expect(run.status == 0, "\(run.err)")
        let row = try #require(try ClaimsFile.read(directory: dir + "/out").first { $0.headline })
        let text = "\(row.verdict.rawValue) \(row.measuredText)"
        let repetitions = try #require(row.repetitions)
        let verdict = row.verdict.rawValue
        #expect([3, 8, 13].contains(repetitions), "\(text)")
        let rounds = run.err.components(separatedBy: "claims undecided (twins)").count - 1
        #expect(repetitions == 3 + 5 * rounds, "\(run.err)")
        // Never a verdict that is not ratio-like: 'b' is not faster in any real sense.
        #expect(["within noise", "undecided", "reversed", "holds"].contains(verdict))
        if verdict == "undecided" {
            #expect(repetitions == 13, "with time to spare, both rounds ran")
            #expect(run.err.contains("undecided: twins") && run.err.contains("after 13 repetitions a case"), "\(run.err)")
        }
        // With no time to settle, the first look stands.
        let quick = try TestSupport.runCLI(["run", dir + "/twins.json", "--out", dir + "/quick", "--settle-seconds", "0"])
        #expect(quick.status == 0 && !quick.err.contains("claims undecided ("), "\(quick.err)")
        let bad = try TestSupport.runCLI(["run", dir + "/twins.json", "--out", dir + "/bad", "--settle-seconds=-1"])
        #expect(bad.status == 2 && bad.err.contains("--settle-seconds"), "\(bad.err)")
    }
}
