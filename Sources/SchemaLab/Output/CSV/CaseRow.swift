import SchemaLabEngine

/// A row of a per-case file (samples.csv, plans.csv, a latencies file, failures.csv): the
/// scenario, the case, and one value of that case.
package struct CaseRow<Value: Sendable>: Sendable {
    package var scenario: String
    package var variant: String
    package var workload: String
    package var size: Int
    package var value: Value

    package init(scenario: String, key: CaseKey, value: Value) {
        self.scenario = scenario
        variant = key.variant
        workload = key.workload
        size = key.size
        self.value = value
    }

    package var key: CaseKey { CaseKey(variant: variant, workload: workload, size: size) }

    /// The columns that say which case a row is about: scenario, schema, workload, size.
    static var keyColumns: [CSVColumn<CaseRow>] {
        [.text("scenario", \.scenario), .text("schema", \.variant), .text("workload", \.workload), .integer("size", \.size)]
    }

    /// The table of a per-case file: the key columns, then `columns` of the value.
    static func table(_ columns: [CSVColumn<Value>]) -> CSVTable<CaseRow> {
        CSVTable(keyColumns + columns.map { $0.lifted(\.value) }, required: ["schema", "workload", "size"])
    }
}
