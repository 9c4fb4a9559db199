import Foundation
import Testing
import SchemaLabTestSupport

/// The package as others see it: SwiftPM refuses a dependency whose targets carry unsafe
/// flags, so none of ours may, or no package could use the SchemaLab library; only the
/// SQLite layer may import the C API; and the tests keep the layers as the targets do.
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
                let imports = TestTargetLayers.importedModules(of: text)
                if target != "SchemaLabSQLite" { #expect(!imports.contains("CSQLite"), "\(target)/\(file) imports CSQLite") }
                for other in order[level...] where imports.contains(other) {
                    #expect(other == target, "\(target)/\(file) imports \(other), a layer above it")
                }
            }
        }
    }

    @Test(
        "Each test target depends only on its library target, the ones below it and the support targets that reach no higher; each test file imports only those"
    )
    func testTargetsKeepTheLayers() throws {
        let layers = TestTargetLayers(manifest: try Self.manifest())
        func imports(_ file: String) throws -> [String] {
            TestTargetLayers.importedModules(of: try String(contentsOfFile: TestSupport.packageRoot + "/" + file, encoding: .utf8))
        }
        #expect(Set(layers.tests.map(\.name)) == Set(TestTargetLayers.libraries.map { $0 + "Tests" } + [TestTargetLayers.acrossLayers]))
        #expect(
            layers.supports.first { $0.name == "SchemaLabTestSupport" }?.dependencies == [],
            "SchemaLabTestSupport depends on no lab target (the toolchain only)")
        for target in layers.tests {
            guard let layer = TestTargetLayers.layer(ofTest: target.name) else {
                Issue.record("\(target.name) is the tests of no library target")
                continue
            }
            let allowed = layers.allowed(layer: layer)
            for dependency in target.dependencies where !allowed.contains(dependency) {
                Issue.record("\(target.name) depends on \(dependency), above its layer")
            }
            let files = TestTargetLayers.swiftFiles(of: target, packageRoot: TestSupport.packageRoot)
            #expect(!files.isEmpty, "\(target.name) has Swift files")
            for file in files {
                for module in try imports(file) where !allowed.contains(module) && !TestTargetLayers.toolchain.contains(module) {
                    Issue.record("\(file) imports \(module), above \(target.name)'s layer")
                }
            }
        }
        for support in layers.supports {
            for file in TestTargetLayers.swiftFiles(of: support, packageRoot: TestSupport.packageRoot) {
                for module in try imports(file) where !support.dependencies.contains(module) && !TestTargetLayers.toolchain.contains(module)
                {
                    Issue.record("\(file) imports \(module), which \(support.name) does not depend on")
                }
            }
        }
    }

    @Test("No cycle between the folders of a library target (a folder uses only the folders below it)")
    func foldersInOneDirection() throws {
        for target in ["SchemaLabSQLite", "SchemaLabCoreData", "SchemaLabEngine", "SchemaLab"] {
            let graph = try FolderGraph(targetRoot: TestSupport.packageRoot + "/Sources/" + target)
            #expect(graph.folders.count > 1, "\(target) has folders")
            if let cycle = graph.cycle() {
                Issue.record("\(target): the folders use each other: \(cycle.joined(separator: " -> ")) (\(graph.evidence(cycle)))")
            }
        }
    }
}

/// Which folder of a target uses which, read from the source: a folder uses another when its
/// code names a type declared at the top level of the other's files (and of no other folder).
/// A heuristic, not the compiler's view, but it finds the cycles the layout forbids.
struct FolderGraph {
    /// Folder name to the folders it uses, with one type name per edge as evidence.
    private(set) var uses: [String: [String: String]] = [:]
    var folders: [String] { uses.keys.sorted() }

    init(targetRoot: String) throws {
        let files = FileManager.default.enumerator(atPath: targetRoot)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        let declaration = try NSRegularExpression(
            pattern:
                #"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|final|open|indirect)\s+)*(?:class|struct|enum|protocol|actor|typealias)\s+([A-Z]\w*)"#,
            options: .anchorsMatchLines)
        let word = try NSRegularExpression(pattern: #"\b[A-Z]\w*\b"#)
        var texts: [String: [String]] = [:]
        var owners: [String: Set<String>] = [:]
        for file in files {
            let folder = file.split(separator: "/").first.map(String.init) ?? file
            guard file.contains("/") else { continue }
            let text = try String(contentsOfFile: targetRoot + "/" + file, encoding: .utf8)
                .split(separator: "\n").map { line in
                    line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                }
                .joined(separator: "\n")
            texts[folder, default: []].append(text)
            let range = NSRange(text.startIndex..., in: text)
            for match in declaration.matches(in: text, range: range) {
                if let name = Range(match.range(at: 1), in: text) { owners[String(text[name]), default: []].insert(folder) }
            }
        }
        for (folder, sources) in texts {
            var edges: [String: String] = [:]
            for text in sources {
                for match in word.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    guard let range = Range(match.range, in: text) else { continue }
                    let name = String(text[range])
                    if let owner = owners[name], owner.count == 1, let other = owner.first, other != folder { edges[other] = name }
                }
            }
            uses[folder] = edges
        }
    }

    /// A cycle of folders, first folder repeated at the end, or nil when there is none.
    func cycle() -> [String]? {
        var state: [String: Bool] = [:]  // false: on the path, true: done
        var path: [String] = []
        func visit(_ folder: String) -> [String]? {
            if state[folder] == true { return nil }
            if state[folder] == false, let start = path.firstIndex(of: folder) { return Array(path[start...]) + [folder] }
            state[folder] = false
            path.append(folder)
            for next in (uses[folder] ?? [:]).keys.sorted() {
                if let found = visit(next) { return found }
            }
            path.removeLast()
            state[folder] = true
            return nil
        }
        for folder in folders {
            if let found = visit(folder) { return found }
        }
        return nil
    }

    /// The type names behind each edge of `cycle`: "Compare uses Claims (ClaimsFile), ...".
    func evidence(_ cycle: [String]) -> String {
        zip(cycle, cycle.dropFirst()).map { from, to in "\(from) uses \(to) (\(uses[from]?[to] ?? "?"))" }.joined(separator: ", ")
    }
}
