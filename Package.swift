// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SchemaLab",
    products: [
        .library(name: "SchemaLab", targets: ["SchemaLab"]),
        .executable(name: "schemalab", targets: ["schemalab"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The system SQLite, found with pkg-config. Only Sources/SchemaLab/SQLite imports it.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // glibc's mallinfo2, which Swift's Glibc module does not export: the heap a result holds.
        .target(name: "CHeap"),
        .target(
            name: "SchemaLab",
            dependencies: ["CSQLite", "CHeap"],
            // Release builds skip the run-time exclusivity checks (swift_beginAccess on every
            // class property access): they were 10% of an object fetch's instructions under
            // callgrind, overhead the raw baseline does not have. Debug builds (make test) keep them.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
        ),
        // The CLI lives in Sources/CLI, not Sources/schemalab: on a case-insensitive
        // file system (macOS) that folder would collide with Sources/SchemaLab.
        .executableTarget(
            name: "schemalab",
            dependencies: [
                "SchemaLab",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/CLI"
        ),
        .testTarget(
            name: "SchemaLabTests",
            dependencies: ["SchemaLab", "schemalab"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
