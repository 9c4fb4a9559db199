import Foundation
@testable import SchemaLab
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// What the lab issues for a scenario, from a small real run through the CLI: the `sql`
/// column of plans.csv by variant and workload, plus each variant's DDL and the statements
/// logged while a store of it is opened. Used by the checks that compare SQL text with the
/// lab's (docs/statement-shapes.md, the fidelity suite).
enum IssuedStatements {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `path` at `size` rows into `directory` and returns the statements, each passed
    /// through `normalize`, keyed `"<variant>/<workload>"`; `"<variant>/"` holds the DDL and
    /// the statements of opening a store.
    static func collect(
        scenario path: String, size: Int, in directory: String, normalize: (String) -> String
    ) throws -> [String: Set<String>] {
        let out = directory + "/run"
        let run = try TestSupport.runCLI(["run", path, "--out", out, "--size", String(size), "--reps", "1", "--warmup", "0", "--quiet"])
        guard run.status == 0 else { throw Failure(description: "schemalab run \(path) exited \(run.status): \(run.err)") }
        var issued: [String: Set<String>] = [:]
        let rows = CSVWriter.parse(try String(contentsOfFile: out + "/plans.csv", encoding: .utf8))
        guard let header = rows.first, let schema = header.firstIndex(of: "schema"), let workload = header.firstIndex(of: "workload"),
            let sql = header.firstIndex(of: "sql")
        else { throw Failure(description: "\(out)/plans.csv has no schema, workload and sql columns") }
        for row in rows.dropFirst() where row.count > max(schema, workload, sql) {
            issued[row[schema] + "/" + row[workload], default: []].insert(normalize(row[sql]))
        }
        for model in try ScenarioPlan(ScenarioDecoder.load(path: path)).models {
            var set = Set(SchemaDDL(model: model).statements.map(normalize))
            let storePath = directory + "/\(model.variant).sqlite"
            _ = try Store.create(path: storePath, model: model)
            let opened = try Store.open(path: storePath, model: model)
            for s in opened.db.statementLog { set.insert(normalize(s)) }
            issued[model.variant + "/"] = set
        }
        return issued
    }

    /// ``collect(scenario:size:in:normalize:)`` with every workload's statements and the
    /// variant's own merged, by variant.
    static func byVariant(_ issued: [String: Set<String>]) -> [String: Set<String>] {
        var out: [String: Set<String>] = [:]
        for (key, statements) in issued {
            out[String(key.prefix { $0 != "/" }), default: []].formUnion(statements)
        }
        return out
    }
}
