import Foundation

/// Finds the model behind a path the user gives `schemalab import`: an `.xcdatamodeld`
/// bundle (its current version, named in `.xccurrentversion`), an `.xcdatamodel` folder,
/// its `contents` XML file, or a SQLite store (read by `StoreModelReader`).
package enum ModelSource {
    /// Reads the model at `path`.
    package static func read(path: String) throws -> ImportedModel {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ModelImportError(file: path, line: 0, element: "", message: "no such file or folder")
        }
        if isDirectory.boolValue {
            return try read(path: try contentsFile(in: path))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ModelImportError(file: path, line: 0, element: "", message: "cannot read the file")
        }
        if data.starts(with: Array("SQLite format 3\0".utf8)) {
            return try StoreModelReader.read(path: path)
        }
        return try ModelXMLReader.read(data: data, file: path)
    }

    /// The `contents` file of a model folder.
    static func contentsFile(in folder: String) throws -> String {
        let fm = FileManager.default
        let url = URL(fileURLWithPath: folder)
        if url.pathExtension == "xcdatamodeld" {
            let versions = ((try? fm.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".xcdatamodel") }.sorted()
            let current = url.appendingPathComponent(".xccurrentversion").path
            // How to pick a version by hand, for the messages below.
            let pick =
                versions.isEmpty
                ? "the bundle holds no .xcdatamodel version"
                : "the bundle's versions: \(versions.joined(separator: ", ")); import one of them by its folder, as in schemalab import '\(url.appendingPathComponent(versions.last!).path)'"
            if fm.fileExists(atPath: current) {
                guard let data = fm.contents(atPath: current),
                    let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
                    let name = plist["_XCCurrentVersionName"] as? String
                else {
                    throw ModelImportError(
                        file: current, line: 0, element: "",
                        message: "not a property list naming the current version (_XCCurrentVersionName): \(pick)")
                }
                guard versions.contains(name) else {
                    throw ModelImportError(
                        file: current, line: 0, element: "",
                        message: "names the current version \(name), which is not in the bundle: \(pick)")
                }
                return url.appendingPathComponent(name).appendingPathComponent("contents").path
            }
            guard versions.count == 1 else {
                throw ModelImportError(
                    file: folder, line: 0, element: "",
                    message: versions.isEmpty ? pick : "no .xccurrentversion says which version is current: \(pick)"
                )
            }
            return url.appendingPathComponent(versions[0]).appendingPathComponent("contents").path
        }
        let contents = url.appendingPathComponent("contents").path
        guard fm.fileExists(atPath: contents) else {
            throw ModelImportError(
                file: folder, line: 0, element: "",
                message: "not a Core Data model: give an .xcdatamodeld bundle, an .xcdatamodel folder, its contents file or a SQLite store")
        }
        return contents
    }
}
