import SchemaLabCoreData

extension ScenarioDecoder {
    /// What a sql workload may run: one statement that reads or writes rows, never one that
    /// changes the schema, the connection or the transaction (the lab runs a write in its own).
    static let sqlVerbs = ["SELECT", "INSERT", "UPDATE", "DELETE"]

    /// A sql workload's keys: `sql` (one statement, checked as text here; against each
    /// variant's schema when the plan is built), `arguments` (one value per parameter) and `reason`.
    static func decodeSQL(into spec: inout WorkloadSpec, _ o: JSONObject, at n: JSONNode) throws {
        guard let node = o.optional("sql") else {
            throw n.error("a sql workload needs 'sql' (the statement it runs)")
        }
        let text = try node.string()
        if let problem = sqlProblem(SQLStatementText(text)) { throw node.error(problem) }
        spec.sql = text
        spec.sqlArguments =
            try o.optional("arguments")?.array().map { a in
                let value = try predicateArgument(a)
                if case .array = value { throw a.error("a parameter takes one value, not an array") }
                return value
            } ?? []
        spec.reason = try o.optional("reason")?.string()
    }

    /// Why the statement is not one a sql workload runs, or nil when it is.
    static func sqlProblem(_ statement: SQLStatementText) -> String? {
        let allowed = "a sql workload runs one SELECT, INSERT, UPDATE, DELETE or WITH … SELECT"
        guard let first = statement.firstWord else { return "the statement is empty: \(allowed)" }
        if let second = statement.secondStatement {
            return "one statement only: a second one follows the ';' (\(second.prefix(40)))"
        }
        if first == "WITH" {
            guard statement.verb == "SELECT" else {
                return "\(allowed); a WITH clause before \(statement.verb ?? "no statement") is not run"
            }
            return nil
        }
        if sqlVerbs.contains(first) { return nil }
        let what: String
        switch first {
        case "CREATE", "DROP", "ALTER", "REINDEX", "ANALYZE": what = "DDL (\(first)): the variant's schema is the scenario's"
        case "PRAGMA": what = "a PRAGMA: the scenario's 'pragmas' set the connection"
        case "ATTACH", "DETACH": what = "\(first): the workload runs on the variant's store alone"
        case "VACUUM": what = "VACUUM"
        case "BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE":
            what = "a transaction statement (\(first)): the lab runs a write in a transaction of its own"
        default: what = "a statement that begins with \(first)"
        }
        return "\(allowed), not \(what)"
    }
}
