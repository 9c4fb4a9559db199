import ArgumentParser

// The options several subcommands share, each with one name everywhere: `--variant` for one
// variant and `--variants` for a comma-separated list (each accepts the other spelling),
// `--workload`/`--workloads` the same, `--out` for what a command writes, `--replace` to
// overwrite it, `--size`, `--reps`.

/// `--dir`: where baselines are kept (`baseline save`, `baseline list`, `compare`).
struct BaselineDirectoryOption: ParsableArguments {
    @Option(name: .long, help: "Where baselines are kept.")
    var dir = "results/baselines"
}

/// `--sqlite3`: the sqlite3 tool whose `.expert` gives index advice (`explain`, `report`).
struct SQLiteToolOption: ParsableArguments {
    @Option(name: .long, help: "The sqlite3 executable.")
    var sqlite3 = "sqlite3"
}

/// `--variant` and `--workload`: one case of a scenario (`explain`).
struct CaseSelectionOptions: ParsableArguments {
    @Option(name: [.customLong("variant"), .customLong("variants")], help: "The variant.")
    var variant: String

    @Option(name: [.customLong("workload"), .customLong("workloads")], help: "The workload.")
    var workload: String
}

/// `--variants` and `--workloads`: some of a scenario's variants and workloads, or a run's
/// (`run`, `plans`).
struct CaseFilterOptions: ParsableArguments {
    @Option(name: [.customLong("variants"), .customLong("variant")], help: "Only these variants (comma-separated names).")
    var variants: String?

    @Option(name: [.customLong("workloads"), .customLong("workload")], help: "Only these workloads (comma-separated names).")
    var workloads: String?

    /// The names given, or nil for all.
    var variantNames: [String]? { variants.map { $0.split(separator: ",").map(String.init) } }
    var workloadNames: [String]? { workloads.map { $0.split(separator: ",").map(String.init) } }
}
