import Foundation
import Synchronization
import Testing
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
@testable import SchemaLab
import SchemaLabTestSupport

/// Keeps `docs/statement-shapes.md` true: every SQL block marked
/// `<!-- checked: <source> <variant> -->` must hold only statements the lab really issues
/// for that scenario and variant.
///
/// A block's statements are its lines; a line that starts with whitespace continues the
/// statement above it. Both sides are compared whitespace-normalized (runs of spaces and
/// line breaks are one space), and an `IN` list of markers, `(?,?,?)`, is written
/// `(?,…)` on both sides, since its length follows the data. What the lab issues for a
/// variant is: the `sql` column of plans.csv from a small real run of the scenario (every
/// distinct statement each case ran), the variant's DDL (`SchemaDDL(model:).statements`),
/// and the statements logged while a store of the variant is opened (pragmas, metadata).
@Suite("docs/statement-shapes.md")
struct StatementShapesDocTests {
    static let documentPath = TestSupport.packageRoot + "/docs/statement-shapes.md"

    /// The scenario file behind each source name the document may use.
    static let sources: [String: String] = [
        "photos-matrix": TestSupport.photosScenario,
        "relationships": TestSupport.packageRoot + "/scenarios/relationships.json",
        "relationships-photo": TestSupport.packageRoot + "/scenarios/relationships-photo.json",
        "posts-per-day": TestSupport.packageRoot + "/scenarios/posts-per-day.json",
        "shapes": TestSupport.packageRoot + "/Tests/Fixtures/shapes.json",
        "statement-shapes": TestSupport.packageRoot + "/Tests/Fixtures/statement-shapes.json",
        "quakes-ingest": TestSupport.packageRoot + "/scenarios/quakes-ingest.json",
        "quakes-reingest": TestSupport.packageRoot + "/scenarios/quakes-reingest.json",
        "quakes-update-delete": TestSupport.packageRoot + "/scenarios/quakes-update-delete.json",
        "delete-rules": TestSupport.packageRoot + "/Tests/Fixtures/delete-rules.json",
        "posts-geo": TestSupport.packageRoot + "/scenarios/posts-geo.json",
        "search": TestSupport.packageRoot + "/scenarios/search.json",
    ]

    /// One fenced SQL block of the document and the comment above it.
    struct Block {
        /// 1-based line of the opening fence.
        var line: Int
        /// `(source, variant)` for a checked block; nil for an unchecked one.
        var checked: (source: String, variant: String)?
        /// The statements, one per entry, whitespace-normalized.
        var statements: [String]
    }

