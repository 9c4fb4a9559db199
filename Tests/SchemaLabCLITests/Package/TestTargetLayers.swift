import Foundation

/// The layers the test targets keep, read from `swift package dump-package`: the tests of a
/// library target (`<Target>Tests`) may use that target, the ones below it and the support
/// targets (the targets under Tests/ that are not test targets) that reach no higher;
/// SchemaLabCLITests, what runs across the layers, may use everything, the `schemalab`
/// executable included.
struct TestTargetLayers {
    /// The library targets, lowest first.
    static let libraries = ["SchemaLabSQLite", "SchemaLabCoreData", "SchemaLabEngine", "SchemaLab"]
    /// The test target of what runs across the layers, above every library target.
    static let acrossLayers = "SchemaLabCLITests"
    /// The executable only `acrossLayers` may use.
    static let executable = "schemalab"
    /// The toolchain's modules, which any test or support file may import.
    static let toolchain: Set<String> = ["Foundation", "Testing", "Synchronization", "Glibc", "Dispatch"]

    /// A test or support target: its declared dependencies and its folder.
    struct Target {
        var name: String
        var dependencies: [String]
        var path: String
    }

    private(set) var tests: [Target] = []
    private(set) var supports: [Target] = []

    init(manifest: [String: Any]) {
        for target in manifest["targets"] as? [[String: Any]] ?? [] {
            guard let name = target["name"] as? String, let type = target["type"] as? String else { continue }
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                dependency.values.compactMap { ($0 as? [Any])?.first as? String }.first
            }
            let path = target["path"] as? String ?? (type == "test" ? "Tests/" : "Sources/") + name
            if type == "test" {
                tests.append(Target(name: name, dependencies: dependencies, path: path))
            } else if type == "regular" && path.hasPrefix("Tests/") {
                supports.append(Target(name: name, dependencies: dependencies, path: path))
            }
        }
    }

    /// A test target's layer: the index of its library target in ``libraries``, one above them
    /// all for ``acrossLayers``; nil for a test target that is neither.
    static func layer(ofTest name: String) -> Int? {
        if name == acrossLayers { return libraries.count }
        guard name.hasSuffix("Tests") else { return nil }
        return libraries.firstIndex(of: String(name.dropLast("Tests".count)))
    }

    /// The highest layer a support target reaches through its dependencies: -1 for none (the
    /// toolchain only); a dependency that is neither a library nor a support target counts as
    /// above them all.
    func layer(ofSupport name: String) -> Int {
        guard let support = supports.first(where: { $0.name == name }) else { return Self.libraries.count }
        return support.dependencies.map { dependency in
            if let index = Self.libraries.firstIndex(of: dependency) { return index }
            return supports.contains { $0.name == dependency } ? layer(ofSupport: dependency) : Self.libraries.count
        }.max() ?? -1
    }

    /// The targets a test target at `layer` may depend on and import: the library targets up
    /// to it, the support targets that reach no higher, and above the libraries the executable.
    func allowed(layer: Int) -> Set<String> {
        var out = Set(Self.libraries.prefix(layer + 1))
        if layer >= Self.libraries.count { out.insert(Self.executable) }
        out.formUnion(supports.filter { self.layer(ofSupport: $0.name) <= layer }.map(\.name))
        return out
    }

    /// The Swift files of `target`, relative to the package root.
    static func swiftFiles(of target: Target, packageRoot: String) -> [String] {
        let files = FileManager.default.enumerator(atPath: packageRoot + "/" + target.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".swift") }.sorted().map { target.path + "/" + $0 }
    }

    /// The modules `source` imports (`import M`, `@testable import M`, `import struct M.T`, at
    /// the start of a line: an indented "import" is in a string or a comment).
    static func importedModules(of source: String) -> [String] {
        source.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("import ") || line.hasPrefix("@testable import ") else { return nil }
            var words = line.split(separator: " ").map(String.init)
            if words.first == "@testable" { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { return nil }
            let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var"]
            let module = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
            return String(module.prefix { $0 != "." })
        }
    }
}
