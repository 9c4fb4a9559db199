import Foundation
import SchemaLabSQLite

/// A Core Data-shaped SQLite store: one connection to a file laid out for one
/// `ResolvedModel`, opened the way Core Data opens it.
public final class Store {
    public let db: Database
    package let model: ResolvedModel
    public let path: String

    /// Pragmas Core Data sets on a new store (before any table exists).
    static let creationPragmas = [Pragma(name: "page_size", value: "4096"), Pragma(name: "auto_vacuum", value: "incremental")]
    /// Pragmas Core Data sets on every connection.
    static let connectionPragmas = [Pragma(name: "recursive_triggers", value: "1"), Pragma(name: "journal_mode", value: "wal")]

    private init(db: Database, model: ResolvedModel, path: String) {
        self.db = db
        self.model = model
        self.path = path
    }

    /// Creates a new store at `path` (which must not exist) with the model's schema.
    /// `pragmas` from the scenario override Core Data's defaults.
    package static func create(path: String, model: ResolvedModel, pragmas: [Pragma] = []) throws -> Store {
        let db = try Database(path: path)
        let creation = creationPragmas.map { p in pragmas.first { $0.name == p.name } ?? p }
        for p in creation { try db.executeScript("pragma \(p.name)=\(p.value)") }
        try applyConnectionPragmas(db, pragmas, skipping: Set(creation.map(\.name)))
        try db.executeScript("BEGIN")
        for sql in SchemaDDL(model: model).statements { try db.executeScript(sql) }
        let uuid = SHA256.hex(Array(model.variant.utf8)).prefix(32).uppercased()
        try db.executeScript("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, '\(uuid)', NULL)")
        try db.executeScript("COMMIT")
        return Store(db: db, model: model, path: path)
    }

    /// Opens an existing store with Core Data's connection sequence (§0).
    package static func open(path: String, model: ResolvedModel, pragmas: [Pragma] = []) throws -> Store {
        guard FileManager.default.fileExists(atPath: path) else {
            throw SQLiteError(code: 14, message: "no store at \(path)")
        }
        let db = try Database(path: path)
        guard case .text = try db.scalar("SELECT TBL_NAME FROM SQLITE_MASTER WHERE TBL_NAME = 'Z_METADATA'") else {
            throw SQLiteError(code: 26, message: "\(path) is not a Core Data-shaped store (no Z_METADATA)")
        }
        try applyConnectionPragmas(db, pragmas, skipping: ["page_size", "auto_vacuum"])
        _ = try db.rows("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA")
        return Store(db: db, model: model, path: path)
    }

    private static func applyConnectionPragmas(_ db: Database, _ pragmas: [Pragma], skipping: Set<String>) throws {
        for sql in connectionPragmaStatements(pragmas, skipping: skipping) { _ = try db.rows(sql) }
    }

    /// The pragmas an opened connection runs: Core Data's, overridden and extended by the
    /// scenario's (names and values allow-listed by the decoder), less `skipping`.
    public static func connectionPragmaStatements(_ pragmas: [Pragma], skipping: Set<String> = ["page_size", "auto_vacuum"]) -> [String] {
        var list = connectionPragmas.map { p in pragmas.first { $0.name == p.name } ?? p }
        list += pragmas.filter { p in !skipping.contains(p.name) && !list.contains { $0.name == p.name } }
        return list.map { "pragma \($0.name)=\($0.value)" }
    }

    /// The directory of this store's external binary data files.
    public var externalDataDirectory: String { ExternalBinaryData.directory(forStore: path) }

    /// Removes a store file, its WAL and shared-memory files, and its external data files.
    public static func remove(path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let support = URL(fileURLWithPath: ExternalBinaryData.directory(forStore: path)).deletingLastPathComponent().path
        try? FileManager.default.removeItem(atPath: support)
    }

    /// Copies a store file and its external data files to `to` (not its `-wal`: a store the lab
    /// made is checkpointed when it closes; `ExistingStore` copies a user's `-wal` too).
    public static func copy(from: String, to: String) throws {
        try FileManager.default.copyItem(atPath: from, toPath: to)
        let source = URL(fileURLWithPath: ExternalBinaryData.directory(forStore: from)).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: source) else { return }
        let target = URL(fileURLWithPath: ExternalBinaryData.directory(forStore: to)).deletingLastPathComponent().path
        try FileManager.default.copyItem(atPath: source, toPath: target)
    }
}
