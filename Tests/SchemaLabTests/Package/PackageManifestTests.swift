import Foundation
import Testing

/// The package as others see it: SwiftPM refuses a dependency whose targets carry unsafe
/// flags, so none of ours may, or no package could use the SchemaLab library; and only the
/// SQLite layer may import the C API.
@Suite("Package.swift: usable as a dependency, layers in one direction")
struct PackageManifestTests {
    /// `swift package dump-package` as JSON. Its own scratch directory: `swift test` holds the
    /// lock on the package's .build while the tests run.
    static func manifest() throws -> [String: Any] {
        let scratch = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try TestSupport.runProcess(
            "/usr/bin/env", ["swift", "package", "--package-path", TestSupport.packageRoot, "--scratch-path", scratch, "dump-package"])
        #expect(result.status == 0, "\(result.err)")
        return try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any] ?? [:]
    }

    @Test("No target has unsafe flags, and the SchemaLab product holds the four library targets")
    func noUnsafeFlags() throws {
        let manifest = try Self.manifest()
        let targets = manifest["targets"] as? [[String: Any]] ?? []
        #expect(!targets.isEmpty)
        for target in targets {
            let settings = target["settings"] as? [[String: Any]] ?? []
            let unsafe = settings.filter { setting in
                let kind = setting["kind"] as? [String: Any] ?? [:]
                return kind.keys.contains("unsafeFlags")
            }
            #expect(unsafe.isEmpty, "\(target["name"] ?? "?") has unsafe flags: \(unsafe)")
        }
        let products = manifest["products"] as? [[String: Any]] ?? []
        let library = products.first { $0["name"] as? String == "SchemaLab" }
        #expect(Set(library?["targets"] as? [String] ?? []) == ["SchemaLabSQLite", "SchemaLabCoreData", "SchemaLabEngine", "SchemaLab"])
    }

    @Test("Only SchemaLabSQLite imports CSQLite; each library target imports only the targets below it")
    func layers() throws {
        let order = ["SchemaLabSQLite", "SchemaLabCoreData", "SchemaLabEngine", "SchemaLab"]
        for (level, target) in order.enumerated() {
            let root = TestSupport.packageRoot + "/Sources/" + target
            let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            #expect(!files.isEmpty, "\(target) has Swift files")
            for file in files {
                let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") }.map { String($0.dropFirst(7)) }
                if target != "SchemaLabSQLite" { #expect(!imports.contains("CSQLite"), "\(target)/\(file) imports CSQLite") }
                for other in order[level...] where imports.contains(other) {
                    #expect(other == target, "\(target)/\(file) imports \(other), a layer above it")
                }
            }
        }
    }
}
