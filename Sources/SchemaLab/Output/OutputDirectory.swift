import Foundation

/// Writes a run's files so that nothing is lost: into a staging directory next to
/// the target, then moved into place in one rename. An existing target is never
/// replaced unless asked; when it is, the old one is kept as `<target>.previous`
/// until the new one is in place.
public struct OutputDirectory {
    public let path: String
    public let replace: Bool

    public init(path: String, replace: Bool) {
        self.path = path
        self.replace = replace
    }

    /// Refuses early (before any measuring) when the target exists and may not be replaced.
    public func checkWritable() throws {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
            if !isDir.boolValue { throw OutputError(message: "\(path) exists and is not a directory") }
            if !replace { throw OutputError(message: "\(path) already exists: choose another --out, or pass --replace (the old results are kept as \(path).previous)") }
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && !FileManager.default.fileExists(atPath: parent) {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        }
    }

    /// Writes `files` (name -> text) as the directory's whole content.
    public func write(_ files: [String: String]) throws {
        try checkWritable()
        let fm = FileManager.default
        let staging = path + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        try? fm.removeItem(atPath: staging)
        try fm.createDirectory(atPath: staging, withIntermediateDirectories: true)
        do {
            for (name, text) in files {
                try Data(text.utf8).write(to: URL(fileURLWithPath: staging + "/" + name), options: .atomic)
            }
            if fm.fileExists(atPath: path) {
                let previous = path + ".previous"
                try? fm.removeItem(atPath: previous)
                try fm.moveItem(atPath: path, toPath: previous)
            }
            try fm.moveItem(atPath: staging, toPath: path)
        } catch {
            try? fm.removeItem(atPath: staging)
            throw error
        }
    }
}

/// A problem with the output directory.
public struct OutputError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}
