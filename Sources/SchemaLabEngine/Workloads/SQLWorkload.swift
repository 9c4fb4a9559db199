import SchemaLabSQLite
import SchemaLabCoreData

/// One statement of an app's SQL log run as it is (`sql`), its values bound as parameters:
///
/// - a query (a SELECT, or WITH … SELECT) steps every row on the filled store, each repetition,
///   reading every value as a dictionary fetch does (into a `ValueTable`); its result is the
///   rows: in order when the statement has an `ORDER BY` of its own, else as a set (sorted,
///   since another plan may return them in another order);
/// - an INSERT, UPDATE or DELETE runs on a fresh copy of the filled store, in one
///   `BEGIN EXCLUSIVE … COMMIT` as a batch update's; its result is the number of rows it changed.
///
/// The statement is the scenario's, checked as text by the decoder and prepared against each
/// variant's schema by the plan (``ScenarioPlan``), where SQLite also says whether it writes.
/// Timed: binding, stepping and reading the rows; or the transaction.
package final class SQLWorkload: Workload {
    package let spec: WorkloadSpec
    package let storeKind: StoreKind
    let model: ManagedObjectModel
    let sql: String
    let bindings: [SQLValue]
    /// True for a query: it reads on the filled store, every repetition.
    let isQuery: Bool
    /// True when the query orders its rows itself (`ORDER BY` outside parentheses).
    let isOrdered: Bool

    init(spec: WorkloadSpec, model: ManagedObjectModel) throws(KeyPathError) {
        guard let sql = spec.sql else { throw KeyPathError(message: "a sql workload needs 'sql' (the statement it runs)", at: ".sql") }
        if let entity = spec.entity, model.entity(entity) == nil {
            throw KeyPathError(message: "variant \(model.model.variant) has no entity '\(entity)'", at: ".entity")
        }
        var bindings: [SQLValue] = []
        for (i, argument) in spec.sqlArguments.enumerated() {
            guard let value = argument.sqlValue else {
                throw KeyPathError(message: "a parameter takes one value, not \(argument.phrase)", at: ".arguments[\(i)]")
            }
            bindings.append(value)
        }
        let text = SQLStatementText(sql)
        self.spec = spec
        self.model = model
        self.sql = sql
        self.bindings = bindings
        self.isQuery = text.isQuery
        self.isOrdered = text.isOrdered
        self.storeKind = spec.storeKind
    }

    /// A query's floor: the same statement stepped with the bare C API.
    package var floorStatements: [(sql: String, bindings: [SQLValue])] { isQuery ? [(sql, bindings)] : [] }

    package func run(store: Store) throws -> WorkloadOutcome {
        guard isQuery else {
            let changed = try ManagedObjectContext(store: store, objectModel: model).executeWrite(sql: sql, bindings: bindings)
            return WorkloadOutcome(rows: changed, valuesRead: 0) { ResultSignature.of(rows: [[.integer(Int64(changed))]]) }
        }
        let s = try store.db.statement(sql)
        try s.bind(bindings)
        let table = ValueTable(columnCount: Int(s.columnCount))
        while try s.step() { table.appendRow(from: s) }
        s.reset()
        let ordered = isOrdered
        return WorkloadOutcome(rows: table.rowCount, valuesRead: 0, keepAlive: table) {
            let rows = (0..<table.rowCount).map { r in (0..<table.columnCount).map { table[r, $0] } }
            return ResultSignature.of(rows: ordered ? rows : rows.sorted(by: SQLiteOrder.precedes))
        }
    }
}
