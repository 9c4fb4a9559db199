import Foundation
import Testing
import SchemaLab
import SchemaLabTestSupport

/// The advisor weighing an index against the app's own save: one post by an existing author
/// (an `append` of Post relating `author`), its cost per save (VM steps and pages written)
/// reported beside the fetch's gain, through the built CLI.
@Suite("Advise, end to end: a save of one related object as the write cost")
struct AdviseSavesEndToEndTests {
    static func scenario(saveWeight: Double) -> String {
        """
        {"format": 1, "name": "blog",
         "variants": [{"name": "as-is", "entities": [
           {"name": "Author", "attributes": [{"name": "name", "type": "string"}],
            "relationships": [{"name": "posts", "destination": "Post", "toMany": true, "inverse": "author"}]},
           {"name": "Post", "attributes": [{"name": "title", "type": "string"}, {"name": "date", "type": "date"}],
            "relationships": [{"name": "author", "destination": "Author", "inverse": "posts"}]}]}],
         "dataset": {"seed": 5, "entity": "Author", "counts": [200],
           "fields": [{"field": "name", "generator": {"kind": "uuid", "prefix": "author-"}}],
           "related": [{"relationship": "posts", "fanOut": {"kind": "uniformInt", "min": 0, "max": 20},
             "fields": [{"field": "title", "generator": {"kind": "text", "minLength": 5, "maxLength": 30}},
                        {"field": "date", "generator": {"kind": "dateRange", "from": "2020-01-01", "to": "2021-01-01"}}]}]},
         "workloads": [
           {"name": "recent", "kind": "fetch", "entity": "Post", "sort": [{"key": "date", "ascending": false}], "fetchLimit": 20},
           {"name": "every-post", "kind": "fetch", "entity": "Post", "sort": [{"key": "date", "ascending": false}], "resultType": "objectIDs"},
           {"name": "post-by-author", "kind": "append", "entity": "Post", "relate": ["author"], "count": 1, "weight": \(saveWeight)}],
         "measurement": {"warmup": 1, "repetitions": 2}}
        """
    }

    @Test("The date index for the latest posts, its cost per save of a post by an existing author in VM steps and pages written")
    func indexAgainstTheSave() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.scenario(saveWeight: 1).write(toFile: dir + "/blog.json", atomically: true, encoding: .utf8)
        let run = try TestSupport.runCLI(
            [
                "advise", dir + "/blog.json", "--size", "200", "--second-size", "100", "--reps", "2", "--basis", "vm-steps",
                "--report", dir + "/advice.md",
            ], environment: ["TMPDIR": dir])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("Add fetch index byDate (date DESC) to entity Post: every-post, recent faster"), "\(run.out)")
        let report = try String(contentsOfFile: dir + "/advice.md", encoding: .utf8)
        #expect(report.contains("## What each save costs"), "\(report)")
        let row = try #require(report.split(separator: "\n").first { $0.hasPrefix("| post-by-author | 1 |") }, "\(report)")
        // | post-by-author | 1 | steps before -> after | pages before -> after | ms before -> after |
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        func pair(_ cell: String) -> (Double, Double) {
            let parts = cell.components(separatedBy: " -> ").map { Double($0.replacingOccurrences(of: ",", with: "")) ?? -1 }
            return (parts[0], parts[1])
        }
        let steps = pair(cells[2]), pages = pair(cells[3])
        #expect(steps.0 > 0 && steps.1 > steps.0, "the index's entry costs the save VM steps: \(row)")
        #expect(pages.0 > 0 && pages.1 > pages.0, "and a page of the index: \(row)")
        // The plans after: both read through the index; the full list reads the whole table
        // (its full-scan steps say so), the first 20 do not.
        let plans = report.split(separator: "\n").filter { $0.hasPrefix("- recent:") || $0.hasPrefix("- every-post:") }
        let whole = " (reads the whole table through an index: a scan in index order)"
        #expect(plans.first { $0.hasPrefix("- recent:") }.map { !$0.hasSuffix(whole) } == true, "\(plans)")
        #expect(plans.first { $0.hasPrefix("- every-post:") }.map { $0.hasSuffix(whole) } == true, "\(plans)")
    }

    @Test("A save made far more often than the fetch: the same index declined, its cost per save exceeding its gain")
    func heavySaveDeclines() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.scenario(saveWeight: 100_000).write(toFile: dir + "/blog.json", atomically: true, encoding: .utf8)
        let run = try TestSupport.runCLI(
            ["advise", dir + "/blog.json", "--size", "200", "--second-size", "100", "--reps", "2", "--basis", "vm-steps"],
            environment: ["TMPDIR": dir])
        #expect(run.status == 0, "\(run.err)")
        #expect(!run.out.contains("Add fetch index"), "\(run.out)")
    }
}
