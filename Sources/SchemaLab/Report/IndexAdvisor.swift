import Foundation
import SchemaLabEngine

/// What SQLite's `.expert` suggests for one statement: the indexes it would create, and
/// the statement's plan with them.
package struct IndexAdvice: Sendable, Equatable {
    /// `CREATE INDEX` statements; empty when `.expert` has nothing to add.
    package let indexes: [String]
    /// The plan with those indexes.
    package let plan: [String]
    /// Why there is no advice (the statement uses a function only the lab registers), or nil.
    package let failure: String?

    /// One line for the report.
    package var summary: String {
        if let failure { return "No index advice: \(failure)." }
        return indexes.isEmpty ? "SQLite's `.expert` suggests no new index; its plan:" : "SQLite's `.expert` suggests:"
    }
}

/// Asks the `sqlite3` command-line tool's `.expert` for index advice. The statement is
/// the lab's own SQL with `?` parameters (no value is spliced into it), run against an
/// empty store of the variant's schema, so the advice follows from the schema and the
/// statement alone (no table statistics).
package struct IndexAdvisor: Sendable {
    package let sqlite3: String

    package init(sqlite3: String = "sqlite3") { self.sqlite3 = sqlite3 }

    /// Why `.expert` cannot be used here, or nil when it can.
    package func unavailable() -> String? {
        let probe = run(database: ":memory:", input: ".expert\nSELECT 1;\n")
        switch probe {
        case .failure(let why): return why
        case .success: return nil
        }
    }

    /// The advice for `sql` against the store at `database`.
    package func advise(sql: String, database: String) -> IndexAdvice {
        let statement = sql.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !statement.contains("\n") else { return IndexAdvice(indexes: [], plan: [], failure: "a statement of several lines") }
        switch run(database: database, input: ".expert\n\(statement);\n") {
        case .failure(let why):
            return IndexAdvice(indexes: [], plan: [], failure: why)
        case .success(let out):
            let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let split = lines.firstIndex(of: "") ?? lines.count
            let head = lines[..<split].filter { !$0.isEmpty }
            let plan = lines[split...].filter { !$0.isEmpty }
            return IndexAdvice(indexes: head.filter { $0.hasPrefix("CREATE INDEX") }, plan: Array(plan), failure: nil)
        }
    }

    enum Outcome { case success(String), failure(String) }

    private func run(database: String, input: String) -> Outcome {
        let result: SubprocessResult
        do {
            result = try Subprocess(sqlite3, ["-batch", "-bail", database], input: input).run()
        } catch {
            if case .notFound = error { return .failure("no \(sqlite3) on the PATH (make setup installs it)") }
            return .failure("\(error)")
        }
        let errText = result.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, errText.isEmpty else {
            let first = errText.split(separator: "\n").first.map(String.init) ?? "status \(result.status)"
            return .failure("sqlite3 says: \(first)")
        }
        return .success(result.standardOutput)
    }
}
