// swift-tools-version:6.0
// SchemaLab as another package uses it: this package depends on the lab by path and runs a
// scenario from Swift (Tests/ExamplesTests), as docs/getting-started.md shows. `make test`
// builds it and runs its tests.
import Foundation
import PackageDescription

/// The lab's package identity: the name of the folder it is checked out in.
let lab = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "SchemaLabExamples",
    dependencies: [.package(path: "..")],
    targets: [
        // The program CallgrindCounter runs to count one repetition of a case under valgrind.
        .executableTarget(
            name: "count-case",
            dependencies: [.product(name: "SchemaLab", package: lab)],
            path: "Sources/CountCase"
        ),
        .testTarget(
            name: "ExamplesTests",
            dependencies: [.product(name: "SchemaLab", package: lab), "count-case"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
