// swift-tools-version:6.0
// The lab's fuzz targets for libFuzzer, in a package of their own so that the lab's normal
// build does not change: `make fuzz` builds them with -sanitize=fuzzer,address and runs each.
import PackageDescription

let targets = ["FuzzScenario", "FuzzPredicate", "FuzzModelXML", "FuzzStore", "FuzzLog"]

let package = Package(
    name: "SchemaLabFuzz",
    products: targets.map { .executable(name: $0, targets: [$0]) },
    dependencies: [.package(name: "SchemaLab", path: "..")],
    targets: [.target(name: "FuzzDriver", dependencies: [.product(name: "SchemaLab", package: "SchemaLab")])]
        + targets.map { .executableTarget(name: $0, dependencies: ["FuzzDriver"]) }
)
