// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SchemaLab",
    products: [
        .library(name: "SchemaLab", targets: ["SchemaLabSQLite", "SchemaLabCoreData", "SchemaLabEngine", "SchemaLab"]),
        .executable(name: "schemalab", targets: ["schemalab"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation` (make docs): the DocC catalog in Sources/SchemaLab.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // The system SQLite, found with pkg-config. Only SchemaLabSQLite imports it.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // glibc's mallinfo2, which Swift's Glibc module does not export: the heap a result holds.
        .target(name: "CHeap"),
        // The integer-array virtual table (a port of SQLite's test_intarray.c) through which
        // Core Data binds lists of primary keys; used only by SchemaLabSQLite.
        .target(name: "CIntArray", dependencies: ["CSQLite"]),
        // sqlite3_db_config's integer form (a variadic C function Swift cannot call): the
        // defensive settings a store from elsewhere is opened with; used only by SchemaLabSQLite.
        .target(name: "CSQLiteConfig", dependencies: ["CSQLite"]),
        // The SQLite layer: connections, statements, values, counters, plans, the raw stepper
        // and Core Data's SQL functions with the string matching they need.
        .target(
            name: "SchemaLabSQLite",
            dependencies: ["CSQLite", "CIntArray", "CSQLiteConfig"]
        ),
        // Core Data as the lab models it: the resolved model, predicates, the store's SQL, the context.
        .target(
            name: "SchemaLabCoreData",
            dependencies: ["SchemaLabSQLite"]
        ),
        // The lab: scenarios, data sets, workloads, measurement and the runner.
        .target(
            name: "SchemaLabEngine",
            dependencies: ["SchemaLabCoreData", "SchemaLabSQLite", "CHeap"]
        ),
        // What a run leaves and what is made of it: run directories and CSV, comparison, analysis,
        // plots, reports; importing a model; the operations the CLI calls.
        .target(
            name: "SchemaLab",
            dependencies: ["SchemaLabEngine", "SchemaLabCoreData", "SchemaLabSQLite"],
            // The gnuplot scripts the charts are drawn with, found from any working directory.
            resources: [.copy("Plot/gnuplot")]
        ),
        // The CLI lives in Sources/CLI, not Sources/schemalab: on a case-insensitive
        // file system (macOS) that folder would collide with Sources/SchemaLab.
        .executableTarget(
            name: "schemalab",
            dependencies: [
                "SchemaLab", "SchemaLabEngine", "SchemaLabCoreData", "SchemaLabSQLite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/CLI"
        ),
        // What the tests of every layer share: temporary directories, the package root, running a
        // process or the built CLI, the sanitizer they run under. Foundation only, no lab target.
        .target(name: "SchemaLabTestSupport", path: "Tests/SchemaLabTestSupport"),
        // What the tests of the engine and of the layers above it share: the scenario plans.
        .target(
            name: "SchemaLabEngineTestSupport",
            dependencies: ["SchemaLabEngine", "SchemaLabTestSupport"],
            path: "Tests/SchemaLabEngineTestSupport"
        ),
        // What the import tests of the SchemaLab target and of the CLI share: a model imported in process.
        .target(
            name: "SchemaLabImportTestSupport",
            dependencies: ["SchemaLab", "SchemaLabEngine", "SchemaLabTestSupport"],
            path: "Tests/SchemaLabImportTestSupport"
        ),
        // A test target per library target, each depending only on its target, the ones below it
        // and the support targets at or below its layer, and one for what runs across the layers:
        // the built CLI, the docs, the package, the fidelity suite (PackageManifestTests holds them to it).
        .testTarget(
            name: "SchemaLabSQLiteTests",
            dependencies: ["SchemaLabSQLite", "SchemaLabTestSupport"]
        ),
        .testTarget(
            name: "SchemaLabCoreDataTests",
            dependencies: ["SchemaLabCoreData", "SchemaLabSQLite", "SchemaLabTestSupport"]
        ),
        .testTarget(
            name: "SchemaLabEngineTests",
            dependencies: [
                "SchemaLabEngine", "SchemaLabCoreData", "SchemaLabSQLite", "SchemaLabTestSupport", "SchemaLabEngineTestSupport",
            ]
        ),
        .testTarget(
            name: "SchemaLabTests",
            dependencies: [
                "SchemaLab", "SchemaLabEngine", "SchemaLabCoreData", "SchemaLabSQLite", "SchemaLabTestSupport",
                "SchemaLabEngineTestSupport", "SchemaLabImportTestSupport",
            ]
        ),
        .testTarget(
            name: "SchemaLabCLITests",
            dependencies: [
                "schemalab", "SchemaLab", "SchemaLabEngine", "SchemaLabCoreData", "SchemaLabSQLite", "SchemaLabTestSupport",
                "SchemaLabEngineTestSupport", "SchemaLabImportTestSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
