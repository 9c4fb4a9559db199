import ArgumentParser

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

/// `--variant` and `--workload`: one case of a scenario (`explain`, `count-case`).
struct CaseSelectionOptions: ParsableArguments {
    @Option(name: .long, help: "The variant.")
    var variant: String

    @Option(name: .long, help: "The workload.")
    var workload: String
}
