import Foundation
import Testing
@testable import SchemaLab
import SchemaLabTestSupport

/// The `log` fuzz target on its seeds: the published SQLDebug fixtures and the hand-written logs
/// over its own model (`Fuzz/corpus/log`).
@Suite("Fuzzing: the log target on its seeds")
struct LogFuzzTargetTests {
    static let seedDirectories = [TestSupport.packageRoot + "/Tests/Fixtures/SQLDebug", TestSupport.packageRoot + "/Fuzz/corpus/log"]

    static func seeds() throws -> [(name: String, bytes: [UInt8])] {
        try seedDirectories.flatMap { dir in
            try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".log") }.sorted().map {
                ($0, [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/" + $0))))
            }
        }
    }

    @Test("every seed log is read with its promise kept: statements, a tally that adds up, the same as text and as a file")
    func seedsKeepThePromise() throws {
        let seeds = try Self.seeds()
        #expect(seeds.count >= 15)
        for seed in seeds {
            #expect(try FuzzTarget.log.run(seed.bytes) == .accepted, "\(seed.name)")
        }
    }

    /// The others are refused on purpose: an `IN (SELECT …)` over a join table, a many-to-many
    /// fault, a bytes value bound to a string search, a statement with `ESCAPE`.
    @Test("the target's model rebuilds two thirds of the SELECT shapes of its own seeds, so that mutations reach the rebuilder")
    func modelFitsTheSeeds() throws {
        let rebuilder = RequestRebuilder(model: FuzzTarget.logModel, dateStandIn: 0)
        var shapes = 0
        var rebuilt = 0
        for seed in try Self.seeds() where seed.name.hasPrefix("shelf-") {
            var digest = LogDigest()
            _ = SQLDebugLogReader.read(text: String(decoding: seed.bytes, as: UTF8.self)) { digest.add($0) }
            for shape in digest.shapes where shape.kind == .select {
                shapes += 1
                guard let select = try? LoggedSQLParser.select(shape.first.sql) else { continue }
                if (try? rebuilder.rebuild(select, binds: shape.first.binds, entityName: shape.first.entity)) != nil { rebuilt += 1 }
            }
        }
        #expect(shapes >= 15)
        #expect(rebuilt * 3 >= shapes * 2, "\(rebuilt) of \(shapes) shapes rebuilt")
    }

    @Test("a log with CRLF line ends, or an empty one, reads as text as it reads as a file (the text split at Characters did not)")
    func textReadsAsAFile() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for text in [
            "CoreData: sql: SELECT 0, t0.Z_PK FROM ZBOOK t0\r\nApp: done\r\nCoreData: sql: SELECT COUNT(*) FROM ZTAG\r\n", "", "\n\n",
        ] {
            let path = dir + "/app.log"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            var fromText: [LoggedStatement] = []
            var fromFile: [LoggedStatement] = []
            let textTally = SQLDebugLogReader.read(text: text) { fromText.append($0) }
            let fileTally = try SQLDebugLogReader.read(path: path) { fromFile.append($0) }
            #expect(textTally == fileTally, "\(text.debugDescription)")
            #expect(fromText == fromFile, "\(text.debugDescription)")
        }
        let crlf = SQLDebugLogReader.read(
            text: "CoreData: sql: SELECT 0, t0.Z_PK FROM ZBOOK t0\r\nCoreData: sql: SELECT COUNT(*) FROM ZTAG\r\n"
        ) { _ in }
        #expect(crlf.lines == 2 && crlf.statements == 2)
        #expect(SQLDebugLogReader.read(text: "") { _ in }.lines == 0)
    }

    @Test("a WHERE nested to SQLite's limit parses and rebuilds; deeper, it is refused in words (it overflowed the stack)")
    func nestingLimit() throws {
        let head = "SELECT 0, t0.Z_PK FROM ZBOOK t0 WHERE "
        let limit = LoggedSQLParser.maxDepth
        let rebuilder = RequestRebuilder(model: FuzzTarget.logModel, dateStandIn: 0)
        let atLimit = [
            head + String(repeating: "(", count: limit - 1) + "t0.ZTITLE = ?" + String(repeating: ")", count: limit - 1),
            head + Array(repeating: "t0.ZTITLE = ?", count: limit).joined(separator: " OR "),
            head + String(repeating: "NOT ", count: limit - 1) + "t0.ZTITLE = ?",
        ]
        for sql in atLimit {
            let select = try LoggedSQLParser.select(sql)
            _ = try rebuilder.rebuild(select, binds: Array(repeating: .text("a"), count: limit))
        }
        let deeper = [
            head + String(repeating: "(", count: limit) + "t0.ZTITLE = ?" + String(repeating: ")", count: limit),
            head + Array(repeating: "t0.ZTITLE = ?", count: limit + 1).joined(separator: " OR "),
            head + String(repeating: "NOT ", count: limit) + "t0.ZTITLE = ?",
            head + "t0.ZPUBLISHEDYEAR = 1" + String(repeating: " + 1", count: limit),
        ]
        for sql in deeper {
            #expect {
                _ = try LoggedSQLParser.select(sql)
            } throws: { error in
                "\(error)" == "the statement nests expressions deeper than 1000 levels, SQLite's limit"
            }
        }
    }

    @Test("a time that is no number of seconds is not read as one; rows and windows past Int.max stay there (they trapped)")
    func logNumbers() throws {
        #expect(
            SQLDebugLine.parse("CoreData: annotation: total fetch execution time: 0.0021s for 12 rows.")
                == .fetchExecution(seconds: 0.0021, rows: 12))
        for time in ["nan", "inf", "-1", "1e400", "2e9"] {
            #expect(
                SQLDebugLine.parse("CoreData: annotation: total fetch execution time: \(time)s for 3 rows.") == .otherCoreData, "\(time)")
            #expect(SQLDebugLine.parse("CoreData: annotation: sql connection fetch time: \(time)s") == .otherCoreData, "\(time)")
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestSupport.packageRoot + "/Fuzz/crashes/log/rows-sum-overflow")))
        var digest = LogDigest()
        _ = SQLDebugLogReader.read(text: String(decoding: bytes, as: UTF8.self)) { digest.add($0) }
        #expect(digest.shapes.map(\.rows) == [Int.max])
        let windows = [UInt8](
            try Data(contentsOf: URL(fileURLWithPath: TestSupport.packageRoot + "/Fuzz/crashes/log/window-limit-product-overflow")))
        digest = LogDigest()
        _ = SQLDebugLogReader.read(text: String(decoding: windows, as: UTF8.self)) { digest.add($0) }
        let entries = try LogWorkloads(model: FuzzTarget.logModel, dateStandIn: 0, keepsUnknown: true).entries(digest)
        #expect(entries.map(\.workload.touch) == [.first(Int.max)])
    }
}