    /// Collapses whitespace and writes every `IN` list of markers as `(?,…)`.
    static func normalize(_ sql: String) -> String {
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        return words.joined(separator: " ")
            .replacingOccurrences(of: #"\(\?(,\?)*\)"#, with: "(?,…)", options: .regularExpression)
    }

    /// Every ```sql block of `text`. Each must sit right below `<!-- checked: source variant -->`
    /// or `<!-- unchecked: reason -->`; anything else is an error naming the line.
    static func blocks(of text: String) throws -> [Block] {
        let lines = text.components(separatedBy: "\n")
        var out: [Block] = []
        var i = 0
        while i < lines.count {
            guard lines[i].trimmingCharacters(in: .whitespaces) == "```sql" else { i += 1; continue }
            let fence = i + 1
            var above = i - 1
            while above >= 0 && lines[above].trimmingCharacters(in: .whitespaces).isEmpty { above -= 1 }
            let comment = above >= 0 ? lines[above].trimmingCharacters(in: .whitespaces) : ""
            var checked: (String, String)?
            if comment.hasPrefix("<!-- checked:") && comment.hasSuffix("-->") {
                let words = comment.dropFirst("<!-- checked:".count).dropLast(3).split(separator: " ").map(String.init)
                guard words.count == 2 else { throw DocError("line \(fence): write <!-- checked: <source> <variant> -->") }
                checked = (words[0], words[1])
            } else if !(comment.hasPrefix("<!-- unchecked:") && comment.count > "<!-- unchecked: -->".count) {
                throw DocError(
                    "line \(fence): a ```sql block needs <!-- checked: source variant --> or <!-- unchecked: reason --> above it")
            }
            var statements: [String] = []
            i += 1
            while i < lines.count && lines[i].trimmingCharacters(in: .whitespaces) != "```" {
                let line = lines[i]
                i += 1
                if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                if line.first == " " || line.first == "\t", !statements.isEmpty {
                    statements[statements.count - 1] += " " + line
                } else {
                    statements.append(line)
                }
            }
            guard i < lines.count else { throw DocError("line \(fence): the ```sql block is not closed") }
            out.append(Block(line: fence, checked: checked, statements: statements.map(normalize)))
            i += 1
        }
        return out
    }

    struct DocError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// What the lab issues for each variant of `scenario`, by a run at 50 rows in `directory`.
    static func issued(scenario path: String, in directory: String) throws -> [String: Set<String>] {
        IssuedStatements.byVariant(try IssuedStatements.collect(scenario: path, size: 50, in: directory, normalize: normalize))
    }

    @Test("the document's blocks are all labelled, and enough of them are checked")
    func labelled() throws {
        let blocks = try Self.blocks(of: String(contentsOfFile: Self.documentPath, encoding: .utf8))
        let checked = blocks.filter { $0.checked != nil }
        #expect(checked.count >= 20, "the document should check its examples; found \(checked.count) checked blocks")
        #expect(blocks.allSatisfy { !$0.statements.isEmpty }, "an empty ```sql block")
        for b in checked {
            #expect(
                Self.sources[b.checked!.source] != nil,
                "line \(b.line): unknown source \(b.checked!.source); known: \(Self.sources.keys.sorted())")
        }
    }

    @Test("the normalization keeps statements apart that differ")
    func normalization() {
        #expect(
            Self.normalize("SELECT  0,\n   t0.Z_PK FROM ZNOTE t0 WHERE t0.Z_PK IN (?,?,?) LIMIT 3")
                == "SELECT 0, t0.Z_PK FROM ZNOTE t0 WHERE t0.Z_PK IN (?,…) LIMIT 3")
        #expect(Self.normalize("INSERT INTO ZNOTE(Z_PK, Z_ENT) VALUES(?, ?)") == "INSERT INTO ZNOTE(Z_PK, Z_ENT) VALUES(?, ?)")
        #expect(Self.normalize("COUNT( DISTINCT t0.Z_PK)") != Self.normalize("COUNT(DISTINCT t0.Z_PK)"))
    }

    @Test("every checked SQL example is a statement the lab issues for its scenario and variant")
    func checkedExamplesAreIssued() throws {
        let blocks = try Self.blocks(of: String(contentsOfFile: Self.documentPath, encoding: .utf8))
        let needed = Set(blocks.compactMap { $0.checked?.source }).sorted()
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The runs are independent processes: run them side by side.
        let results = Mutex<[String: Result<[String: Set<String>], any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: needed.count) { i in
            let source = needed[i]
            let outcome = Result<[String: Set<String>], any Error>(catching: {
                guard let path = Self.sources[source] else { throw DocError("unknown source \(source)") }
                let sub = dir + "/" + source
                try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
                return try Self.issued(scenario: path, in: sub)
            })
            results.withLock { $0[source] = outcome }
        }
        let issued = try results.withLock { r in try r.mapValues { try $0.get() } }
        var checkedStatements = 0
        for b in blocks {
            guard let (source, variant) = b.checked else { continue }
            guard let statements = issued[source]?[variant] else {
                Issue.record("line \(b.line): \(source) has no variant \(variant)")
                continue
            }
            for s in b.statements {
                checkedStatements += 1
                if !statements.contains(s) {
                    Issue.record(
                        "line \(b.line): \(source) \(variant) does not issue\n  \(s)\nIt issues:\n  \(statements.sorted().joined(separator: "\n  "))"
                    )
                }
            }
        }
        #expect(checkedStatements >= 40)
    }
}
