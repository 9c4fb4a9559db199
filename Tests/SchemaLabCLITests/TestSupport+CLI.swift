import Foundation
import SchemaLabTestSupport

/// Running the built `schemalab`: only this test target depends on the executable, so only
/// its tests run it (the library targets' tests call the library).
extension TestSupport {
    /// The built `schemalab` executable: next to the test bundle, else in .build/debug.
    static var executable: String {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/schemalab",
            Bundle.main.bundleURL.path + "/schemalab",
            packageRoot + "/.build/debug/schemalab",
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }

    /// Runs the CLI; returns exit status, standard output and standard error. `environment`
    /// entries are added to this process's environment (TMPDIR, say).
    static func runCLI(
        _ arguments: [String], in directory: String = packageRoot,
        environment: [String: String] = [:]
    ) throws -> (status: Int32, out: String, err: String) {
        try runProcess(executable, arguments, in: directory, environment: environment)
    }
}
