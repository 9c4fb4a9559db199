import Foundation
import SchemaLabSQLite

/// Core Data's external storage for a binary attribute with
/// `allowsExternalBinaryDataStorage`: a value larger than the attribute's threshold goes to
/// a file of its own, named by a UUID, in `.<store name>_SUPPORT/_EXTERNAL_DATA/` beside the
/// store, and the column holds a reference to it; a smaller value stays in the column.
///
/// The column's encoding is the lab's ([I]: Core Data's is private): one tag byte, then the
/// bytes (tag 1, inline) or the file's name in ASCII (tag 2, external). NULL stays NULL.
package enum ExternalBinaryData {
    static let inlineTag: UInt8 = 1
    static let externalTag: UInt8 = 2
    /// The threshold when the scenario gives none: 100 KB (Core Data's own rule is not
    /// published; values of about this size and above are reported to go to files).
    package static let defaultThreshold = 100 * 1024

    /// The directory of a store's external files.
    package static func directory(forStore path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().path + "/.\(name)_SUPPORT/_EXTERNAL_DATA"
    }

    /// The column value for `value`: inline with its tag, or written to a new file (whose
    /// name is returned) and referenced.
    static func encode(_ value: SQLValue, threshold: Int, directory: String) throws -> (stored: SQLValue, file: String?) {
        guard case .blob(let bytes) = value else { return (value, nil) }
        guard bytes.count > threshold else { return (.blob([inlineTag] + bytes), nil) }
        let name = UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(bytes)) else {
            throw SQLiteError(code: 10, message: "cannot write external data file \(directory)/\(name)")
        }
        return (.blob([externalTag] + Array(name.utf8)), name)
    }

    /// What a stored column value holds: inline bytes, or the name of an external file.
    enum Stored {
        case value(SQLValue)
        case file(String)
    }

    /// Reads a stored column value's tag.
    static func stored(_ value: SQLValue) -> Stored {
        guard case .blob(let bytes) = value, let tag = bytes.first else { return .value(value) }
        if tag == externalTag, let name = String(bytes: bytes.dropFirst(), encoding: .ascii) { return .file(name) }
        if tag == inlineTag { return .value(.blob(Array(bytes.dropFirst()))) }
        return .value(value)
    }

    /// The bytes of an external file.
    static func read(_ name: String, directory: String) throws -> SQLValue {
        guard let data = FileManager.default.contents(atPath: directory + "/" + name) else {
            throw SQLiteError(code: 14, message: "external data file \(directory)/\(name) is missing")
        }
        return .blob(Array(data))
    }

    /// A stored column value as the attribute's value (reading its file when external).
    package static func decode(_ value: SQLValue, directory: String) throws -> SQLValue {
        switch stored(value) {
        case .value(let v): return v
        case .file(let name): return try read(name, directory: directory)
        }
    }

    /// Removes external files (a missing one is not an error).
    static func remove(_ names: [String], directory: String) {
        for n in names { try? FileManager.default.removeItem(atPath: directory + "/" + n) }
    }
}
